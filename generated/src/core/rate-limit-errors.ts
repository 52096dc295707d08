// Copied by im-openapi from templates/runtime/core/rate-limit-errors.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * Calls the client's rate limits kept from going out (a 429 pause past `maxRetryAfterMs`, a rate
 * limit slot not given within the call's wait): not answers of the service. Re-exported by
 * `errors.ts` with the rest.
 */
import { ImError } from './error-base.js';

/**
 * A call that was NOT sent: the client is paused by an earlier 429 for longer than
 * `maxRetryAfterMs` (`client.rateLimit` shows the pause and can clear it). Not an `ApiError`: the
 * service did not answer this call. `sent` is false; `attempts` counts the attempts this call
 * had sent before the pause stopped it (0 for a call that never went out).
 */
export class RateLimitPausedError extends ImError {
  readonly code = 'rate_limit_paused' as const;
  readonly sent = false as const;
  readonly operationId: string;
  readonly attempts: number;
  /** Ms left in the pause when the call was refused. */
  readonly retryAfterMs: number;
  /** Epoch ms when the pause ends. */
  readonly pausedUntil: number;
  /**
   * Which pause: `app`, every call of the application (a 429 to a REST call: the quota is per
   * application), or `exchange`, the token exchanges of this host (a 429 to a token exchange: the
   * service limits exchanges per source IP; calls with a valid App Token go on).
   */
  readonly gate: 'app' | 'exchange';
  constructor(init: {
    operationId: string;
    attempts: number;
    retryAfterMs: number;
    pausedUntil: number;
    maxRetryAfterMs: number;
    gate?: 'app' | 'exchange';
  }) {
    const gate = init.gate ?? 'app';
    super(
      gate === 'app'
        ? `${init.operationId} was not sent: the client is paused by an earlier 429 for ${init.retryAfterMs} ms more, longer than ` +
            `maxRetryAfterMs (${init.maxRetryAfterMs} ms). Retry after retryAfterMs, raise maxRetryAfterMs, or call client.rateLimit.clear() ` +
            'if you know the quota is available again.'
        : `${init.operationId} was not sent: token exchanges of this host are paused by an earlier 429 to a token exchange (the service ` +
            `limits exchanges per source IP) for ${init.retryAfterMs} ms more, longer than maxRetryAfterMs (${init.maxRetryAfterMs} ms). ` +
            'Calls holding a valid App Token are not affected; retry after retryAfterMs, or share the App Token between processes (tokenStore) so fewer exchanges are needed.',
    );
    this.gate = gate;
    this.operationId = init.operationId;
    this.attempts = init.attempts;
    this.retryAfterMs = init.retryAfterMs;
    this.pausedUntil = init.pausedUntil;
  }
}

/**
 * The client-side rate limit (`rateLimit` option) or the token exchange pacing (120 a minute per
 * source IP) would make this call wait longer than it may: past its deadline, or past
 * `rateLimit.maxWaitMs`. Nothing was sent.
 */
export class RateLimitWaitError extends ImError {
  readonly code = 'rate_limit_wait' as const;
  readonly sent = false as const;
  readonly operationId: string;
  /** What the call waited for: a send slot of the rate limit, or a token exchange slot of this host. */
  readonly limit: 'rateLimit' | 'exchangePacing';
  /** Ms the call had waited when it was given up. */
  readonly waitedMs: number;
  /** The wait it would have needed, as far as known (at least this much). */
  readonly neededMs: number;
  /** The call's budget: its remaining deadline or rateLimit.maxWaitMs, whichever was shorter. */
  readonly budgetMs: number;
  constructor(init: {
    operationId: string;
    limit: 'rateLimit' | 'exchangePacing';
    waitedMs: number;
    neededMs: number;
    budgetMs: number;
    perSecond: number;
    cause?: unknown;
  }) {
    const what =
      init.limit === 'rateLimit'
        ? `a send slot of the client's rateLimit (${init.perSecond}/s)`
        : `a token exchange slot of this host (the service allows 120 a minute per source IP)`;
    super(
      `${init.operationId} was not sent: it would wait at least ${Math.round(init.neededMs)} ms for ${what}, longer than its budget of ` +
        `${Math.round(init.budgetMs)} ms (its deadline or rateLimit.maxWaitMs). Lower the call rate, raise deadlineMs or rateLimit.maxWaitMs, ` +
        "or send bulk work with priority 'background' so interactive calls go first.",
      init.cause !== undefined ? { cause: init.cause } : undefined,
    );
    this.operationId = init.operationId;
    this.limit = init.limit;
    this.waitedMs = Math.round(init.waitedMs);
    this.neededMs = Math.round(init.neededMs);
    this.budgetMs = Math.round(init.budgetMs);
  }
}
