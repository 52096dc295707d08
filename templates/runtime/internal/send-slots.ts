/**
 * The send slots of the `rateLimit` option (internal, unstable; quota-control.ts): calls take
 * slots of a GCRA schedule, in the quota store (one for the fleet) or in this process, a few
 * reserved ahead; interactive calls take the next free slot before any background call, and a
 * call that cannot get one within its budget fails unsent.
 */
import { RateLimitWaitError, TimeoutError } from '../core/errors.js';
import type { MemoryQuotaStore, QuotaCounters, QuotaStore } from '../stores/quota-store.js';
import { NEVER_ABORTED, type CallScope, type Sleep } from './call-scope.js';
import type { RateSpec, Reservation } from './gcra.js';
import type { QuotaGate } from './quota-gate.js';
import { rateOf, type CallPriority, type ResolvedRateLimit } from './rate-limit-options.js';

/** Slots one client reserves ahead of their time (the rest of the fleet takes the ones between). */
const SLOTS_AHEAD = 8;
/** Longest a slot is reserved ahead; a longer wait is re-asked (the schedule may have moved). */
const RESERVE_HORIZON_MS = 1_000;
interface Waiter {
  resolve(): void;
  reject(err: unknown): void;
}

/** What the slots share with the session's QuotaControl: its store state, gate and counters. */
export interface SlotHost {
  /** The quota store, unless it failed within STORE_RETRY_MS. */
  sharedStore(): QuotaStore | undefined;
  storeFailed(err: unknown, unsent?: QuotaCounters): void;
  /** The counters not yet added to the store's totals (sent with a reservation). */
  takePending(): QuotaCounters | undefined;
  /** The fleet gate as a reservation's answer gave it (ms still closed). */
  gateRead(ms: number): void;
  count(name: keyof QuotaCounters): void;
  countWait(ms: number): void;
}

/** The options of QuotaControl that the slots read. */
interface SlotOptions {
  gate: QuotaGate;
  store: QuotaStore | undefined;
  rateLimit: ResolvedRateLimit | undefined;
  key: string;
  now: () => number;
  sleep: Sleep;
}

export class SendSlots {
  readonly #o: SlotOptions;
  readonly #local: MemoryQuotaStore;
  readonly #gateKey: string;
  readonly #q: SlotHost;
  readonly #queues: [Waiter[], Waiter[]] = [[], []];
  #outstanding = 0;
  /** The fleet's size as the store last said (1 without a store). */
  #members = 1;

  constructor(options: SlotOptions, local: MemoryQuotaStore, gateKey: string, host: SlotHost) {
    this.#o = options;
    this.#local = local;
    this.#gateKey = gateKey;
    this.#q = host;
  }

  /** Waits for a send slot of the rate limit, interactive calls first; fails unsent past the call's budget. */
  async acquire(operationId: string, priority: CallPriority | undefined, scope: CallScope): Promise<void> {
    const limit = this.#o.rateLimit!;
    const started = this.#o.now();
    const lane = priority === 'background' ? 1 : 0;
    const ahead = this.#queues[0].length + (lane === 1 ? this.#queues[1].length : 0);
    // This client's own view: the rest of the fleet can only make the wait longer.
    const neededMs = Math.max(0, ahead + 1 - SLOTS_AHEAD) * (1000 / this.rateNow().perSecond);
    const budgetMs = Math.min(limit.maxWaitMs, scope.remainingMs() ?? Infinity);
    const refuse = (waitedMs: number, needed: number, cause?: unknown): RateLimitWaitError => {
      this.#q.count('throttled');
      return new RateLimitWaitError({
        operationId,
        limit: 'rateLimit',
        waitedMs,
        neededMs: needed,
        budgetMs,
        perSecond: this.rateNow().perSecond,
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
    this.#q.countWait(this.#o.now() - started);
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
    const store = this.#q.sharedStore();
    if (store) {
      const counters = this.#q.takePending();
      try {
        const r = await store.reserve(
          this.#o.key,
          this.#o.rateLimit!.rate,
          RESERVE_HORIZON_MS,
          this.#gateKey,
          counters,
        );
        this.#q.gateRead(r.gateMs);
        if (r.members !== undefined) this.#members = r.members;
        return r;
      } catch (err) {
        this.#q.storeFailed(err, counters);
      }
    }
    return this.#local.reserveNow(this.#o.key, this.rateNow(), RESERVE_HORIZON_MS);
  }

  /** The rate slots are taken at: the limit's, or this process's share of it while the store is failing. */
  rateNow(): RateSpec {
    const limit = this.#o.rateLimit!;
    if (!this.#o.store || this.#q.sharedStore() !== undefined) return limit.rate;
    return limit.fallback ?? rateOf(limit.rate.perSecond / this.#members);
  }
}
