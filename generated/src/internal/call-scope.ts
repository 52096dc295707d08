// Copied by im-openapi from templates/runtime/internal/call-scope.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * Cancellation plumbing (internal, unstable): one `CallScope` per call joins the caller's
 * AbortSignal and the overall deadline into one signal that every wait of the call honours
 * (token wait, 429 gate, backoff, each attempt).
 */
import { AbortError, TimeoutError, type ImError } from '../core/errors.js';

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/**
 * setTimeout-based sleep that rejects with the signal's reason when it fires. The shared
 * `NEVER_ABORTED` signal gets no listener: it never fires, and a listener per waiting call on one
 * shared signal is what printed MaxListenersExceededWarning (issue 16 item 8).
 */
export const realSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal === NEVER_ABORTED) signal = undefined;
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** Resolves or rejects as `promise` does, or rejects with the signal's reason first. */
export function raceSignal<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  // NEVER_ABORTED never fires: no listener on it (see realSleep).
  if (!signal || signal === NEVER_ABORTED) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/**
 * The signal of a call that nothing can end early (no caller signal, no deadline): one shared
 * signal that never aborts, so such a call needs no controller of its own and no listeners.
 */
export const NEVER_ABORTED: AbortSignal = new AbortController().signal;

const NO_DISPOSE = (): void => {};

/**
 * Followers of each caller signal. However many calls share one signal (one AbortController for
 * a whole batch, say), the signal gets ONE abort listener, removed with its last follower: a
 * listener per call printed MaxListenersExceededWarning past 10 concurrent calls (issue 16 item 8).
 */
const followers = new WeakMap<AbortSignal, { children: Set<AbortController>; onAbort: () => void }>();

/** A child AbortController that follows `parent`; `dispose()` stops following (no listener outlives its call). */
export function childController(parent: AbortSignal | undefined): { controller: AbortController; dispose: () => void } {
  const controller = new AbortController();
  if (!parent || parent === NEVER_ABORTED) return { controller, dispose: NO_DISPOSE };
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { controller, dispose: NO_DISPOSE };
  }
  let entry = followers.get(parent);
  if (!entry) {
    const children = new Set<AbortController>();
    const onAbort = (): void => {
      followers.delete(parent);
      for (const child of children) child.abort(parent.reason);
    };
    entry = { children, onAbort };
    followers.set(parent, entry);
    parent.addEventListener('abort', onAbort, { once: true });
  }
  const own = entry;
  own.children.add(controller);
  return {
    controller,
    dispose: () => {
      own.children.delete(controller);
      if (own.children.size === 0 && followers.get(parent) === own) {
        followers.delete(parent);
        parent.removeEventListener('abort', own.onAbort);
      }
    },
  };
}

const DEADLINE = Symbol('im-openapi.deadline');

export class CallScope {
  readonly signal: AbortSignal;
  readonly deadlineAt: number | undefined;
  readonly #userSignal: AbortSignal | undefined;
  readonly #deadlineMs: number | undefined;
  readonly #operationId: string;
  readonly #now: () => number;
  readonly #dispose: () => void;
  #timer: ReturnType<typeof setTimeout> | undefined;
  attempts = 0;

  constructor(opts: {
    operationId: string;
    signal?: AbortSignal | undefined;
    deadlineMs?: number | undefined;
    now: () => number;
  }) {
    this.#userSignal = opts.signal;
    this.#deadlineMs = opts.deadlineMs;
    this.#operationId = opts.operationId;
    this.#now = opts.now;
    if (opts.signal === undefined && opts.deadlineMs === undefined) {
      // The common case: nothing can end this call early.
      this.signal = NEVER_ABORTED;
      this.#dispose = NO_DISPOSE;
      return;
    }
    const { controller, dispose } = childController(opts.signal);
    this.signal = controller.signal;
    this.#dispose = dispose;
    if (opts.deadlineMs !== undefined) {
      this.deadlineAt = opts.now() + opts.deadlineMs;
      this.#timer = setTimeout(() => controller.abort(DEADLINE), opts.deadlineMs);
    }
  }

  /** Ms left before the deadline (undefined when there is none). */
  remainingMs(): number | undefined {
    return this.deadlineAt === undefined ? undefined : Math.max(0, this.deadlineAt - this.#now());
  }

  /** The error that explains why the scope ended: the caller's abort or the deadline. */
  endError(cause?: unknown): ImError {
    if (this.#userSignal?.aborted) return new AbortError(this.#operationId, this.#userSignal.reason);
    return new TimeoutError(
      `${this.#operationId} did not finish within its overall deadline of ${this.#deadlineMs ?? 0} ms ` +
        `(${this.attempts} attempt(s) sent). Raise deadlineMs, or check the service's health.`,
      {
        operationId: this.#operationId,
        kind: 'deadline',
        timeoutMs: this.#deadlineMs ?? 0,
        attempts: this.attempts,
        cause,
      },
    );
  }

  /** True when the deadline would pass before `ms` from now. */
  wouldPassDeadline(ms: number): boolean {
    const left = this.remainingMs();
    return left !== undefined && ms >= left;
  }

  isDone(): boolean {
    return this.signal.aborted || (this.deadlineAt !== undefined && this.#now() >= this.deadlineAt);
  }

  /** True when `dispose()` has something to let go (a deadline timer, a listener on the caller's signal). */
  holdsResources(): boolean {
    return this.#timer !== undefined || this.#dispose !== NO_DISPOSE;
  }

  dispose(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#dispose();
  }
}
