/**
 * Observing calls (internal; the event shapes and channel names are public, see core/hooks.ts):
 * the client's `hooks` and the `node:diagnostics_channel` channels get the same redacted,
 * frozen views of each call and attempt. Nothing here runs when no hook is set and no channel
 * has a subscriber: `observerFactory` then gives no observer, and the attempt loop's
 * `observer?.…` calls cost a check of undefined.
 *
 * The views carry no header, no body and no params: the App Token, the client secret and the
 * request's values can never reach a hook or a subscriber. The URL's query values are masked.
 */
import type { RetryClass } from '../operation.js';
import type { ImError } from '../core/errors.js';
import type {
  CallHooks,
  CallEndEvent,
  CallStartEvent,
  ErrorView,
  RateLimitWaitView,
  RequestView,
  ResponseView,
  RetryReason,
  RetryView,
  AttemptEndEvent,
} from '../core/hooks.js';
import { IM_CHANNELS } from '../core/hooks.js';
import type { SafeLogger } from './logger.js';
import { maskUrlQuery } from './redact.js';

/** What one observed call reports to; created per call only when someone listens. */
export interface CallObserver {
  attemptStart(attempt: number, method: string, url: string, retryClass: RetryClass): void;
  attemptEnd(
    outcome: AttemptEndEvent['outcome'],
    status: number | undefined,
    requestId: string | undefined,
    durationMs: number,
  ): void;
  retry(reason: RetryReason, waitMs: number, status: number | undefined): void;
  rateLimitWait(waitMs: number, gate: RateLimitWaitView['gate']): void;
  /** The call's promise, reported when it settles (returns a promise that settles the same). */
  track<T extends { response: { status: number; requestId: string | undefined } }>(result: Promise<T>): Promise<T>;
}

export type ObserverFactory = (operationId: string, tokenExchange: boolean) => CallObserver | undefined;

interface ChannelLike {
  readonly hasSubscribers: boolean;
  publish(message: unknown): void;
}

type Channels = { readonly [K in keyof typeof IM_CHANNELS]: ChannelLike };

let channels: Channels | null | undefined;

/** The channels of node:diagnostics_channel (loaded through getBuiltinModule, so edge bundles never import it); null where absent. */
function loadChannels(): Channels | null {
  if (channels !== undefined) return channels;
  const p = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const dc =
    typeof p?.getBuiltinModule === 'function'
      ? (p.getBuiltinModule('node:diagnostics_channel') as { channel(name: string): ChannelLike } | undefined)
      : undefined;
  if (!dc || typeof dc.channel !== 'function') return (channels = null);
  const entries = Object.entries(IM_CHANNELS).map(([key, name]) => [key, dc.channel(name)] as const);
  return (channels = Object.fromEntries(entries) as unknown as Channels);
}

function anySubscriber(c: Channels): boolean {
  return (
    c.callStart.hasSubscribers ||
    c.attemptStart.hasSubscribers ||
    c.attemptEnd.hasSubscribers ||
    c.retry.hasSubscribers ||
    c.rateLimitWait.hasSubscribers ||
    c.callEnd.hasSubscribers
  );
}

let nextCallId = 1;

/**
 * The client's factory of call observers: undefined when there are no hooks and no channels
 * (an edge runtime without node:diagnostics_channel), else a function that gives an observer
 * only while a hook is set or a channel has a subscriber.
 */
export function observerFactory(
  hooks: CallHooks | undefined,
  logger: SafeLogger,
  now: () => number,
): ObserverFactory | undefined {
  const c = loadChannels();
  const hasHooks =
    hooks !== undefined &&
    (hooks.onRequest !== undefined ||
      hooks.onResponse !== undefined ||
      hooks.onRetry !== undefined ||
      hooks.onError !== undefined);
  if (!hasHooks && c === null) return undefined;
  return (operationId, tokenExchange) => {
    if (!hasHooks && (c === null || !anySubscriber(c))) return undefined;
    return new Observer(operationId, tokenExchange, hasHooks ? hooks : undefined, c, logger, now);
  };
}

class Observer implements CallObserver {
  readonly #operationId: string;
  readonly #callId = nextCallId++;
  readonly #tokenExchange: boolean;
  readonly #hooks: CallHooks | undefined;
  readonly #channels: Channels | null;
  readonly #logger: SafeLogger;
  readonly #now: () => number;
  readonly #startedAt: number;
  #request: RequestView | undefined;
  #attempts = 0;

  constructor(
    operationId: string,
    tokenExchange: boolean,
    hooks: CallHooks | undefined,
    c: Channels | null,
    logger: SafeLogger,
    now: () => number,
  ) {
    this.#operationId = operationId;
    this.#tokenExchange = tokenExchange;
    this.#hooks = hooks;
    this.#channels = c;
    this.#logger = logger;
    this.#now = now;
    this.#startedAt = now();
    if (c?.callStart.hasSubscribers)
      c.callStart.publish(
        Object.freeze<CallStartEvent>({ callId: this.#callId, operationId, tokenExchange, startedAt: this.#startedAt }),
      );
  }

  attemptStart(attempt: number, method: string, url: string, retryClass: RetryClass): void {
    this.#attempts = attempt;
    const view: RequestView = Object.freeze({
      callId: this.#callId,
      operationId: this.#operationId,
      tokenExchange: this.#tokenExchange,
      method,
      url: maskUrlQuery(url),
      attempt,
      retryClass,
    });
    this.#request = view;
    if (this.#channels?.attemptStart.hasSubscribers) this.#channels.attemptStart.publish(view);
    if (this.#hooks?.onRequest) this.#callHook('onRequest', this.#hooks.onRequest, view);
  }

  attemptEnd(
    outcome: AttemptEndEvent['outcome'],
    status: number | undefined,
    requestId: string | undefined,
    durationMs: number,
  ): void {
    const request = this.#request;
    if (!request) return;
    const c = this.#channels;
    if (c?.attemptEnd.hasSubscribers)
      c.attemptEnd.publish(Object.freeze<AttemptEndEvent>({ ...request, outcome, status, requestId, durationMs }));
    if (outcome === 'response' && status !== undefined && this.#hooks?.onResponse) {
      this.#callHook(
        'onResponse',
        this.#hooks.onResponse,
        Object.freeze<ResponseView>({ ...request, status, requestId, durationMs }),
      );
    }
  }

  retry(reason: RetryReason, waitMs: number, status: number | undefined): void {
    const request = this.#request;
    if (!request) return;
    const view: RetryView = Object.freeze({ ...request, reason, waitMs, status });
    if (this.#channels?.retry.hasSubscribers) this.#channels.retry.publish(view);
    if (this.#hooks?.onRetry) this.#callHook('onRetry', this.#hooks.onRetry, view);
  }

  rateLimitWait(waitMs: number, gate: RateLimitWaitView['gate']): void {
    const c = this.#channels;
    if (c?.rateLimitWait.hasSubscribers)
      c.rateLimitWait.publish(
        Object.freeze<RateLimitWaitView>({ callId: this.#callId, operationId: this.#operationId, waitMs, gate }),
      );
  }

  track<T extends { response: { status: number; requestId: string | undefined } }>(result: Promise<T>): Promise<T> {
    return result.then(
      (value) => {
        this.#end(value.response.status, value.response.requestId, undefined);
        return value;
      },
      (error: unknown) => {
        const e = error as Partial<ImError> & { status?: unknown; requestId?: unknown };
        this.#end(
          typeof e?.status === 'number' ? e.status : undefined,
          typeof e?.requestId === 'string' ? e.requestId : undefined,
          error,
        );
        throw error;
      },
    );
  }

  #end(status: number | undefined, requestId: string | undefined, error: unknown): void {
    const durationMs = this.#now() - this.#startedAt;
    const c = this.#channels;
    const base = {
      callId: this.#callId,
      operationId: this.#operationId,
      tokenExchange: this.#tokenExchange,
      attempts: this.#attempts,
      durationMs,
      status,
      requestId,
    };
    if (error === undefined) {
      if (c?.callEnd.hasSubscribers)
        c.callEnd.publish(Object.freeze<CallEndEvent>({ ...base, ok: true, error: undefined }));
      return;
    }
    const err = error instanceof Error ? error : new Error(String(error));
    const code = (err as { code?: unknown }).code;
    const view: ErrorView = Object.freeze({
      ...base,
      error: err,
      errorName: err.name,
      code: typeof code === 'string' ? code : undefined,
    });
    if (c?.callEnd.hasSubscribers) c.callEnd.publish(Object.freeze<CallEndEvent>({ ...view, ok: false }));
    if (this.#hooks?.onError) this.#callHook('onError', this.#hooks.onError, view);
  }

  /** A hook that throws (or rejects) is logged and never breaks the call. */
  #callHook<V>(name: keyof CallHooks, hook: (view: V) => unknown, view: V): void {
    try {
      const result = hook(view);
      if (result && typeof (result as PromiseLike<unknown>).then === 'function') {
        (result as Promise<unknown>).then(undefined, (err: unknown) => this.#hookFailed(name, err));
      }
    } catch (err) {
      this.#hookFailed(name, err);
    }
  }

  #hookFailed(name: keyof CallHooks, err: unknown): void {
    this.#logger.warn(
      `hooks.${name} threw during ${this.#operationId} (the call goes on): ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`,
    );
  }
}
