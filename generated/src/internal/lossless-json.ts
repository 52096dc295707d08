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

/**
 * A bigint is first written as a marked string, then the marked strings are turned into digits.
 * The marker holds a random part drawn per call, so a caller's own string that happens to look
 * like a marker (it cannot guess the random part) is never turned into a number.
 */
export function jsonStringifyLossless(value: unknown, space?: number): string | undefined {
  const tag = `\u0000bigint-${Math.random().toString(36).slice(2, 12)}:`;
  let found = false;
  const text = JSON.stringify(
    value,
    (_key, v: unknown) => {
      if (typeof v !== 'bigint') return v;
      found = true;
      return `${tag}${v.toString()}`;
    },
    space,
  );
  if (!found || text === undefined) return text;
  // the marker as JSON writes it ("\u0000bigint-<random>:123") → 123
  const written = JSON.stringify(tag)
    .slice(1, -1)
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return text.replace(new RegExp(`"${written}(-?\\d+)"`, 'g'), '$1');
}

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * A JSON string (skipped whole, escapes included) or an integer literal of 16+ digits (the only
 * ones that can exceed 2^53 − 1) that is a whole number literal, not digits of a fraction or an
 * exponent (guarded on both sides).
 */
const STRING_OR_LONG_INTEGER = /"(?:[^"\\]|\\.)*"|(?<![\d.eE+-])-?\d{16,}(?![.\deE])/g;

/**
 * JSON.parse, but integer literals beyond the safe range become bigints. They are found by one
 * regular-expression pass over the text outside strings, only when it has a run of 16+ digits.
 */
export function jsonParseLossless(text: string): unknown {
  if (!/\d{16}/.test(text)) return JSON.parse(text);
  // random per call, as in jsonStringifyLossless: a string in the body cannot pass for a marker
  const tag = `\u0000bigint-${Math.random().toString(36).slice(2, 12)}:`;
  let found = false;
  const marked = text.replace(STRING_OR_LONG_INTEGER, (token) => {
    if (token.charCodeAt(0) === 0x22) return token;
    const n = BigInt(token);
    if (n <= SAFE && n >= -SAFE) return token;
    found = true;
    return JSON.stringify(`${tag}${token}`);
  });
  if (!found) return JSON.parse(text);
  return JSON.parse(marked, (_key, v: unknown) =>
    typeof v === 'string' && v.startsWith(tag) ? BigInt(v.slice(tag.length)) : v,
  );
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
