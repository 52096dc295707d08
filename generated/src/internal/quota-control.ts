// Copied by im-openapi from templates/runtime/internal/quota-control.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The client's side of the application's OpenAPI quota at fleet scale (issue 20; internal,
 * unstable). One per client session, beside the `QuotaGate`:
 *
 * - Fleet gate: a 429 closes the gate in the quota store for its Retry-After wait (capped at
 *   MAX_PAUSE_MS), and every process learns it: from the answer of each slot reservation, or,
 *   without a rate limit, from one background read per GATE_CACHE_MS (never on the path of a
 *   call: a call goes by the gate as last read, at most GATE_CACHE_MS old).
 * - Rate limit (the `rateLimit` option; send-slots.ts): calls take send slots of a GCRA
 *   schedule, in the store (one for the fleet) or in this process. Interactive calls take the next
 *   free slot before any background call (the batch helpers' default), so a bulk send never
 *   starves them.
 * - Exchange pacing (exchange-pacing.ts): token exchanges of all clients of one host share 120 a
 *   minute (REST seed section 8, per source IP), keyed by host name in the quota store; without a store each
 *   client session paces its own (a process-wide default would make every extra client of a
 *   process, in tests too, wait for the others' exchanges; share one MemoryQuotaStore instead).
 *   A 429 to a token exchange closes that host's exchange pacing (a gate under the pacing key)
 *   for its Retry-After, never the application's gate: the limit is per source IP, and the other
 *   hosts' exchanges and every call holding a valid App Token go on.
 * - Counters per client, added to the store's totals for the fleet.
 * - A store that fails or does not answer within its budget is left alone for
 *   STORE_RETRY_MS: the client limits on its own (fallbackPerSecond) and keeps its own gate.
 */
import type { CallScope, Sleep } from './call-scope.js';
import type { SafeLogger } from './logger.js';
import { MAX_PAUSE_MS, type QuotaGate } from './quota-gate.js';
import {
  addCounters,
  MemoryQuotaStore,
  zeroCounters,
  type QuotaCounters,
  type QuotaStore,
} from '../stores/quota-store.js';
import { ExchangePacing } from './exchange-pacing.js';
import { SendSlots } from './send-slots.js';
import type { CallPriority, FleetRateLimitState, RateLimitMetrics, ResolvedRateLimit } from './rate-limit-options.js';

export { EXCHANGE_RATE } from './exchange-pacing.js';

/** Ms between two background reads of the fleet gate (without a rate limit). */
export const GATE_CACHE_MS = 100;
/** Ms the client limits on its own after the quota store failed, before it asks the store again. */
export const STORE_RETRY_MS = 1_000;
export interface QuotaControlOptions {
  gate: QuotaGate;
  /** The local pause of this session's token exchanges (the fleet's is read into it). */
  exchangeGate: QuotaGate;
  /** This host's name (default os.hostname()): the key of the exchange pacing. */
  hostName?: string | undefined;
  store: QuotaStore | undefined;
  rateLimit: ResolvedRateLimit | undefined;
  key: string;
  now: () => number;
  sleep: Sleep;
  logger: SafeLogger;
}

export class QuotaControl {
  readonly #o: QuotaControlOptions;
  readonly #gateKey: string;
  readonly #counters = zeroCounters();
  /** Counted, not yet added to the store's totals. */
  #pending = zeroCounters();
  readonly #local: MemoryQuotaStore;
  readonly #exchanges: ExchangePacing;
  readonly #slots: SendSlots;
  #storeFailedUntil = 0;
  #gateReadAt = -Infinity;
  #reading = false;
  #storeFailures = 0;

  constructor(options: QuotaControlOptions) {
    this.#o = options;
    this.#gateKey = `${options.key}:gate`;
    this.#local = new MemoryQuotaStore({ now: options.now });
    this.#exchanges = new ExchangePacing(options, this.#local, {
      sharedStore: () => this.#sharedStore(),
      storeFailed: (err) => this.#storeFailed(err),
      count: (name) => this.count(name),
      countWait: (ms) => this.countWait(ms),
    });
    this.#slots = new SendSlots(options, this.#local, this.#gateKey, {
      sharedStore: () => this.#sharedStore(),
      storeFailed: (err, unsent) => this.#storeFailed(err, unsent),
      takePending: () => this.#takePending(),
      gateRead: (ms) => {
        this.#gateReadAt = this.#o.now();
        this.#gateSeen(ms);
      },
      count: (name) => this.count(name),
      countWait: (ms) => this.countWait(ms),
    });
  }

  /** True when calls take slots of a rate limit. */
  get limited(): boolean {
    return this.#o.rateLimit !== undefined;
  }

  count(name: keyof QuotaCounters, n = 1): void {
    this.#counters[name] += n;
    if (this.#o.store) this.#pending[name] += n;
  }

  /** A wait before sending (gate or limiter), in ms. */
  countWait(ms: number): void {
    if (ms <= 0) return;
    this.count('waited');
    this.count('waitedMs', Math.round(ms));
  }

  /** Brings the fleet gate into the local one, at most once per GATE_CACHE_MS, in the background. */
  readGate(): void {
    const store = this.#sharedStore();
    if (!store || this.#reading || this.#o.now() - this.#gateReadAt < GATE_CACHE_MS) return;
    this.#reading = true;
    this.#gateReadAt = this.#o.now();
    void this.#sync(store).finally(() => (this.#reading = false));
  }

  /** Sends this process's pending counters and brings the fleet gate into the local one. */
  #sync(store: QuotaStore): Promise<void> {
    const counters = this.#takePending();
    return store.sync(this.#o.key, this.#gateKey, counters).then(
      (ms) => this.#gateSeen(ms),
      (err: unknown) => this.#storeFailed(err, counters),
    );
  }

  /** A 429 closed the local gate for `ms`: close the fleet's too. */
  rateLimited(ms: number): void {
    this.count('rateLimited');
    const store = this.#sharedStore();
    store?.closeGate(this.#gateKey, Math.min(ms, MAX_PAUSE_MS)).catch((err: unknown) => this.#storeFailed(err));
  }

  /** Waits for a send slot of the rate limit, interactive calls first; fails unsent past the call's budget. */
  acquire(operationId: string, priority: CallPriority | undefined, scope: CallScope): Promise<void> {
    return this.#slots.acquire(operationId, priority, scope);
  }

  /** Brings this host's exchange pause into the local exchange gate (exchange-pacing.ts). */
  readExchangeGate(): Promise<void> {
    return this.#exchanges.readGate();
  }

  /** A 429 answered a token exchange: pause this host's exchanges, never the calls (exchange-pacing.ts). */
  exchangeRateLimited(ms: number): void {
    this.#exchanges.rateLimited(ms);
  }

  /** Waits for a token exchange slot of this host (120 a minute per source IP). */
  paceExchange(operationId: string, scope: CallScope): Promise<void> {
    return this.#exchanges.pace(operationId, scope);
  }

  /** The caller's view: the gate's, plus counters and the fleet's totals. */
  view(): FleetRateLimitState {
    const gate = this.#o.gate.view();
    const self = this;
    return {
      get pausedUntil() {
        return gate.pausedUntil;
      },
      get remainingMs() {
        return gate.remainingMs;
      },
      get metrics(): RateLimitMetrics {
        const limit = self.#o.rateLimit;
        const shared = self.#sharedStore() !== undefined;
        return {
          ...self.#counters,
          gate: self.#o.gate.remainingMs() > 0 ? 'closed' : 'open',
          storeFailures: self.#storeFailures,
          limiter: limit ? { perSecond: self.#slots.rateNow().perSecond, shared } : null,
        };
      },
      clear: () => {
        gate.clear();
        this.#sharedStore()
          ?.openGate(this.#gateKey)
          .catch((err: unknown) => this.#storeFailed(err));
      },
      fleetMetrics: async () => {
        const store = this.#o.store;
        if (!store) return null;
        await this.#sync(store);
        return store.counters(this.#o.key);
      },
      toJSON() {
        return { pausedUntil: this.pausedUntil, remainingMs: this.remainingMs, metrics: this.metrics };
      },
    } as FleetRateLimitState;
  }

  #sharedStore(): QuotaStore | undefined {
    return this.#o.store && this.#o.now() >= this.#storeFailedUntil ? this.#o.store : undefined;
  }

  #gateSeen(ms: number): void {
    if (ms > 0) this.#o.gate.pauseUntil(this.#o.now() + ms);
  }

  #takePending(): QuotaCounters | undefined {
    if (!this.#o.store) return undefined;
    const taken = this.#pending;
    this.#pending = zeroCounters();
    return taken;
  }

  #storeFailed(err: unknown, unsent?: QuotaCounters): void {
    if (unsent) addCounters(this.#pending, unsent);
    const first = this.#o.now() >= this.#storeFailedUntil;
    if (first) this.#storeFailures += 1;
    this.#storeFailedUntil = this.#o.now() + STORE_RETRY_MS;
    if (first) {
      const why = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
      this.#o.logger.warn(
        `quota store failed (${why}); this process limits on its own and keeps its own 429 gate for ${STORE_RETRY_MS} ms, then asks the store again`,
      );
    }
  }
}
