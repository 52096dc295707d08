/**
 * Time budgets for store calls (issue 16 item 1). A shared store that stops answering must not
 * hang the calls that use it: node-redis, for one, queues commands while Redis is down and never
 * rejects them. Every store call of the token manager and of the callback kit goes through
 * `withStoreBudget`; the caller then falls back as the store's docs promise (the token manager
 * exchanges locally, the callback kit answers 503 or the hook's default decision).
 */
import { asStoreError, StoreError } from '../core/errors.js';

/** A store call did not settle within its budget. Its message names the call, never a key's value. An `ImError` (a `StoreError`). */
export class StoreTimeoutError extends StoreError {
  override readonly code: string = 'store_timeout';
  readonly budgetMs: number;
  constructor(what: string, budgetMs: number) {
    super(what, `did not answer within ${budgetMs} ms`);
    this.budgetMs = budgetMs;
  }
}

export { StoreError };

/** Default budget of one store call. */
export const DEFAULT_STORE_BUDGET_MS = 2_000;

/**
 * Settles as `promise` does, or rejects with a `StoreTimeoutError` after `ms`. The timer never
 * keeps the process alive, and a late rejection of `promise` is swallowed (it has been given up).
 * A rejection of the store's own (a Redis client's error) comes out as a `StoreError` naming `what`,
 * with the original as its `cause`: every store failure is an `ImError`.
 */
export function withStoreBudget<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  if (!(ms > 0)) {
    promise.catch(() => undefined);
    return Promise.reject(new StoreTimeoutError(what, Math.max(0, ms)));
  }
  if (!Number.isFinite(ms)) return promise.catch((err: unknown) => Promise.reject(asStoreError(err, what)));
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new StoreTimeoutError(what, ms)), ms);
    (timer as { unref?: () => void }).unref?.();
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(asStoreError(err, what));
      },
    );
  });
}
