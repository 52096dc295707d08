// Copied by im-openapi from templates/runtime/callbacks/times.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * Callback times (seed 001 section 2.6): UTC with exactly three millisecond digits, except a few
 * fields with six microsecond digits (user.session_created created_at, user.sessions_revoked
 * revoked_before, user.relogin_required sessions_revoked_before) — "compare without truncation".
 * JavaScript `Date` keeps milliseconds only, so times are compared as BigInt microseconds.
 */

export interface ParsedCallbackTime {
  /** Microseconds since 1970-01-01T00:00:00Z, exact. */
  epochMicros: bigint;
  /** Digits after the decimal point in the source (3 for ms, 6 for µs, 0 for none). */
  fractionDigits: number;
}

const TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

function daysFromCivil(y: number, m: number, d: number): number {
  // Howard Hinnant's days_from_civil, exact integer arithmetic.
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function daysInMonth(y: number, m: number): number {
  if (m === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(m) ? 30 : 31;
}

/** Parses an RFC 3339 time with 0 to 6 fraction digits; throws RangeError on anything else. */
export function parseCallbackTime(value: string): ParsedCallbackTime {
  const m = typeof value === 'string' ? TIME.exec(value) : null;
  if (!m)
    throw new RangeError(`not a callback time (RFC 3339, at most 6 fraction digits): ${String(value).slice(0, 40)}`);
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const fraction = m[7] ?? '';
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 59) {
    throw new RangeError(`not a valid calendar time: ${value}`);
  }
  let offsetSeconds = 0;
  if (!m[8]) {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) throw new RangeError(`not a valid offset: ${value}`);
    offsetSeconds = (m[9] === '-' ? -1 : 1) * (oh * 3600 + om * 60);
  }
  const seconds = daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offsetSeconds;
  const micros = BigInt((fraction + '000000').slice(0, 6));
  return { epochMicros: BigInt(seconds) * 1_000_000n + micros, fractionDigits: fraction.length };
}

/** -1, 0 or 1 as `a` is before, equal to or after `b`; exact across ms and µs forms. */
export function compareCallbackTimes(a: string, b: string): -1 | 0 | 1 {
  const x = parseCallbackTime(a).epochMicros;
  const y = parseCallbackTime(b).epochMicros;
  return x < y ? -1 : x > y ? 1 : 0;
}
