/**
 * The worker loop both inbox engines share: take events, run the handler with bounded
 * concurrency, settle each (commit/ack, retry with backoff, dead letter), stop gracefully.
 * An engine supplies only the storage steps (`take`, `settle`, `fail`, `peekMark`), each of
 * which it makes atomic: in Redis a single command or Lua script, in memory a synchronous block.
 */
import { errorText } from '../errors.js';
import type { CallbackEvent } from '../types.js';
import { isNewerMark, orderingPlan, truncationOf, truncatedRefetch } from './marks.js';
import type { EncodedMark, GuardPlan, OrderingPlan } from './marks.js';
import type {
  CallbackInbox,
  ConsumeOptions,
  InboxAppendResult,
  InboxCommitOutcome,
  InboxContext,
  InboxDeadLetter,
  InboxHandler,
  InboxOptions,
  InboxStateChange,
  InboxStats,
} from './types.js';

export const DEFAULT_INBOX_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
export const DEFAULT_VISIBILITY_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_ATTEMPTS = 5;
const MAX_TIMER_MS = 2_147_483_647;

/** An event handed to one worker. `attempt` counts this run. */
export interface Claimed<E> {
  entryId: string;
  eventId: string;
  event: E;
  attempt: number;
}

export interface TakeRequest {
  consumer: string;
  count: number;
  maxAttempts: number;
  /** Longest wait for a new event when there is none. */
  waitMs: number;
  signal: AbortSignal;
}

function checkMs(name: string, value: number, min = 1): number {
  if (!(Number.isFinite(value) && value >= min && value <= MAX_TIMER_MS)) {
    throw new TypeError(`${name} must be a number of ms from ${min} to ${MAX_TIMER_MS}`);
  }
  return value;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

export abstract class InboxBase<E extends CallbackEvent = CallbackEvent> implements CallbackInbox<E> {
  protected readonly retentionMs: number;
  protected readonly visibilityMs: number;
  protected readonly now: () => number;
  readonly #ordering: OrderingPlan | undefined;
  readonly #refetch: NonNullable<InboxOptions['refetch']>;

  constructor(options: InboxOptions = {}) {
    // not a timer, but a TTL: allow long ones
    const retention = options.retentionMs ?? DEFAULT_INBOX_RETENTION_MS;
    if (!(Number.isSafeInteger(retention) && retention >= 24 * 60 * 60 * 1000)) {
      throw new TypeError('retentionMs must be an integer number of ms, at least 86400000 (24 h: seed 001 §6 rule 1)');
    }
    this.retentionMs = retention;
    this.visibilityMs = checkMs('visibilityTimeoutMs', options.visibilityTimeoutMs ?? DEFAULT_VISIBILITY_TIMEOUT_MS, 10);
    this.now = options.now ?? Date.now;
    this.#ordering = orderingPlan(options.ordering);
    this.#refetch = options.refetch ?? truncatedRefetch;
  }

  abstract append(events: readonly E[]): Promise<InboxAppendResult>;
  abstract stats(): Promise<InboxStats>;
  abstract deadLetters(limit?: number): Promise<InboxDeadLetter<E>[]>;
  abstract replay(eventId?: string): Promise<number>;
  abstract getState(key: string): Promise<string | null>;
  /** Up to `count` events for `consumer`: due retries, events of dead workers, new ones. */
  protected abstract take(request: TakeRequest): Promise<Claimed<E>[]>;
  /** Atomically: if `consumer` still holds the event, apply `changes` (guarded), mark done, ack. */
  protected abstract settle(consumer: string, claimed: Claimed<E>, changes: readonly InboxStateChange[], guard: GuardPlan | undefined): Promise<InboxCommitOutcome>;
  /** Atomically: if `consumer` still holds the event, schedule it at `dueAt` or (undefined) dead-letter it. */
  protected abstract fail(consumer: string, claimed: Claimed<E>, error: string, dueAt: number | undefined): Promise<void>;
  protected abstract peekMark(entity: string): Promise<EncodedMark | null>;

  async consume(handler: InboxHandler<E>, options: ConsumeOptions = {}): Promise<void> {
    if (typeof handler !== 'function') throw new TypeError('consume(handler): handler must be a function');
    const concurrency = options.concurrency ?? 1;
    if (!(Number.isSafeInteger(concurrency) && concurrency >= 1 && concurrency <= 10_000)) {
      throw new TypeError('concurrency must be an integer from 1 to 10000');
    }
    const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    if (!(Number.isSafeInteger(maxAttempts) && maxAttempts >= 1)) throw new TypeError('maxAttempts must be an integer >= 1');
    const baseMs = checkMs('backoff.baseMs', options.backoff?.baseMs ?? 1000, 0);
    const maxMs = checkMs('backoff.maxMs', options.backoff?.maxMs ?? 5 * 60_000, 0);
    const consumer = options.consumer ?? `w-${Math.random().toString(36).slice(2, 10)}-${this.now().toString(36)}`;
    if (!/^[\w.:-]{1,200}$/.test(consumer)) throw new TypeError('consumer must be 1 to 200 characters of [A-Za-z0-9_.:-]');
    const stop = new AbortController();
    const outer = options.signal;
    const onAbort = (): void => stop.abort();
    if (outer?.aborted) return;
    outer?.addEventListener('abort', onAbort, { once: true });
    const onError = options.onError;
    const report = (err: unknown, info: { eventId: string; attempt: number; dead: boolean }): void => {
      try {
        onError?.(err, info);
      } catch {
        // a throwing onError must not stop the worker
      }
    };
    const inFlight = new Set<Promise<void>>();

    const run = async (c: Claimed<E>): Promise<void> => {
      const guard = this.#ordering?.plan(c.event);
      let superseded = false;
      if (guard) {
        const seen = await this.peekMark(guard.entity);
        superseded = !isNewerMark(guard.mark, seen);
        if (superseded && !this.#ordering!.deliverSuperseded) {
          await this.settle(consumer, c, [], guard);
          return;
        }
      }
      let committed: Promise<InboxCommitOutcome> | undefined;
      const truncated = truncationOf(c.event, this.#refetch);
      const context: InboxContext = {
        eventId: c.eventId,
        attempt: c.attempt,
        signal: stop.signal,
        ...(truncated ? { truncated } : {}),
        ...(guard ? { ordering: { entity: guard.entity, superseded } } : {}),
        commit: (changes = []) => {
          if (committed) return Promise.reject(new Error('commit() was already called for this event'));
          try {
            checkChanges(changes); // refused changes leave nothing done: commit may be called again
          } catch (err) {
            return Promise.reject(err);
          }
          committed = this.settle(consumer, c, changes, guard);
          return committed;
        },
        getState: (key) => this.getState(key),
      };
      try {
        await handler(c.event, context);
        if (!committed) await this.settle(consumer, c, [], guard);
        else await committed;
      } catch (err) {
        if (committed && (await committed.then(() => true, () => false))) {
          report(err, { eventId: c.eventId, attempt: c.attempt, dead: false }); // after its commit: the event is done
          return;
        }
        const dead = c.attempt >= maxAttempts;
        const delay = Math.min(maxMs, baseMs * 2 ** Math.min(30, c.attempt - 1)) * (0.8 + Math.random() * 0.4);
        report(err, { eventId: c.eventId, attempt: c.attempt, dead });
        await this.fail(consumer, c, errorText(err), dead ? undefined : this.now() + Math.round(delay));
      }
    };

    let storeFailures = 0;
    while (!stop.signal.aborted) {
      const room = concurrency - inFlight.size;
      // take in batches: wait until half the slots are free (one store round trip fills them)
      if (room <= 0 || (inFlight.size > 0 && room < Math.ceil(concurrency / 2))) {
        await Promise.race(inFlight);
        continue;
      }
      let batch: Claimed<E>[];
      try {
        batch = await this.take({ consumer, count: room, maxAttempts, waitMs: inFlight.size > 0 ? 50 : 1000, signal: stop.signal });
        storeFailures = 0;
      } catch (err) {
        // the store is down or slow: keep trying, spaced out, until it answers or we are stopped
        report(err, { eventId: '', attempt: 0, dead: false });
        await sleep(Math.min(5000, 100 * 2 ** Math.min(6, storeFailures++)), stop.signal);
        continue;
      }
      for (const c of batch) {
        const p: Promise<void> = run(c)
          .catch((err: unknown) => report(err, { eventId: c.eventId, attempt: c.attempt, dead: false })) // settle failed: the event stays claimed and is retaken after the visibility timeout
          .finally(() => inFlight.delete(p));
        inFlight.add(p);
      }
    }
    outer?.removeEventListener('abort', onAbort);
    await Promise.allSettled([...inFlight]);
  }
}

const STATE_KEY = /^[^\s]{1,512}$/;
function checkChanges(changes: readonly InboxStateChange[]): void {
  if (!Array.isArray(changes)) throw new TypeError('commit(changes): changes must be an array');
  changes.forEach((c, i) => {
    if (c === null || typeof c !== 'object') throw new TypeError(`commit(changes): changes[${i}] must be an object`);
    if (typeof c.key !== 'string' || !STATE_KEY.test(c.key)) throw new TypeError(`commit(changes): changes[${i}].key must be 1 to 512 characters without spaces`);
    if (c.always !== undefined && typeof c.always !== 'boolean') throw new TypeError(`commit(changes): changes[${i}].always must be a boolean`);
    if (c.op === 'set') {
      if (typeof c.value !== 'string') throw new TypeError(`commit(changes): changes[${i}].value must be a string`);
    } else if (c.op === 'incr') {
      if (c.by !== undefined && !Number.isSafeInteger(c.by)) throw new TypeError(`commit(changes): changes[${i}].by must be a safe integer`);
    } else if (c.op !== 'del') {
      throw new TypeError(`commit(changes): changes[${i}].op must be 'set', 'incr' or 'del'`);
    }
  });
}
