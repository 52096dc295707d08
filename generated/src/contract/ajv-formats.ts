// Copied by im-openapi from templates/runtime/contract/ajv-formats.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The `format` checks that Ajv standalone code calls as `ajvFormats[name]` (internal, unstable),
 * apart from ajv-runtime.ts so that only the validators of schemas with a checked format load
 * them (the generator imports `ajvFormats` from here where the code names it).
 */

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;
const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** A day that exists (leap years of the Gregorian calendar). */
function isCalendarDay(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : DAYS[month]!);
}

/**
 * RFC 3339 `date-time` with a mandatory offset (`2025-01-31T12:00:00Z`,
 * `2025-01-31T12:00:00.5+08:00`): the `date-time` format of JSON Schema, checked with calendar
 * ranges (leap years, and a leap second 23:59:60 only as UTC 23:59:60).
 */
export function isDateTime(value: string): boolean {
  const m = DATE_TIME.exec(value);
  if (!m) return false;
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = Number(m[6]);
  if (!isCalendarDay(Number(m[1]), Number(m[2]), Number(m[3]))) return false;
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

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** RFC 3339 `full-date` with calendar ranges (`2025-02-29` is refused, `2024-02-29` accepted). */
export function isDate(value: string): boolean {
  const m = DATE.exec(value);
  return !!m && isCalendarDay(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** RFC 3339 `full-time` (offset required, as JSON Schema says): `12:00:00Z`, `23:59:60+00:00`. */
export function isTime(value: string): boolean {
  return isDateTime(`2000-01-01T${value}`);
}

/** ISO 8601 duration as RFC 3339 appendix A writes it: `P1DT2H`, `PT0.5S` is not allowed, `P2W`. */
const DURATION = /^P(?!$)((\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?|(\d+W)?)$/;
const EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
/** Internationalised addresses: one `@`, no spaces, a dotted domain of non-space labels. */
const IDN_EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)*$/u;
const HOSTNAME =
  /^(?=.{1,253}\.?$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[-0-9a-z]{0,61}[0-9a-z])?)*\.?$/i;
const IDN_HOSTNAME =
  /^(?=.{1,253}$)[^\s.\-_](?:[^\s._]{0,61}[^\s.\-_])?(?:\.[^\s.\-_](?:[^\s._]{0,61}[^\s.\-_])?)*\.?$/u;
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const HEX_GROUP = /^[0-9a-f]{1,4}$/i;
/** RFC 3986 characters (unreserved, reserved, `%`); the IRI forms add every non-ASCII character. */
const URI = /^[a-z][a-z0-9+.-]*:[\w\-.~:/?#[\]@!$&'()*+,;=%]*$/i;
const URI_REFERENCE = /^[\w\-.~:/?#[\]@!$&'()*+,;=%]*$/;
const IRI = /^[a-z][a-z0-9+.-]*:[\w\-.~:/?#[\]@!$&'()*+,;=%\u00a0-\u{10ffff}]*$/iu;
const IRI_REFERENCE = /^[\w\-.~:/?#[\]@!$&'()*+,;=%\u00a0-\u{10ffff}]*$/u;
const BAD_PERCENT = /%(?![0-9a-f]{2})/i;
const UUID = /^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;
const JSON_POINTER = /^(?:\/(?:[^~/]|~0|~1)*)*$/;
const RELATIVE_JSON_POINTER = /^(?:0|[1-9][0-9]*)(?:#|(?:\/(?:[^~/]|~0|~1)*)*)$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** RFC 4291 text form: 8 groups, or fewer with one `::`, optionally ending in an IPv4 address. */
export function isIpv6(value: string): boolean {
  const halves = value.split('::');
  if (halves.length > 2 || value.length > 45) return false;
  const groupsOf = (s: string) => (s === '' ? [] : s.split(':'));
  const groups = [...groupsOf(halves[0]!), ...(halves.length === 2 ? groupsOf(halves[1]!) : [])];
  let count = groups.length;
  const last = groups[groups.length - 1];
  if (last?.includes('.')) {
    if (!IPV4.test(last) || !value.endsWith(last)) return false;
    groups.pop();
    count += 1; // an IPv4 address fills two groups
  }
  if (!groups.every((g) => HEX_GROUP.test(g))) return false;
  return halves.length === 2 ? count <= 7 : count === 8;
}

function isRegex(value: string): boolean {
  try {
    new RegExp(value, 'u');
    return true;
  } catch {
    return false;
  }
}

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

type FormatCheck = { readonly type?: 'string' | 'number'; readonly validate: (value: string | number) => boolean };
const test = (re: RegExp) => ({ validate: (value: string | number) => re.test(String(value)) });

/**
 * The formats validators may use, in the shape Ajv's code calls (`formats0.validate(x)`). The
 * generator (generator/transform/formats.ts) lists the same names; a test checks the two agree.
 * The `@__PURE__` marks let a bundler drop the whole table (and its regexes) from an app whose
 * validators check no format: a call is otherwise kept for its possible side effects.
 */
export const ajvFormats: Readonly<Record<string, FormatCheck>> = {
  'date-time': { validate: (v) => isDateTime(String(v)) },
  date: { validate: (v) => isDate(String(v)) },
  time: { validate: (v) => isTime(String(v)) },
  duration: /* @__PURE__ */ test(DURATION),
  email: /* @__PURE__ */ test(EMAIL),
  'idn-email': /* @__PURE__ */ test(IDN_EMAIL),
  hostname: /* @__PURE__ */ test(HOSTNAME),
  'idn-hostname': /* @__PURE__ */ test(IDN_HOSTNAME),
  ipv4: /* @__PURE__ */ test(IPV4),
  ipv6: { validate: (v) => isIpv6(String(v)) },
  uri: { validate: (v) => typeof v === 'string' && URI.test(v) && !BAD_PERCENT.test(v) },
  'uri-reference': { validate: (v) => typeof v === 'string' && URI_REFERENCE.test(v) && !BAD_PERCENT.test(v) },
  iri: { validate: (v) => typeof v === 'string' && IRI.test(v) && !BAD_PERCENT.test(v) },
  'iri-reference': { validate: (v) => typeof v === 'string' && IRI_REFERENCE.test(v) && !BAD_PERCENT.test(v) },
  uuid: /* @__PURE__ */ test(UUID),
  'json-pointer': /* @__PURE__ */ test(JSON_POINTER),
  'relative-json-pointer': /* @__PURE__ */ test(RELATIVE_JSON_POINTER),
  regex: { validate: (v) => isRegex(String(v)) },
  byte: { validate: (v) => typeof v === 'string' && v.length % 4 === 0 && BASE64.test(v) },
  int32: {
    type: 'number',
    validate: (v) => typeof v === 'number' && Number.isInteger(v) && v >= INT32_MIN && v <= INT32_MAX,
  },
};
