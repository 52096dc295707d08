/**
 * Exchange pacing (internal, unstable; quota-control.ts): token exchanges of all clients of one
 * host share 120 a minute (REST seed section 8, per source IP), keyed by host name in the quota
 * store; without a store each client session paces its own. A 429 to a token exchange closes that
 * host's exchange pacing (a gate under the pacing key) for its Retry-After, never the
 * application's gate.
 */
import { RateLimitWaitError } from '../core/errors.js';
import type { MemoryQuotaStore, QuotaCounters, QuotaStore } from '../stores/quota-store.js';
import type { CallScope, Sleep } from './call-scope.js';
import type { RateSpec, Reservation } from './gcra.js';
import type { SafeLogger } from './logger.js';
import { MAX_PAUSE_MS, type QuotaGate } from './quota-gate.js';
import type { ResolvedRateLimit } from './rate-limit-options.js';
import { exchangePaceKey } from './store-keys.js';

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

/** What exchange pacing shares with the session's QuotaControl: its store state and its counters. */
export interface PacingHost {
  /** The quota store, unless it failed within STORE_RETRY_MS. */
  sharedStore(): QuotaStore | undefined;
  storeFailed(err: unknown): void;
  count(name: keyof QuotaCounters): void;
  countWait(ms: number): void;
}

/** The options of QuotaControl that pacing reads. */
interface PacingOptions {
  exchangeGate: QuotaGate;
  hostName?: string | undefined;
  rateLimit: ResolvedRateLimit | undefined;
  now: () => number;
  sleep: Sleep;
  logger: SafeLogger;
}

export class ExchangePacing {
  readonly #o: PacingOptions;
  readonly #local: MemoryQuotaStore;
  readonly #q: PacingHost;

  /** `local`: the session's in-process store, used when the shared one is absent or failed. */
  constructor(options: PacingOptions, local: MemoryQuotaStore, host: PacingHost) {
    this.#o = options;
    this.#local = local;
    this.#q = host;
  }

  #key(): Promise<string> | string {
    const given = this.#o.hostName;
    return given !== undefined ? exchangePaceKey(given) : thisHost().then(exchangePaceKey);
  }

  /** Brings this host's exchange pause (closed by a 429 to any of its processes' exchanges) into the local exchange gate. */
  async readGate(): Promise<void> {
    const store = this.#q.sharedStore();
    if (!store) return;
    const key = await this.#key();
    try {
      const ms = await store.sync(key, `${key}:gate`);
      if (ms > 0) this.#o.exchangeGate.pauseUntil(this.#o.now() + ms);
    } catch (err) {
      this.#q.storeFailed(err);
    }
  }

  /** A 429 answered a token exchange: pause this host's exchanges (every process of it, through the store), never the calls. */
  rateLimited(ms: number): void {
    this.#q.count('rateLimited');
    const store = this.#q.sharedStore();
    if (!store) return;
    void Promise.resolve(this.#key())
      .then((key) => store.closeGate(`${key}:gate`, Math.min(ms, MAX_PAUSE_MS)))
      .catch((err: unknown) => this.#q.storeFailed(err));
  }

  /** Waits for a token exchange slot of this host (120 a minute per source IP). */
  async pace(operationId: string, scope: CallScope): Promise<void> {
    const key = await this.#key();
    const budgetMs = Math.min(this.#o.rateLimit?.maxWaitMs ?? 60_000, scope.remainingMs() ?? Infinity);
    const store = this.#q.sharedStore();
    let r: Reservation | undefined;
    if (store) {
      try {
        r = await store.reserve(key, EXCHANGE_RATE, budgetMs, `${key}:gate`);
      } catch (err) {
        this.#q.storeFailed(err);
      }
    }
    r ??= this.#local.reserveNow(key, EXCHANGE_RATE, budgetMs);
    if (!r.reserved) {
      this.#q.count('throttled');
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
    this.#q.countWait(r.waitMs);
  }
}
