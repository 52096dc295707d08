// Copied by im-openapi from templates/runtime/internal/retry.ts. Do not edit here: edit the template and run `npm run generate`.
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
 * Parses a Retry-After header: delta-seconds (`"3"`, `"1.5"`) or an HTTP-date. Returns the
 * wait in ms from `now` (0 for a date in the past), or undefined when absent or unparsable.
 */
export function parseRetryAfterMs(value: string | null | undefined, now: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  if (/^-/.test(text)) return 0;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** Statuses after which a resend is allowed for classes Q, I, U, D. */
export function isRetryableStatus(status: number): boolean {
  return status >= 500 && status <= 599;
}
