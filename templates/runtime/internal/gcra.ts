/**
 * GCRA (generic cell rate algorithm) as a scheduler (internal, unstable): each reservation
 * takes the next send slot of a rate and says how long to wait for it. The same arithmetic runs
 * in Redis (`stores/redis-quota-store.ts`, Lua) for a fleet; this is the in-process one.
 *
 * State is one number, the theoretical arrival time (TAT) of the next slot. With emission
 * interval T = 1000 / perSecond and burst b, a slot is free when TAT − (b − 1)·T ≤ now; a
 * reservation moves TAT by T. In any window of W ms at most b + W / T slots are handed out.
 */

export interface RateSpec {
  /** Slots per second (> 0). */
  perSecond: number;
  /** Slots that may go out back to back after a quiet spell (≥ 1). */
  burst: number;
}

export interface Reservation {
  /** True when a slot was taken; false when it would have needed more than maxWaitMs. */
  reserved: boolean;
  /** Ms to wait for the slot (0 = now). When not reserved: the wait that would have been needed. */
  waitMs: number;
}

export class Gcra {
  #tat = 0;

  /** Takes the next slot when it is at most `maxWaitMs` away. */
  reserve(rate: RateSpec, now: number, maxWaitMs: number): Reservation {
    const interval = 1000 / rate.perSecond;
    const tolerance = (rate.burst - 1) * interval;
    const tat = Math.max(this.#tat, now);
    const waitMs = Math.max(0, tat - tolerance - now);
    if (waitMs > maxWaitMs) return { reserved: false, waitMs };
    this.#tat = tat + interval;
    return { reserved: true, waitMs };
  }
}
