// Copied by im-openapi from templates/runtime/callbacks/inbox/inbox-base.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The worker loop both inbox engines share: take events, run the handler with bounded
 * concurrency, settle each (commit/ack, retry with backoff, dead letter), stop gracefully.
 * An engine supplies only the storage steps (`take`, `settle`, `fail`, `peekMark`), each of
 * which it makes atomic: in Redis a single command or Lua script, in memory a synchronous block.
 */
import type { CallbackEvent } from '../types.js';
import type { Claimed, RunSteps } from './inbox-run.js';
import { startRun } from './inbox-run.js';
import { orderingPlan, truncatedRefetch } from './marks.js';
import type { EncodedMark, GuardPlan, OrderingPlan } from './marks.js';
import { checkMs, DEFAULT_MAX_ATTEMPTS, DEFAULT_STOP_TIMEOUT_MS, runSettings, sleep } from './run-settings.js';
import type { RunSettings } from './run-settings.js';
import type {
  CallbackInbox,
  ConsumeOptions,
  InboxAppendResult,
  InboxCommitOutcome,
  InboxDeadLetter,
  InboxHandler,
  InboxOptions,
  InboxStateChange,
  InboxStats,
} from './types.js';

export const DEFAULT_INBOX_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
export const DEFAULT_VISIBILITY_TIMEOUT_MS = 30_000;
export { DEFAULT_MAX_ATTEMPTS, DEFAULT_STOP_TIMEOUT_MS };
export { InboxHandlerTimeoutError } from './inbox-run.js';
export type { Claimed } from './inbox-run.js';
/** After a stop's cut, the longest wait for the store to take the cut runs back. */
const STOP_GRACE_MS = 1_000;
/** A signal that never aborts (sleeps that only time can end). */
const NEVER = new AbortController().signal;

export interface TakeRequest {
  consumer: string;
  count: number;
  maxAttempts: number;
  /** Longest wait for a new event when there is none. */
  waitMs: number;
  signal: AbortSignal;
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
    this.visibilityMs = checkMs(
      'visibilityTimeoutMs',
      options.visibilityTimeoutMs ?? DEFAULT_VISIBILITY_TIMEOUT_MS,
      10,
    );
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
  protected abstract settle(
    consumer: string,
    claimed: Claimed<E>,
    changes: readonly InboxStateChange[],
    guard: GuardPlan | undefined,
  ): Promise<InboxCommitOutcome>;
  /** Atomically: if `consumer` still holds the event, schedule it at `dueAt` or (undefined) dead-letter it. */
  protected abstract fail(
    consumer: string,
    claimed: Claimed<E>,
    error: string,
    dueAt: number | undefined,
  ): Promise<void>;
  protected abstract peekMark(entity: string): Promise<EncodedMark | null>;

  async consume(handler: InboxHandler<E>, options: ConsumeOptions = {}): Promise<void> {
    if (typeof handler !== 'function') throw new TypeError('consume(handler): handler must be a function');
    const concurrency = options.concurrency ?? 1;
    if (!(Number.isSafeInteger(concurrency) && concurrency >= 1 && concurrency <= 10_000)) {
      throw new TypeError('concurrency must be an integer from 1 to 10000');
    }
    const run = runSettings(handler, options, this.visibilityMs, this.now);
    const stopTimeoutMs = checkMs('stopTimeoutMs', options.stopTimeoutMs ?? DEFAULT_STOP_TIMEOUT_MS, 0);
    const outer = options.signal;
    if (outer?.aborted) return;
    const onAbort = (): void => run.stopper.abort(outer?.reason);
    outer?.addEventListener('abort', onAbort, { once: true });
    /** Runs in flight (until settled), each with the way to cut it (its deadline, or the end of a stop). */
    const inFlight = new Map<Promise<void>, { cut: (why: 'deadline' | 'stop') => void }>();
    try {
      await this.#takeLoop(run, concurrency, inFlight);
    } finally {
      outer?.removeEventListener('abort', onAbort);
    }
    return this.#drain(inFlight, stopTimeoutMs);
  }

  /**
   * Takes events and starts their runs until the worker stops. A slot is busy while its handler
   * runs: it is free again once the handler has returned, while the settle is still on its way,
   * so the next take goes out beside the settle instead of after it (a failed run keeps its slot
   * until its failure is stored).
   */
  async #takeLoop(
    run: RunSettings<E>,
    concurrency: number,
    inFlight: Map<Promise<void>, { cut: (why: 'deadline' | 'stop') => void }>,
  ): Promise<void> {
    const { consumer, report, stop } = run;
    const steps = this.#steps();
    // one waiter at a time, woken by a freed slot or the stop: a Promise.race over the busy slots and a
    // never-settling "stopped" promise left one reaction on it per wait, for as long as the worker ran
    let wake: ((value: undefined) => void) | undefined;
    const wakeUp = (): void => {
      const w = wake;
      wake = undefined;
      w?.(undefined);
    };
    const woken = () => new Promise<undefined>((resolve) => (wake = resolve));
    stop.addEventListener('abort', wakeUp, { once: true });
    let busy = 0;
    const start = (c: Claimed<E>): void => {
      const { done, slot, cut } = startRun(c, run, steps);
      const p: Promise<void> = done
        .catch((err: unknown) => report(err, { eventId: c.eventId, attempt: c.attempt, dead: false })) // settle failed: the event stays claimed and is retaken after the visibility timeout
        .finally(() => inFlight.delete(p));
      inFlight.set(p, { cut });
      busy++;
      void slot.then(() => {
        busy--;
        wakeUp();
      });
    };
    let storeFailures = 0;
    while (!stop.aborted) {
      const room = concurrency - busy;
      // take in batches: wait until half the slots are free (one store round trip fills them)
      if (room <= 0 || (busy > 0 && room < Math.ceil(concurrency / 2))) {
        await woken();
        continue;
      }
      let batch: Claimed<E>[] | undefined;
      try {
        const taking = this.take({
          consumer,
          count: room,
          maxAttempts: run.maxAttempts,
          waitMs: inFlight.size > 0 ? 50 : 1000,
          signal: stop,
        });
        batch = await Promise.race([taking, woken()]); // a slot freed meanwhile wakes it too: the take still answers
        while (batch === undefined && !stop.aborted) batch = await Promise.race([taking, woken()]);
        if (batch === undefined) {
          // stopped while a take was under way (a store that does not answer): events it hands out late are given back, not run
          taking.then(
            (late) =>
              late.forEach(
                (c) =>
                  void this.fail(consumer, c, 'the worker stopped before running the event', this.now()).catch(
                    () => undefined,
                  ),
              ),
            () => undefined,
          );
          return;
        }
        storeFailures = 0;
      } catch (err) {
        // the store is down or slow: keep trying, spaced out, until it answers or we are stopped
        report(err, { eventId: '', attempt: 0, dead: false });
        await sleep(Math.min(5000, 100 * 2 ** Math.min(6, storeFailures++)), stop);
        continue;
      }
      for (const c of batch) start(c);
    }
  }

  /** The storage steps and options a run uses (made once per `consume`). */
  #steps(): RunSteps<E> {
    return {
      settle: (consumer, c, changes, guard) => this.settle(consumer, c, changes, guard),
      fail: (consumer, c, error, dueAt) => this.fail(consumer, c, error, dueAt),
      peekMark: (entity) => this.peekMark(entity),
      getState: (key) => this.getState(key),
      ordering: this.#ordering,
      refetch: this.#refetch,
      now: this.now,
    };
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
