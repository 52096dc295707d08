/**
 * What a fleet shares about the application's OpenAPI quota (issue 20), behind one small
 * interface: the send slots of a rate limit (GCRA), the quota gate that a 429 closes, and the
 * fleet's counters. `MemoryQuotaStore` is the embedded default (this process only);
 * `RedisQuotaStore` shares them between the processes of a fleet.
 */
import { Gcra, type RateSpec, type Reservation } from '../internal/gcra.js';

/** The counters a client keeps, per client and (summed through the store) per fleet. */
export interface QuotaCounters {
  /** Attempts sent to the service (the token exchange included). */
  sent: number;
  /** Calls that waited before sending (for the limiter or a closed gate). */
  waited: number;
  /** Total ms of those waits. */
  waitedMs: number;
  /** Calls failed unsent because the wait was longer than their budget. */
  throttled: number;
  /** 429 answers received. */
  rateLimited: number;
}

export const COUNTER_NAMES = [
  'sent',
  'waited',
  'waitedMs',
  'throttled',
  'rateLimited',
] as const satisfies ReadonlyArray<keyof QuotaCounters>;

export function zeroCounters(): QuotaCounters {
  return { sent: 0, waited: 0, waitedMs: 0, throttled: 0, rateLimited: 0 };
}

/** A reservation, with the gate's state as the store sees it. */
export interface QuotaReservation extends Reservation {
  /** Ms left on the shared gate (0 when open). */
  gateMs: number;
  /**
   * How many stores reserved slots of this key in the last 5 s (the fleet's size, as far as
   * known): a client that loses the store keeps to rate ÷ members on its own.
   */
  members?: number;
}

export interface QuotaStore {
  /**
   * Takes the next send slot of `key` at `rate` when it is at most `maxWaitMs` away, adds
   * `counters` to the key's totals, and reads the gate of `gateKey`.
   */
  reserve(
    key: string,
    rate: RateSpec,
    maxWaitMs: number,
    gateKey: string,
    counters?: Partial<QuotaCounters>,
  ): Promise<QuotaReservation>;
  /** Adds `counters` to the totals of `key` and answers the ms left on the gate of `gateKey`. */
  sync(key: string, gateKey: string, counters?: Partial<QuotaCounters>): Promise<number>;
  /** Closes the gate for `ms` (never shortens a longer close). */
  closeGate(gateKey: string, ms: number): Promise<void>;
  /** Opens the gate now. */
  openGate(gateKey: string): Promise<void>;
  /** The totals of `key` (every process that adds to them). */
  counters(key: string): Promise<QuotaCounters>;
}

/** This process only: the embedded default, and what a client falls back to while a shared store fails. */
export class MemoryQuotaStore implements QuotaStore {
  readonly #slots = new Map<string, Gcra>();
  readonly #gates = new Map<string, number>();
  readonly #totals = new Map<string, QuotaCounters>();
  readonly #now: () => number;

  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
  }

  async reserve(
    key: string,
    rate: RateSpec,
    maxWaitMs: number,
    gateKey: string,
    counters?: Partial<QuotaCounters>,
  ): Promise<QuotaReservation> {
    return { ...this.reserveNow(key, rate, maxWaitMs), gateMs: await this.sync(key, gateKey, counters) };
  }

  /** The synchronous reservation (the limiter's fallback needs no promise). */
  reserveNow(key: string, rate: RateSpec, maxWaitMs: number): Reservation {
    let slots = this.#slots.get(key);
    if (!slots) this.#slots.set(key, (slots = new Gcra()));
    return slots.reserve(rate, this.#now(), maxWaitMs);
  }

  async sync(key: string, gateKey: string, counters?: Partial<QuotaCounters>): Promise<number> {
    if (counters) addCounters(this.#total(key), counters);
    return Math.max(0, (this.#gates.get(gateKey) ?? 0) - this.#now());
  }

  async closeGate(gateKey: string, ms: number): Promise<void> {
    const until = this.#now() + ms;
    if (until > (this.#gates.get(gateKey) ?? 0)) this.#gates.set(gateKey, until);
  }

  async openGate(gateKey: string): Promise<void> {
    this.#gates.delete(gateKey);
  }

  async counters(key: string): Promise<QuotaCounters> {
    return { ...this.#total(key) };
  }

  #total(key: string): QuotaCounters {
    let t = this.#totals.get(key);
    if (!t) this.#totals.set(key, (t = zeroCounters()));
    return t;
  }
}

export function addCounters(into: QuotaCounters, add: Partial<QuotaCounters>): void {
  // whole numbers, as Redis HINCRBY keeps them
  for (const name of COUNTER_NAMES) into[name] += Math.round(add[name] ?? 0);
}
