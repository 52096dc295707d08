/**
 * Hooks and telemetry events of a call (public). The client option `hooks` and the
 * `node:diagnostics_channel` channels of `IM_CHANNELS` receive frozen views of each call and
 * attempt: operation id, method, URL (query values masked), attempt, status, timing, request
 * id, retry reason and wait. A view never holds a header, a body, the params, the App Token or
 * the client secret. Hooks run synchronously and are not awaited; one that throws or rejects is
 * logged (warn) and the call goes on. `im-server-sdk/otel` turns the channels into
 * OpenTelemetry spans and metrics.
 */
import type { RetryClass } from '../operation.js';

/** Why an attempt is followed by another one. */
export type RetryReason =
  /** The connection failed (the request may have been executed: only classes Q, I, U, D are resent). */
  | 'network'
  /** No answer within timeoutMs. */
  | 'timeout'
  /** A 5xx (or another status the retry rules resend). */
  | 'status'
  /** 429 rate_limited: resent after the Retry-After wait (any class: the request was not executed). */
  | 'rate-limited'
  /** 401 unauthenticated: the App Token was exchanged again and the call resent once. */
  | 'reauthenticated';

/** One attempt as it is sent (`onRequest`). */
export interface RequestView {
  /** Unique per call in this process: ties the views of one call together. */
  readonly callId: number;
  /** The seed's op name, e.g. `users.create` (`app.token` for a token exchange). */
  readonly operationId: string;
  /** True for the client's own token exchanges. */
  readonly tokenExchange: boolean;
  readonly method: string;
  /** The full URL with every query value replaced by `***`. */
  readonly url: string;
  /** 1 for the first attempt. */
  readonly attempt: number;
  /** The retry class that applies to this call (REST seed section 4). */
  readonly retryClass: RetryClass;
}

/** An answer of the service to one attempt, any status (`onResponse`). */
export interface ResponseView extends RequestView {
  readonly status: number;
  /** The service's request id (X-Request-Id), when it sent one. */
  readonly requestId: string | undefined;
  /** Time from sending the attempt to its answer, in ms. */
  readonly durationMs: number;
}

/** An attempt that will be followed by another (`onRetry`): why, and after how long. */
export interface RetryView extends RequestView {
  readonly reason: RetryReason;
  /** The wait before the next attempt, in ms (for a 429: the Retry-After wait, or the backoff when it had none). */
  readonly waitMs: number;
  /** The status that caused it, when the service answered. */
  readonly status: number | undefined;
}

/** A call that failed, after all its attempts (`onError`); also calls refused before sending. */
export interface ErrorView {
  readonly callId: number;
  readonly operationId: string;
  readonly tokenExchange: boolean;
  /** Attempts sent (0 when the call was refused before sending, e.g. a ValidationError). */
  readonly attempts: number;
  readonly durationMs: number;
  readonly status: number | undefined;
  readonly requestId: string | undefined;
  /** The error the call rejects with (its message never holds a secret). */
  readonly error: Error;
  /** `error.name`, e.g. `RateLimitedError`. */
  readonly errorName: string;
  /** The service's error code (`rate_limited`, …) or the client's (`timeout`, …), when there is one. */
  readonly code: string | undefined;
}

/** The `hooks` client option: each is optional, called with a frozen view, never awaited. */
export interface CallHooks {
  /** Before each attempt is sent. */
  onRequest?: ((request: RequestView) => void | Promise<void>) | undefined;
  /** After each answer of the service (any status). */
  onResponse?: ((response: ResponseView) => void | Promise<void>) | undefined;
  /** When an attempt is followed by another one. */
  onRetry?: ((retry: RetryView) => void | Promise<void>) | undefined;
  /** When a call fails (once per call, after its last attempt). */
  onError?: ((error: ErrorView) => void | Promise<void>) | undefined;
}

/** `im-server-sdk:call:start`: a call begins (before validation and the token). */
export interface CallStartEvent {
  readonly callId: number;
  readonly operationId: string;
  readonly tokenExchange: boolean;
  /** Epoch ms (the client's clock). */
  readonly startedAt: number;
}

/** `im-server-sdk:attempt:end`: an attempt ended, with an answer or without one. */
export interface AttemptEndEvent extends RequestView {
  /** `response`: the service answered (see status); the others: no usable answer. */
  readonly outcome: 'response' | 'network' | 'timeout' | 'too-large' | 'ended';
  readonly status: number | undefined;
  readonly requestId: string | undefined;
  readonly durationMs: number;
}

/** `im-server-sdk:rate-limit:wait`: a call waited before sending because of an earlier 429. */
export interface RateLimitWaitView {
  readonly callId: number;
  readonly operationId: string;
  readonly waitMs: number;
  /** `client`: the client-wide pause after a 429; `exchange`: this host's token exchanges are paused. */
  readonly gate: 'client' | 'exchange';
}

/** `im-server-sdk:call:end`: a call settled. */
export type CallEndEvent =
  | ({ readonly ok: true; readonly error: undefined } & Omit<ErrorView, 'error' | 'errorName' | 'code'>)
  | ({ readonly ok: false } & ErrorView);

/**
 * The `node:diagnostics_channel` channel names the client publishes on (Node only; nothing is
 * published while a channel has no subscriber). Messages: call:start → CallStartEvent,
 * attempt:start → RequestView, attempt:end → AttemptEndEvent, retry → RetryView,
 * rate-limit:wait → RateLimitWaitView, call:end → CallEndEvent.
 */
export const IM_CHANNELS = {
  callStart: 'im-server-sdk:call:start',
  attemptStart: 'im-server-sdk:attempt:start',
  attemptEnd: 'im-server-sdk:attempt:end',
  retry: 'im-server-sdk:retry',
  rateLimitWait: 'im-server-sdk:rate-limit:wait',
  callEnd: 'im-server-sdk:call:end',
} as const;
