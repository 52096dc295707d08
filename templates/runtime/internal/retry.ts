/**
 * Retry decisions (internal, unstable). They come from the operation's retry class (REST seed
 * section 4), evaluated on the actual params, never from the HTTP method:
 *
 * - Q, I, U, D: resent after a network error, a per-attempt timeout or a 5xx answer.
 * - N: never resent after those (the request may already have been executed).
 * - Every class: resent after 429 (the request was not executed), after the Retry-After wait.
 */
import type { DedupeKeySpec, OperationSpec, ParamTest, RetryClass } from '../operation.js';

export interface RetryPolicy {
  retryClass: RetryClass;
  /** Resend after a network error, a per-attempt timeout or a 5xx answer. */
  resendOnFailure: boolean;
  /** D operations: where the dedupe key lives (filled before the first send). */
  dedupeKey: DedupeKeySpec | undefined;
}

export function paramTestHolds(test: ParamTest, params: Record<string, unknown>): boolean {
  const value = params[test.field];
  if ('equals' in test) return value === test.equals;
  const present = value !== undefined && value !== null;
  return test.present ? present : !present;
}

/** The class that applies to this call: the first condition of `retryClassWhen` that holds, else `retryClass`. */
export function retryClassFor(op: OperationSpec, params: Record<string, unknown>): RetryClass {
  for (const cond of op.retryClassWhen ?? []) {
    if (cond.all.every((t) => paramTestHolds(t, params))) return cond.class;
  }
  return op.retryClass;
}

export function retryPolicyFor(op: OperationSpec, params: Record<string, unknown> = {}): RetryPolicy {
  const retryClass = retryClassFor(op, params);
  return {
    retryClass,
    resendOnFailure: retryClass !== 'N',
    dedupeKey: op.dedupeKey,
  };
}

export interface BackoffOptions {
  baseMs?: number;
  factor?: number;
  capMs?: number;
}

/**
 * Exponential backoff with full jitter: a uniform wait in [0, min(cap, base * factor^(n-1))),
 * where `retryNumber` is 1 for the first resend. `random` returns a number in [0, 1).
 */
export function backoffDelayMs(retryNumber: number, random: () => number, opts: BackoffOptions = {}): number {
  const base = opts.baseMs ?? 500;
  const factor = opts.factor ?? 2;
  const cap = opts.capMs ?? 8_000;
  const ceiling = Math.min(cap, base * factor ** Math.max(0, retryNumber - 1));
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.floor(r * ceiling);
}

/**
 * Parses a Retry-After header strictly (RFC 9110 section 10.2.3): delay-seconds (`1*DIGIT`) or an
 * HTTP-date in one of its three forms (IMF-fixdate, obsolete RFC 850, asctime). Anything else
 * ("1.5", "-4", "foo 3000", a bare year) is not a Retry-After and gives undefined: the lenient
 * `Date.parse` would read "foo 3000" as the year 3000 and pause the client for a millennium.
 * Returns the wait in ms from `now` (0 for a date in the past); values past `MAX_RETRY_AFTER_S`
 * are clamped there (the caller caps further: maxRetryAfterMs, the quota gate's cap).
 */
export function parseRetryAfterMs(value: string | null | undefined, now: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Math.min(Number(text), MAX_RETRY_AFTER_S) * 1000;
  const at = parseHttpDate(text, now);
  if (at === undefined) return undefined;
  return Math.min(Math.max(0, at - now), MAX_RETRY_AFTER_S * 1000);
}

/** Far beyond any real wait; keeps huge digit strings ("9" × 400 is Infinity) finite. */
const MAX_RETRY_AFTER_S = 365 * 24 * 3600;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const LONG_DAY = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const MONTH = `(${MONTHS.join('|')})`;
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
/** IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`. */
const IMF_FIXDATE = new RegExp(`^${DAY}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
/** Obsolete RFC 850: `Sunday, 06-Nov-94 08:49:37 GMT`. */
const RFC850_DATE = new RegExp(`^${LONG_DAY}, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`);
/** Obsolete asctime: `Sun Nov  6 08:49:37 1994`. */
const ASCTIME_DATE = new RegExp(`^${DAY} ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`);

/**
 * An HTTP-date (RFC 9110 section 5.6.7) as epoch ms, or undefined for anything else. `now` (epoch
 * ms) anchors two-digit RFC 850 years; the client's clock, not the machine's.
 */
export function parseHttpDate(text: string, now = Date.now()): number | undefined {
  let m = IMF_FIXDATE.exec(text);
  if (m) return utc(Number(m[3]), m[2]!, Number(m[1]), m[4]!, m[5]!, m[6]!);
  m = RFC850_DATE.exec(text);
  if (m) {
    // Two-digit years: RFC 9110 says read them as the most recent year with those digits that is
    // not more than 50 years ahead; against the current century that is what this does.
    const yy = Number(m[3]);
    const thisYear = new Date(now).getUTCFullYear();
    let year = Math.floor(thisYear / 100) * 100 + yy;
    if (year > thisYear + 50) year -= 100;
    return utc(year, m[2]!, Number(m[1]), m[4]!, m[5]!, m[6]!);
  }
  m = ASCTIME_DATE.exec(text);
  if (m) return utc(Number(m[6]), m[1]!, Number(m[2]!.trim()), m[3]!, m[4]!, m[5]!);
  return undefined;
}

function utc(year: number, month: string, day: number, h: string, min: string, s: string): number | undefined {
  const mon = MONTHS.indexOf(month);
  const hours = Number(h);
  const minutes = Number(min);
  const seconds = Number(s);
  if (day < 1 || day > 31 || hours > 23 || minutes > 59 || seconds > 60) return undefined;
  const at = Date.UTC(year, mon, day, hours, minutes, Math.min(seconds, 59));
  // 31 Feb and friends roll over in Date.UTC: refuse them.
  if (new Date(at).getUTCDate() !== day) return undefined;
  return at;
}

/** Statuses after which a resend is allowed for classes Q, I, U, D. */
export function isRetryableStatus(status: number): boolean {
  return status >= 500 && status <= 599;
}
