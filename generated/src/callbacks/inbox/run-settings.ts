// Copied by im-openapi from templates/runtime/callbacks/inbox/run-settings.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * What one `consume` call runs with: its options checked into the settings every run shares, and
 * the small checks and waits the worker loop uses (split from inbox-base.ts, issue 32/33).
 */
import type { CallbackEvent } from '../types.js';
import type { ConsumeErrorInfo, ConsumeOptions, InboxHandler, InboxStateChange } from './types.js';

export const DEFAULT_MAX_ATTEMPTS = 5;
/** Default handler deadline: this share of the visibility timeout (24 s of the default 30 s), so a run is cut before another worker may take its event. */
const DEFAULT_HANDLER_SHARE = 0.8;
/** Default wait for in-flight runs after a stop, before they are cut. */
export const DEFAULT_STOP_TIMEOUT_MS = 10_000;
const MAX_TIMER_MS = 2_147_483_647;

export function checkMs(name: string, value: number, min = 1): number {
  if (!(Number.isFinite(value) && value >= min && value <= MAX_TIMER_MS)) {
    throw new TypeError(`${name} must be a number of ms from ${min} to ${MAX_TIMER_MS}`);
  }
  return value;
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
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

/** What every run of one `consume` shares. */
export interface RunSettings<E extends CallbackEvent> {
  handler: InboxHandler<E>;
  consumer: string;
  maxAttempts: number;
  handlerTimeoutMs: number;
  /** Aborts when the worker stops. */
  stopper: AbortController;
  stop: AbortSignal;
  /** The runs in flight, aborted together when the worker stops (each makes its signal only when asked for it). */
  running: Set<{ abort(reason: unknown): void }>;
  /** When a failed run's event is due again (exponential backoff, ±20 %). */
  retryAt(attempt: number): number;
  /** onError, never throwing. */
  report(err: unknown, info: ConsumeErrorInfo): void;
  /** onSuperseded, never throwing. */
  superseded(event: E, eventId: string, entity: string): void;
}

/** The settings of one `consume` that each run uses, checked (`visibilityMs` and `now` are the inbox's). */
export function runSettings<E extends CallbackEvent>(
  handler: InboxHandler<E>,
  options: ConsumeOptions,
  visibilityMs: number,
  now: () => number,
): RunSettings<E> {
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (!(Number.isSafeInteger(maxAttempts) && maxAttempts >= 1))
    throw new TypeError('maxAttempts must be an integer >= 1');
  const baseMs = checkMs('backoff.baseMs', options.backoff?.baseMs ?? 1000, 0);
  const maxMs = checkMs('backoff.maxMs', options.backoff?.maxMs ?? 5 * 60_000, 0);
  const handlerTimeoutMs = checkMs(
    'handlerTimeoutMs',
    options.handlerTimeoutMs ?? Math.max(1, Math.floor(visibilityMs * DEFAULT_HANDLER_SHARE)),
  );
  if (handlerTimeoutMs >= visibilityMs) {
    throw new TypeError(
      `handlerTimeoutMs (${handlerTimeoutMs}) must be below the inbox's visibilityTimeoutMs (${visibilityMs}): past that another worker takes the event while this one still runs it`,
    );
  }
  const consumer = options.consumer ?? `w-${Math.random().toString(36).slice(2, 10)}-${now().toString(36)}`;
  if (!/^[\w.:-]{1,200}$/.test(consumer))
    throw new TypeError('consumer must be 1 to 200 characters of [A-Za-z0-9_.:-]');
  const onError = options.onError;
  const onSuperseded = options.onSuperseded;
  if (onSuperseded !== undefined && typeof onSuperseded !== 'function')
    throw new TypeError('onSuperseded must be a function (event, { eventId, entity })');
  const stopper = new AbortController();
  const running: RunSettings<E>['running'] = new Set();
  stopper.signal.addEventListener(
    'abort',
    () => {
      for (const run of running) run.abort(stopper.signal.reason);
    },
    { once: true },
  );
  return {
    handler,
    consumer,
    maxAttempts,
    handlerTimeoutMs,
    stopper,
    stop: stopper.signal,
    running,
    retryAt: (attempt) =>
      now() + Math.round(Math.min(maxMs, baseMs * 2 ** Math.min(30, attempt - 1)) * (0.8 + Math.random() * 0.4)),
    report: (err, info) => {
      try {
        onError?.(err, info);
      } catch {
        // a throwing onError must not stop the worker
      }
    },
    superseded: (event, eventId, entity) => {
      try {
        onSuperseded?.(event, { eventId, entity });
      } catch {
        // nor a throwing onSuperseded
      }
    },
  };
}

const STATE_KEY = /^[^\s]{1,512}$/;
/** Refuses a `commit(changes)` argument that is not a list of well-formed changes, naming the field. */
export function checkChanges(changes: readonly InboxStateChange[]): void {
  if (!Array.isArray(changes)) throw new TypeError('commit(changes): changes must be an array');
  changes.forEach((c, i) => {
    if (c === null || typeof c !== 'object') throw new TypeError(`commit(changes): changes[${i}] must be an object`);
    if (typeof c.key !== 'string' || !STATE_KEY.test(c.key))
      throw new TypeError(`commit(changes): changes[${i}].key must be 1 to 512 characters without spaces`);
    if (c.always !== undefined && typeof c.always !== 'boolean')
      throw new TypeError(`commit(changes): changes[${i}].always must be a boolean`);
    if (c.op === 'set') {
      if (typeof c.value !== 'string') throw new TypeError(`commit(changes): changes[${i}].value must be a string`);
    } else if (c.op === 'incr') {
      if (c.by !== undefined && !Number.isSafeInteger(c.by))
        throw new TypeError(`commit(changes): changes[${i}].by must be a safe integer`);
    } else if (c.op !== 'del') {
      throw new TypeError(`commit(changes): changes[${i}].op must be 'set', 'incr' or 'del'`);
    }
  });
}
