// Copied by im-openapi from templates/runtime/internal/ajv-runtime.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The few run-time helpers that Ajv standalone code calls (internal, unstable).
 *
 * Ajv's standalone output `require()`s these from the `ajv` package (`ajv/dist/runtime/*`) and
 * from `ajv-formats`; the generator (generator/emit/emit-validators.ts) rewrites those calls to
 * import the functions below instead, so the package has no runtime dependency and the
 * validators work in both the ESM and the CommonJS build. The generator refuses to emit a
 * validator that needs a helper missing here.
 */

/**
 * Length of a string in Unicode code points (a surrogate pair counts once), as JSON Schema's
 * minLength/maxLength count. Same algorithm as `ajv/dist/runtime/ucs2length` (punycode.ucs2.decode).
 */
export function ajvUcs2length(str: string): number {
  const len = str.length;
  let length = 0;
  let pos = 0;
  while (pos < len) {
    length++;
    const value = str.charCodeAt(pos++);
    if (value >= 0xd800 && value <= 0xdbff && pos < len) {
      // high surrogate followed by a low surrogate: one code point
      if ((str.charCodeAt(pos) & 0xfc00) === 0xdc00) pos++;
    }
  }
  return length;
}

/**
 * Deep equality of JSON values (what `enum`/`const` with object or array values need), the
 * contract of `ajv/dist/runtime/equal` (fast-deep-equal) restricted to JSON data.
 */
export function ajvDeepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    if (Array.isArray(a)) {
      const bb = b as unknown[];
      if (a.length !== bb.length) return false;
      for (let i = 0; i < a.length; i++) if (!ajvDeepEqual(a[i], bb[i])) return false;
      return true;
    }
    if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    for (const k of ka) {
      if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
      if (!ajvDeepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
    }
    return true;
  }
  // NaN equals NaN (as fast-deep-equal says)
  return a !== a && b !== b;
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;
const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * RFC 3339 `date-time` with a mandatory offset (`2025-01-31T12:00:00Z`,
 * `2025-01-31T12:00:00.5+08:00`): the `date-time` format of JSON Schema, checked with calendar
 * ranges (leap years, and a leap second 23:59:60 only as UTC 23:59:60).
 */
export function isDateTime(value: string): boolean {
  const m = DATE_TIME.exec(value);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = Number(m[6]);
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > (month === 2 && leap ? 29 : DAYS[month]!)) return false;
  const offH = m[8] === undefined ? 0 : Number(m[8]);
  const offM = m[9] === undefined ? 0 : Number(m[9]);
  if (offH > 23 || offM > 59) return false;
  if (hour > 23 || minute > 59) return false;
  if (second < 60) return true;
  if (second > 60) return false;
  // leap second: must be 23:59:60 in UTC
  const sign = m[7] === '-' ? -1 : 1;
  const utcMinutes = (((hour * 60 + minute - sign * (offH * 60 + offM)) % 1440) + 1440) % 1440;
  return utcMinutes === 23 * 60 + 59;
}

/** The formats validators may use, in the shape Ajv's code calls (`formats0.validate(x)`). */
export const ajvFormats: Readonly<Record<string, { readonly validate: (value: string) => boolean }>> = {
  'date-time': { validate: isDateTime },
};
