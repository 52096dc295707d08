/**
 * The application-wide quota gate (internal, unstable; its view `RateLimitState` is public
 * through `client.rateLimit`). The OpenAPI quota is per application: a 429 answer to any call
 * pauses EVERY call of the client until the Retry-After wait is over.
 *
 * The pause is capped at `MAX_PAUSE_MS` (1 hour: the longest Retry-After the service itself
 * honours, callback seed 001 section 8), so that one absurd Retry-After cannot disable a client
 * for days; and the caller can see it and clear it (`client.rateLimit`).
 */
import { RateLimitPausedError } from '../core/errors.js';
import type { Sleep } from './call-scope.js';

/** Longest pause one 429 can impose on the client. */
export const MAX_PAUSE_MS = 60 * 60 * 1000;

/** What the caller sees of the gate: `client.rateLimit`. */
export interface RateLimitState {
  /** Epoch ms until which calls wait (or fail unsent, past maxRetryAfterMs); null when open. */
  readonly pausedUntil: number | null;
  /** Ms left in the current pause (0 when open). */
  readonly remainingMs: number;
  /** Opens the gate now (e.g. after the quota was raised); later 429s close it again. */
  clear(): void;
}

export class QuotaGate {
  #pausedUntil = 0;
  readonly #now: () => number;
  readonly #sleep: Sleep;
  /** `app`: every call of the application; `exchange`: the token exchanges of this host. */
  readonly kind: 'app' | 'exchange';

  constructor(now: () => number, sleep: Sleep, kind: 'app' | 'exchange' = 'app') {
    this.#now = now;
    this.#sleep = sleep;
    this.kind = kind;
  }

  /** Keeps every call from sending until `until` (epoch ms, capped at now + 1 h); never shortens a longer pause. */
  pauseUntil(until: number): void {
    const capped = Math.min(until, this.#now() + MAX_PAUSE_MS);
    if (capped > this.#pausedUntil) this.#pausedUntil = capped;
  }

  /** Ms left in the current pause (0 when open). */
  remainingMs(): number {
    return Math.max(0, this.#pausedUntil - this.#now());
  }

  clear(): void {
    this.#pausedUntil = 0;
  }

  /** The caller's view (live: reads the gate at each access). */
  view(): RateLimitState {
    const gate = this;
    return {
      get pausedUntil() {
        return gate.remainingMs() > 0 ? gate.#pausedUntil : null;
      },
      get remainingMs() {
        return gate.remainingMs();
      },
      clear: () => gate.clear(),
      toJSON() {
        return { pausedUntil: this.pausedUntil, remainingMs: this.remainingMs };
      },
    } as RateLimitState;
  }

  /** The error of a call that the gate keeps from being sent: it says so, with no status. */
  notSentError(operationId: string, attempts: number, maxRetryAfterMs: number): RateLimitPausedError {
    const waitMs = this.remainingMs();
    return new RateLimitPausedError({
      operationId,
      attempts,
      retryAfterMs: waitMs,
      pausedUntil: this.#pausedUntil,
      maxRetryAfterMs,
      gate: this.kind,
    });
  }

  /** Waits while the gate is closed; rejects with the signal's reason when it fires. */
  async wait(signal?: AbortSignal): Promise<number> {
    let waited = 0;
    for (let left = this.remainingMs(); left > 0; left = this.remainingMs()) {
      await this.#sleep(left, signal);
      waited += left;
    }
    return waited;
  }
}
