// Copied by im-openapi from templates/runtime/callbacks/inbox/inbox-base.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The worker loop both inbox engines share: take events, run the handler with bounded
 * concurrency, settle each (commit/ack, retry with backoff, dead letter), stop gracefully.
 * An engine supplies only the storage steps (`take`, `settle`, `fail`, `peekMark`), each of
 * which it makes atomic: in Redis a single command or Lua script, in memory a synchronous block.
 */
import { ImError } from '../../core/errors.js';
import { errorText } from '../errors.js';
import type { CallbackEvent } from '../types.js';
import { isNewerMark, orderingPlan, truncationOf, truncatedRefetch } from './marks.js';
import type { EncodedMark, GuardPlan, OrderingPlan } from './marks.js';
import type {
  CallbackInbox,
  ConsumeErrorInfo,
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
/** Default handler deadline: this share of the visibility timeout (24 s of the default 30 s), so a run is cut before another worker may take its event. */
const DEFAULT_HANDLER_SHARE = 0.8;
/** Default wait for in-flight runs after a stop, before they are cut. */
export const DEFAULT_STOP_TIMEOUT_MS = 10_000;
/** After a stop's cut, the longest wait for the store to take the cut runs back. */
const STOP_GRACE_MS = 1_000;
/** A signal that never aborts (sleeps that only time can end). */
const NEVER = new AbortController().signal;

/**
 * A handler run was cut: it passed `handlerTimeoutMs` (`phase: 'deadline'`) or was still running
 * `stopTimeoutMs` after the worker was stopped (`phase: 'stop'`). The run counts as a failed
 * attempt (retried with backoff; after a stop, by another worker at once) and its signal is
 * aborted; whatever the handler does later is ignored, and its `commit` answers `'lost'`.
 */
export class InboxHandlerTimeoutError extends ImError {
  readonly eventId: string;
  readonly attempt: number;
  /** The deadline (phase 'deadline') or how long it had run (phase 'stop'), in ms. */
  readonly timeoutMs: number;
  readonly phase: 'deadline' | 'stop';
  constructor(eventId: string, attempt: number, timeoutMs: number, phase: 'deadline' | 'stop') {
    super(phase === 'deadline'
      ? `inbox handler did not finish event ${eventId} (attempt ${attempt}) within handlerTimeoutMs (${timeoutMs} ms): the run counts as failed and the event is retried`
      : `inbox handler was still running event ${eventId} (attempt ${attempt}, ${timeoutMs} ms) when the stop's stopTimeoutMs ran out: the run counts as failed and the event goes to another worker`);
    this.eventId = eventId;
    this.attempt = attempt;
    this.timeoutMs = timeoutMs;
    this.phase = phase;
  }
}
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
    const handlerTimeoutMs = checkMs('handlerTimeoutMs', options.handlerTimeoutMs ?? Math.max(1, Math.floor(this.visibilityMs * DEFAULT_HANDLER_SHARE)));
    if (handlerTimeoutMs >= this.visibilityMs) {
      throw new TypeError(`handlerTimeoutMs (${handlerTimeoutMs}) must be below the inbox's visibilityTimeoutMs (${this.visibilityMs}): past that another worker takes the event while this one still runs it`);
    }
    const stopTimeoutMs = checkMs('stopTimeoutMs', options.stopTimeoutMs ?? DEFAULT_STOP_TIMEOUT_MS, 0);
    const consumer = options.consumer ?? `w-${Math.random().toString(36).slice(2, 10)}-${this.now().toString(36)}`;
    if (!/^[\w.:-]{1,200}$/.test(consumer)) throw new TypeError('consumer must be 1 to 200 characters of [A-Za-z0-9_.:-]');
    const stop = new AbortController();
    const outer = options.signal;
    const onAbort = (): void => stop.abort(outer?.reason);
    if (outer?.aborted) return;
    outer?.addEventListener('abort', onAbort, { once: true });
    const stopped = new Promise<undefined>((resolve) => stop.signal.addEventListener('abort', () => resolve(undefined), { once: true }));
    const onError = options.onError;
    const report = (err: unknown, info: ConsumeErrorInfo): void => {
      try {
        onError?.(err, info);
      } catch {
        // a throwing onError must not stop the worker
      }
    };
    /** Runs in flight, each with the way to cut it (its deadline, or the end of a stop). */
    const inFlight = new Map<Promise<void>, { cut: (why: 'deadline' | 'stop') => void }>();
    const retryAt = (attempt: number): number => this.now() + Math.round(Math.min(maxMs, baseMs * 2 ** Math.min(30, attempt - 1)) * (0.8 + Math.random() * 0.4));

    const run = (c: Claimed<E>, started: number): { done: Promise<void>; cut: (why: 'deadline' | 'stop') => void } => {
      // the handler's signal: aborted when the worker stops or the run's deadline passes
      const own = new AbortController();
      const onStop = (): void => own.abort(stop.signal.reason);
      stop.signal.addEventListener('abort', onStop, { once: true });
      let cutWhy: 'deadline' | 'stop' | undefined;
      let cut!: (why: 'deadline' | 'stop') => void;
      const wasCut = new Promise<'cut'>((resolve) => (cut = (why) => {
        if (cutWhy === undefined) cutWhy = why;
        resolve('cut');
      }));
      const timer = setTimeout(() => cut('deadline'), handlerTimeoutMs);
      let committed: Promise<InboxCommitOutcome> | undefined;
      const body = async (): Promise<void> => {
        const guard = this.#ordering?.plan(c.event);
        let superseded = false;
        if (guard) {
          const seen = await this.peekMark(guard.entity);
          superseded = !isNewerMark(guard.mark, seen);
          if (superseded && !this.#ordering!.deliverSuperseded) {
            committed = this.settle(consumer, c, [], guard);
            await committed;
            return;
          }
        }
        const truncated = truncationOf(c.event, this.#refetch);
        const context: InboxContext = {
          eventId: c.eventId,
          attempt: c.attempt,
          signal: own.signal,
          ...(truncated ? { truncated } : {}),
          ...(guard ? { ordering: { entity: guard.entity, superseded } } : {}),
          commit: (changes = []) => {
            if (committed) return Promise.reject(new Error('commit() was already called for this event'));
            // past its deadline the run was counted as failed and the event given back: nothing is written
            if (cutWhy !== undefined) return Promise.resolve<InboxCommitOutcome>('lost');
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
        await handler(c.event, context);
        if (cutWhy !== undefined) return;
        if (!committed) committed = this.settle(consumer, c, [], guard);
        await committed;
      };
      const handled = body().then(() => undefined, (err: unknown) => ({ err }));
      const done = Promise.race([handled, wasCut]).then(async (first) => {
        clearTimeout(timer);
        stop.signal.removeEventListener('abort', onStop);
        if (first === 'cut') {
          // a commit already under way decides the run
          if (committed) {
            if (await committed.then(() => true, () => false)) return;
          }
          const why = cutWhy!;
          const runningMs = this.now() - started;
          const err = new InboxHandlerTimeoutError(c.eventId, c.attempt, why === 'deadline' ? handlerTimeoutMs : runningMs, why);
          own.abort(err);
          handled.catch(() => undefined); // whatever the abandoned run does later is ignored
          const dead = c.attempt >= maxAttempts;
          report(err, { eventId: c.eventId, attempt: c.attempt, dead, timedOut: why === 'deadline', stuck: why === 'stop' });
          // counted as a failed run; after a stop, handed to another worker at once
          await this.fail(consumer, c, errorText(err), dead ? undefined : why === 'stop' ? this.now() : retryAt(c.attempt));
          return;
        }
        if (first === undefined) return;
        const err = first.err;
        if (committed && (await committed.then(() => true, () => false))) {
          report(err, { eventId: c.eventId, attempt: c.attempt, dead: false }); // after its commit: the event is done
          return;
        }
        const dead = c.attempt >= maxAttempts;
        report(err, { eventId: c.eventId, attempt: c.attempt, dead });
        await this.fail(consumer, c, errorText(err), dead ? undefined : retryAt(c.attempt));
      });
      return { done, cut };
    };

    const start = (c: Claimed<E>): void => {
      const startedAt = this.now();
      const { done, cut } = run(c, startedAt);
      const entry = { cut };
      const p: Promise<void> = done
        .catch((err: unknown) => report(err, { eventId: c.eventId, attempt: c.attempt, dead: false })) // settle failed: the event stays claimed and is retaken after the visibility timeout
        .finally(() => inFlight.delete(p));
      inFlight.set(p, entry);
    };

    let storeFailures = 0;
    while (!stop.signal.aborted) {
      const room = concurrency - inFlight.size;
      // take in batches: wait until half the slots are free (one store round trip fills them)
      if (room <= 0 || (inFlight.size > 0 && room < Math.ceil(concurrency / 2))) {
        await Promise.race([...inFlight.keys(), stopped]);
        continue;
      }
      let batch: Claimed<E>[] | undefined;
      try {
        const taking = this.take({ consumer, count: room, maxAttempts, waitMs: inFlight.size > 0 ? 50 : 1000, signal: stop.signal });
        batch = await Promise.race([taking, stopped]);
        if (batch === undefined) {
          // stopped while a take was under way (a store that does not answer): events it hands out late are given back, not run
          taking.then((late) => late.forEach((c) => void this.fail(consumer, c, 'the worker stopped before running the event', this.now()).catch(() => undefined)), () => undefined);
          break;
        }
        storeFailures = 0;
      } catch (err) {
        // the store is down or slow: keep trying, spaced out, until it answers or we are stopped
        report(err, { eventId: '', attempt: 0, dead: false });
        await sleep(Math.min(5000, 100 * 2 ** Math.min(6, storeFailures++)), stop.signal);
        continue;
      }
      for (const c of batch) start(c);
    }
    outer?.removeEventListener('abort', onAbort);
    return this.#drain(inFlight, stopTimeoutMs);
  }

  /**
   * After a stop: in-flight runs get `stopTimeoutMs` to finish (their signal is aborted); those
   * still running then are cut (counted as a failed run, the event handed to another worker at
   * once) and reported. Resolves within stopTimeoutMs + STOP_GRACE_MS whatever the handlers or
   * the store do.
   */
  async #drain(inFlight: Map<Promise<void>, { cut: (why: 'stop') => void }>, stopTimeoutMs: number): Promise<void> {
    const all = (): Promise<unknown> => Promise.allSettled([...inFlight.keys()]);
    if (inFlight.size > 0) await Promise.race([all(), sleep(stopTimeoutMs, NEVER)]);
    if (inFlight.size === 0) return;
    for (const entry of inFlight.values()) entry.cut('stop'); // each is reported through onError (stuck: true)
    await Promise.race([all(), sleep(STOP_GRACE_MS, NEVER)]);
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
