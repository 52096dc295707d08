// Copied by im-openapi from templates/runtime/callbacks/inbox/inbox-run.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * One run of the inbox handler for one claimed event (split from inbox-base.ts, issue 32): the
 * handler raced against its deadline, then the event settled (commit or ack), retried or
 * dead-lettered. The worker loop (`InboxBase`) starts runs; the storage steps are the engine's.
 */
import { ImError } from '../../core/errors.js';
import { errorText } from '../errors.js';
import type { CallbackEvent } from '../types.js';
import { isNewerMark, truncationOf } from './marks.js';
import type { EncodedMark, GuardPlan, OrderingPlan } from './marks.js';
import { checkChanges } from './run-settings.js';
import type { RunSettings } from './run-settings.js';
import type { InboxCommitOutcome, InboxContext, InboxOptions, InboxStateChange } from './types.js';

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
    super(
      phase === 'deadline'
        ? `inbox handler did not finish event ${eventId} (attempt ${attempt}) within handlerTimeoutMs (${timeoutMs} ms): the run counts as failed and the event is retried`
        : `inbox handler was still running event ${eventId} (attempt ${attempt}, ${timeoutMs} ms) when the stop's stopTimeoutMs ran out: the run counts as failed and the event goes to another worker`,
    );
    this.eventId = eventId;
    this.attempt = attempt;
    this.timeoutMs = timeoutMs;
    this.phase = phase;
  }
}

/** An event handed to one worker. `attempt` counts this run. */
export interface Claimed<E> {
  entryId: string;
  eventId: string;
  event: E;
  attempt: number;
}

/** What a run needs of its inbox: the engine's storage steps and the inbox's options. */
export interface RunSteps<E> {
  settle(
    consumer: string,
    c: Claimed<E>,
    changes: readonly InboxStateChange[],
    guard: GuardPlan | undefined,
  ): Promise<InboxCommitOutcome>;
  fail(consumer: string, c: Claimed<E>, error: string, dueAt: number | undefined): Promise<void>;
  peekMark(entity: string): Promise<EncodedMark | null>;
  getState(key: string): Promise<string | null>;
  ordering: OrderingPlan | undefined;
  refetch: NonNullable<InboxOptions['refetch']>;
  now: () => number;
}

type Cut = 'deadline' | 'stop';

/** A started run: `done` when settled or its failure stored, `slot` once the handler returned, `cut` to end it early. */
export interface Run {
  done: Promise<void>;
  slot: Promise<void>;
  cut: (why: Cut) => void;
}

/** The state of one run that its commit, ack and end share. */
interface RunState<E extends CallbackEvent> {
  c: Claimed<E>;
  s: RunSettings<E>;
  steps: RunSteps<E>;
  started: number;
  /** The handler's signal, made when the handler first reads `context.signal` (most never do: issue 33, CPU per event). */
  own: AbortController | undefined;
  /** Set by the first abort (the worker's stop or the cut), made or not: `own` is made aborted with it. */
  aborted: { reason: unknown } | undefined;
  cutWhy: Cut | undefined;
  committed: Promise<InboxCommitOutcome> | undefined;
}

/** Aborts the run's signal (once; the first reason stays), or the signal it will make. */
function abortRun(run: Pick<RunState<CallbackEvent>, 'own' | 'aborted'>, reason: unknown): void {
  if (run.aborted) return;
  run.aborted = { reason };
  run.own?.abort(reason);
}

/** The handler's signal: aborted when the worker stops or the run is cut. */
function signalOf(run: Pick<RunState<CallbackEvent>, 'own' | 'aborted'>): AbortSignal {
  if (!run.own) {
    run.own = new AbortController();
    if (run.aborted) run.own.abort(run.aborted.reason);
  }
  return run.own.signal;
}

/**
 * One run of the handler for `c`, raced against its deadline: settled (commit or ack), retried
 * or dead-lettered after a failure; past `handlerTimeoutMs` (or cut at the end of a stop)
 * counted as a failed run, its signal aborted and its later commit refused.
 */
export function startRun<E extends CallbackEvent>(c: Claimed<E>, s: RunSettings<E>, steps: RunSteps<E>): Run {
  let release!: () => void;
  const slot = new Promise<void>((resolve) => (release = resolve));
  const run: RunState<E> = {
    c,
    s,
    steps,
    started: steps.now(),
    own: undefined,
    aborted: undefined,
    cutWhy: undefined,
    committed: undefined,
  };
  // the handler's signal aborts when the worker stops or the deadline passes
  const abortable = { abort: (reason: unknown) => abortRun(run, reason) };
  s.running.add(abortable); // aborted by the stop (one listener for all runs, not one per run)
  if (s.stop.aborted) abortRun(run, s.stop.reason);
  // whichever comes first decides the run: the handler's end or a cut (no Promise.race: fewer promises per event)
  let finish!: (outcome: Promise<void> | undefined) => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  let decided = false;
  const decide = (first: undefined | 'cut' | { err: unknown }): void => {
    if (decided) return;
    decided = true;
    clearTimeout(timer);
    s.running.delete(abortable);
    finish(first === undefined ? undefined : first === 'cut' ? afterCut(run, handled) : afterFailure(run, first.err));
  };
  const cut = (why: Cut): void => {
    run.cutWhy ??= why;
    decide('cut');
  };
  const timer = setTimeout(() => cut('deadline'), s.handlerTimeoutMs);
  const handled = handle(run, release);
  handled.then(
    () => decide(undefined),
    (err: unknown) => decide({ err }),
  );
  // a failed or cut run keeps its slot until its failure is stored (a worker whose store hangs takes no more)
  void done.then(release, release);
  return { done, slot, cut };
}

/** The run's commit: once, not after a cut, changes checked before anything is written. */
function commit<E extends CallbackEvent>(
  run: RunState<E>,
  changes: readonly InboxStateChange[],
  guard: GuardPlan | undefined,
): Promise<InboxCommitOutcome> {
  if (run.committed) return Promise.reject(new Error('commit() was already called for this event'));
  // past its deadline the run was counted as failed and the event given back: nothing is written
  if (run.cutWhy !== undefined) return Promise.resolve<InboxCommitOutcome>('lost');
  try {
    checkChanges(changes); // refused changes leave nothing done: commit may be called again
  } catch (err) {
    return Promise.reject(err);
  }
  return (run.committed = run.steps.settle(run.s.consumer, run.c, changes, guard));
}

/** Done without a commit: acknowledged as it is (or, after a commit, that commit's outcome). */
function ack<E extends CallbackEvent>(run: RunState<E>, guard: GuardPlan | undefined): Promise<unknown> | undefined {
  return run.cutWhy !== undefined ? undefined : (run.committed ??= run.steps.settle(run.s.consumer, run.c, [], guard));
}

/** True when a commit (or ack) of the run went through. */
async function settled<E extends CallbackEvent>(run: RunState<E>): Promise<boolean> {
  if (run.committed === undefined) return false;
  return run.committed.then(
    () => true,
    () => false,
  );
}

/** The handler's part of a run: the ordering guard, the context, the handler, the ack. */
async function handle<E extends CallbackEvent>(run: RunState<E>, release: () => void): Promise<void> {
  const { c, s, steps } = run;
  const guard = steps.ordering?.plan(c.event);
  let superseded = false;
  if (guard) {
    superseded = !isNewerMark(guard.mark, await steps.peekMark(guard.entity));
    if (superseded && !steps.ordering!.deliverSuperseded) {
      // skipped, not handed to the handler: done all the same (onSuperseded lets a harness count it as handled)
      release();
      if ((await ack(run, guard)) === 'superseded') s.superseded(c.event, c.eventId, guard.entity);
      return;
    }
  }
  const truncated = truncationOf(c.event, steps.refetch);
  const context: InboxContext = {
    eventId: c.eventId,
    attempt: c.attempt,
    get signal() {
      return signalOf(run);
    },
    ...(truncated ? { truncated } : {}),
    ...(guard ? { ordering: { entity: guard.entity, superseded } } : {}),
    commit: (changes = []) => commit(run, changes, guard),
    getState: (key) => steps.getState(key),
  };
  await s.handler(c.event, context);
  release();
  await ack(run, guard);
}

/** Cut at its deadline or by a stop: counted as a failed run unless a commit already decided it. */
async function afterCut<E extends CallbackEvent>(run: RunState<E>, handled: Promise<unknown>): Promise<void> {
  const { c, s, steps } = run;
  if (await settled(run)) return; // a commit already under way decides the run
  const why = run.cutWhy!;
  const dead = c.attempt >= s.maxAttempts;
  const err = new InboxHandlerTimeoutError(
    c.eventId,
    c.attempt,
    why === 'deadline' ? s.handlerTimeoutMs : steps.now() - run.started,
    why,
  );
  abortRun(run, err);
  handled.catch(() => undefined); // whatever the abandoned run does later is ignored
  s.report(err, { eventId: c.eventId, attempt: c.attempt, dead, timedOut: why === 'deadline', stuck: why === 'stop' });
  // counted as a failed run; after a stop, handed to another worker at once
  await steps.fail(
    s.consumer,
    c,
    errorText(err),
    dead ? undefined : why === 'stop' ? steps.now() : s.retryAt(c.attempt),
  );
}

/** The handler threw: retried with backoff or dead-lettered, unless its commit went through first. */
async function afterFailure<E extends CallbackEvent>(run: RunState<E>, err: unknown): Promise<void> {
  const { c, s, steps } = run;
  if (await settled(run)) {
    s.report(err, { eventId: c.eventId, attempt: c.attempt, dead: false }); // after its commit: the event is done
    return;
  }
  const dead = c.attempt >= s.maxAttempts;
  s.report(err, { eventId: c.eventId, attempt: c.attempt, dead });
  await steps.fail(s.consumer, c, errorText(err), dead ? undefined : s.retryAt(c.attempt));
}
