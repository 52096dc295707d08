// Copied by im-openapi from templates/runtime/internal/quota-control.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The client's side of the application's OpenAPI quota at fleet scale (issue 20; internal,
 * unstable). One per client session, beside the `QuotaGate`:
 *
 * - Fleet gate: a 429 closes the gate in the quota store for its Retry-After wait (capped at
 *   MAX_PAUSE_MS), and every process learns it: from the answer of each slot reservation, or,
 *   without a rate limit, from one background read per GATE_CACHE_MS (never on the path of a
 *   call: a call goes by the gate as last read, at most GATE_CACHE_MS old).
 * - Rate limit (the `rateLimit` option): calls take send slots of a GCRA schedule, in the store
 *   (one for the fleet) or in this process. Interactive calls take the next free slot before any
 *   background call (the batch helpers' default), so a bulk send never starves them.
 * - Exchange pacing: token exchanges of all clients of one host share 120 a minute (REST seed
 *   section 8, per source IP), keyed by host name in the quota store; without a store each
 *   client session paces its own (a process-wide default would make every extra client of a
 *   process, in tests too, wait for the others' exchanges; share one MemoryQuotaStore instead).
 *   A 429 to a token exchange closes that host's exchange pacing (a gate under the pacing key)
 *   for its Retry-After, never the application's gate: the limit is per source IP, and the other
 *   hosts' exchanges and every call holding a valid App Token go on.
 * - Counters per client, added to the store's totals for the fleet.
 * - A store that fails or does not answer within its budget is left alone for
 *   STORE_RETRY_MS: the client limits on its own (fallbackPerSecond) and keeps its own gate.
 */
import { RateLimitWaitError, TimeoutError } from '../core/errors.js';
import { NEVER_ABORTED, type CallScope, type Sleep } from './call-scope.js';
import type { RateSpec, Reservation } from './gcra.js';
import type { SafeLogger } from './logger.js';
import { MAX_PAUSE_MS, type QuotaGate } from './quota-gate.js';
import {
  addCounters,
  MemoryQuotaStore,
  zeroCounters,
  type QuotaCounters,
  type QuotaStore,
} from '../stores/quota-store.js';
import { exchangePaceKey } from './store-keys.js';
import {
  rateOf,
  type CallPriority,
  type FleetRateLimitState,
  type RateLimitMetrics,
  type ResolvedRateLimit,
} from './rate-limit-options.js';

/** Ms between two background reads of the fleet gate (without a rate limit). */
export const GATE_CACHE_MS = 100;
/** Ms the client limits on its own after the quota store failed, before it asks the store again. */
export const STORE_RETRY_MS = 1_000;
/** Slots one client reserves ahead of their time (the rest of the fleet takes the ones between). */
const SLOTS_AHEAD = 8;
/** Longest a slot is reserved ahead; a longer wait is re-asked (the schedule may have moved). */
const RESERVE_HORIZON_MS = 1_000;
/**
 * 120 token exchanges a minute per source IP (REST seed section 8) as GCRA: with burst b the
 * most in any 60 s window is b + 60 · rate, so the rate leaves room for the burst.
 */
export const EXCHANGE_RATE: RateSpec = { perSecond: (120 - 10) / 60, burst: 10 };

let hostName: Promise<string> | undefined;
/** This host's name (the key of exchange pacing: the service counts exchanges per source IP). */
function thisHost(): Promise<string> {
  hostName ??= import('node:os').then(
    (os) => os.hostname(),
    () => 'unknown-host',
  );
  return hostName;
}

interface Waiter {
  resolve(): void;
  reject(err: unknown): void;
}

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
  readonly #queues: [Waiter[], Waiter[]] = [[], []];
  #outstanding = 0;
  #storeFailedUntil = 0;
  #gateReadAt = -Infinity;
  #reading = false;
  /** The fleet's size as the store last said (1 without a store). */
  #members = 1;
  #storeFailures = 0;

  constructor(options: QuotaControlOptions) {
    this.#o = options;
    this.#gateKey = `${options.key}:gate`;
    this.#local = new MemoryQuotaStore({ now: options.now });
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
  async acquire(operationId: string, priority: CallPriority | undefined, scope: CallScope): Promise<void> {
    const limit = this.#o.rateLimit!;
    const started = this.#o.now();
    const lane = priority === 'background' ? 1 : 0;
    const ahead = this.#queues[0].length + (lane === 1 ? this.#queues[1].length : 0);
    // This client's own view: the rest of the fleet can only make the wait longer.
    const neededMs = Math.max(0, ahead + 1 - SLOTS_AHEAD) * (1000 / this.#rateNow().perSecond);
    const budgetMs = Math.min(limit.maxWaitMs, scope.remainingMs() ?? Infinity);
    const refuse = (waitedMs: number, needed: number, cause?: unknown): RateLimitWaitError => {
      this.count('throttled');
      return new RateLimitWaitError({
        operationId,
        limit: 'rateLimit',
        waitedMs,
        neededMs: needed,
        budgetMs,
        perSecond: this.#rateNow().perSecond,
        ...(cause !== undefined ? { cause } : {}),
      });
    };
    if (neededMs > budgetMs) throw refuse(0, neededMs);
    const signal = scope.signal;
    await new Promise<void>((resolve, reject) => {
      const queue = this.#queues[lane];
      let timer: ReturnType<typeof setTimeout> | undefined;
      const leave = (): void => {
        const i = queue.indexOf(waiter);
        if (i >= 0) queue.splice(i, 1);
        if (signal !== NEVER_ABORTED) signal.removeEventListener('abort', onAbort);
        if (timer !== undefined) clearTimeout(timer);
      };
      const onAbort = (): void => {
        leave();
        const end = scope.endError();
        const waited = this.#o.now() - started;
        reject(end instanceof TimeoutError ? refuse(waited, waited, end) : end);
      };
      const waiter: Waiter = {
        resolve: () => {
          leave();
          resolve();
        },
        reject: (err) => {
          leave();
          reject(err);
        },
      };
      if (signal.aborted) return onAbort();
      // NEVER_ABORTED (no signal, no deadline) never fires: no listener on the one shared signal
      if (signal !== NEVER_ABORTED) signal.addEventListener('abort', onAbort, { once: true });
      // The call's deadline ends the wait through the signal; maxWaitMs needs a timer when it comes first.
      if (Number.isFinite(limit.maxWaitMs) && limit.maxWaitMs < (scope.remainingMs() ?? Infinity)) {
        timer = setTimeout(() => {
          leave();
          const waited = this.#o.now() - started;
          reject(refuse(waited, waited));
        }, limit.maxWaitMs);
        (timer as { unref?: () => void }).unref?.();
      }
      queue.push(waiter);
      this.#pump();
    });
    this.countWait(this.#o.now() - started);
  }

  #exchangeKey(): Promise<string> | string {
    const given = this.#o.hostName;
    return given !== undefined ? exchangePaceKey(given) : thisHost().then(exchangePaceKey);
  }

  /** Brings this host's exchange pause (closed by a 429 to any of its processes' exchanges) into the local exchange gate. */
  async readExchangeGate(): Promise<void> {
    const store = this.#sharedStore();
    if (!store) return;
    const key = await this.#exchangeKey();
    try {
      const ms = await store.sync(key, `${key}:gate`);
      if (ms > 0) this.#o.exchangeGate.pauseUntil(this.#o.now() + ms);
    } catch (err) {
      this.#storeFailed(err);
    }
  }

  /** A 429 answered a token exchange: pause this host's exchanges (every process of it, through the store), never the calls. */
  exchangeRateLimited(ms: number): void {
    this.count('rateLimited');
    const store = this.#sharedStore();
    if (!store) return;
    void Promise.resolve(this.#exchangeKey())
      .then((key) => store.closeGate(`${key}:gate`, Math.min(ms, MAX_PAUSE_MS)))
      .catch((err: unknown) => this.#storeFailed(err));
  }

  /** Waits for a token exchange slot of this host (120 a minute per source IP). */
  async paceExchange(operationId: string, scope: CallScope): Promise<void> {
    const key = await this.#exchangeKey();
    const budgetMs = Math.min(this.#o.rateLimit?.maxWaitMs ?? 60_000, scope.remainingMs() ?? Infinity);
    const store = this.#sharedStore();
    let r: Reservation | undefined;
    if (store) {
      try {
        r = await store.reserve(key, EXCHANGE_RATE, budgetMs, `${key}:gate`);
      } catch (err) {
        this.#storeFailed(err);
      }
    }
    r ??= this.#local.reserveNow(key, EXCHANGE_RATE, budgetMs);
    if (!r.reserved) {
      this.count('throttled');
      throw new RateLimitWaitError({
        operationId,
        limit: 'exchangePacing',
        waitedMs: 0,
        neededMs: r.waitMs,
        budgetMs,
        perSecond: EXCHANGE_RATE.perSecond,
      });
    }
    if (r.waitMs <= 0) return;
    this.#o.logger.debug(
      `token exchange waits ${Math.round(r.waitMs)} ms: this host's exchanges are paced (120 a minute per source IP)`,
    );
    try {
      await this.#o.sleep(r.waitMs, scope.signal);
    } catch {
      throw scope.endError();
    }
    this.countWait(r.waitMs);
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
          limiter: limit ? { perSecond: self.#rateNow().perSecond, shared } : null,
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

  /** Reserves slots ahead (at most SLOTS_AHEAD) while calls wait for one. */
  #pump(): void {
    while (this.#queues[0].length + this.#queues[1].length > this.#outstanding && this.#outstanding < SLOTS_AHEAD) {
      this.#outstanding += 1;
      void this.#takeSlot().then(
        () => {
          this.#outstanding -= 1;
          (this.#queues[0][0] ?? this.#queues[1][0])?.resolve();
          this.#pump();
        },
        (err: unknown) => {
          // Not expected (the fallback is in process); never leave callers waiting on a broken pump.
          this.#outstanding -= 1;
          for (const w of [...this.#queues[0], ...this.#queues[1]]) w.reject(err);
        },
      );
    }
  }

  /** One slot: reserved in the store (or this process), then waited for; no slots are taken while the gate is closed. */
  async #takeSlot(): Promise<void> {
    for (;;) {
      await this.#o.gate.wait();
      const r = await this.#reserve();
      if (!r.reserved) {
        await this.#o.sleep(Math.min(r.waitMs, RESERVE_HORIZON_MS));
        continue;
      }
      if (r.waitMs > 0) await this.#o.sleep(r.waitMs);
      return;
    }
  }

  async #reserve(): Promise<Reservation> {
    const store = this.#sharedStore();
    if (store) {
      const counters = this.#takePending();
      try {
        const r = await store.reserve(
          this.#o.key,
          this.#o.rateLimit!.rate,
          RESERVE_HORIZON_MS,
          this.#gateKey,
          counters,
        );
        this.#gateReadAt = this.#o.now();
        this.#gateSeen(r.gateMs);
        if (r.members !== undefined) this.#members = r.members;
        return r;
      } catch (err) {
        this.#storeFailed(err, counters);
      }
    }
    return this.#local.reserveNow(this.#o.key, this.#rateNow(), RESERVE_HORIZON_MS);
  }

  #rateNow(): RateSpec {
    const limit = this.#o.rateLimit!;
    if (!this.#o.store || this.#sharedStore() !== undefined) return limit.rate;
    return limit.fallback ?? rateOf(limit.rate.perSecond / this.#members);
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
