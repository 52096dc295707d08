// Copied by im-openapi from templates/runtime/internal/lossless-json.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * JSON without losing 64-bit integers (internal, unstable).
 *
 * JavaScript numbers hold integers exactly up to 2^53 − 1; an `int64` field of the spec may be
 * larger. The SDK's rule: a big integer is a `bigint` in the SDK's hands, and raw digits on the
 * wire, never a rounded number.
 * - `jsonStringifyLossless(value)`: JSON.stringify that writes a bigint as its digits (plain
 *   JSON.stringify throws on bigint). The request builder must serialise JSON bodies with it.
 * - `jsonParseLossless(text)`: JSON.parse that keeps an integer beyond ±(2^53 − 1) as a bigint
 *   (plain JSON.parse silently rounds 9007199254740993 to 9007199254740992). Every other number
 *   stays a number, so bodies without big integers parse exactly as JSON.parse does.
 * - `bigintsAsNumbers(value)`: a copy for the validators (Ajv checks numbers, not bigints); the
 *   copy is only validated, never sent.
 */

/** Marker strings that cannot occur in JSON text produced by JSON.stringify for a string. */
const MARK = '\u0000bigint:';

export function jsonStringifyLossless(value: unknown, space?: number): string | undefined {
  let found = false;
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v !== 'bigint') return v;
    found = true;
    return `${MARK}${v.toString()}`;
  }, space);
  // "\u0000bigint:123" (as JSON writes the marker) → 123
  return found && text !== undefined ? text.replace(/"\\u0000bigint:(-?\d+)"/g, '$1') : text;
}

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * JSON.parse, but integer literals beyond the safe range become bigints. It finds them by
 * scanning the text outside strings (a short walk, only run when the text has a run of 16+ digits).
 */
export function jsonParseLossless(text: string): unknown {
  if (!/\d{16}/.test(text)) return JSON.parse(text);
  const big = new Set<string>();
  let out = '';
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // skip a string, honouring escapes
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
      continue;
    }
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      const m = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
      if (!m) continue;
      const literal = m[0];
      if (!m[1] && !m[2]) {
        const n = BigInt(literal);
        if (n > SAFE || n < -SAFE) {
          big.add(literal);
          out += `${text.slice(last, i)}"\\u0000bigint:${literal}"`;
          last = i + literal.length;
        }
      }
      i += literal.length - 1;
    }
  }
  if (!big.size) return JSON.parse(text);
  out += text.slice(last);
  return JSON.parse(out, (_key, v: unknown) => (typeof v === 'string' && v.startsWith(MARK) ? BigInt(v.slice(MARK.length)) : v));
}

/** A copy with every bigint as a number (for validation only); the same value when there is none. */
export function bigintsAsNumbers(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) {
    const items = value.map(bigintsAsNumbers);
    return items.some((v, i) => v !== value[i]) ? items : value;
  }
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    let copy: Record<string, unknown> | undefined;
    for (const [k, v] of Object.entries(value)) {
      const w = bigintsAsNumbers(v);
      if (w !== v) (copy ??= { ...(value as Record<string, unknown>) })[k] = w;
    }
    return copy ?? value;
  }
  return value;
}
