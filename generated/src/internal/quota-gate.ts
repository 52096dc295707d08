// Copied by im-openapi from templates/runtime/internal/quota-gate.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The application-wide quota gate (internal, unstable). The OpenAPI quota is per application:
 * a 429 answer to any call pauses EVERY call of the client until the Retry-After wait is over.
 */
import type { Sleep } from './call-scope.js';

export class QuotaGate {
  #pausedUntil = 0;
  readonly #now: () => number;
  readonly #sleep: Sleep;

  constructor(now: () => number, sleep: Sleep) {
    this.#now = now;
    this.#sleep = sleep;
  }

  /** Keeps every call from sending until `until` (epoch ms); never shortens a longer pause. */
  pauseUntil(until: number): void {
    if (until > this.#pausedUntil) this.#pausedUntil = until;
  }

  /** Ms left in the current pause (0 when open). */
  remainingMs(): number {
    return Math.max(0, this.#pausedUntil - this.#now());
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
