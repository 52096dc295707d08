// Copied by im-openapi from templates/runtime/otel/index.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * `im-server-sdk/otel`: OpenTelemetry spans and metrics from the client's
 * `node:diagnostics_channel` events (core/hooks.ts). `@opentelemetry/api` is an optional peer
 * dependency: only this entry imports it, so an app that does not trace never loads it.
 *
 * Spans (HTTP client semantic conventions, with retries as the conventions model them):
 * - one INTERNAL span per call, named by its operation (`users.get`; `app.token` for a token
 *   exchange), a child of the span active where the call was made;
 * - one CLIENT span per attempt, a child of the call's span, named by the HTTP method, with
 *   `http.request.method`, `url.full` (query values masked), `server.address`, `server.port`,
 *   `http.response.status_code`, `http.request.resend_count`, `error.type`, and ours:
 *   `im.operation.id`, `im.retry_class`, `im.attempt`;
 * - span events on the call: `im.retry` (`im.retry.reason`, `im.retry.wait_ms`) and
 *   `im.rate_limit.wait` (`im.rate_limit.wait_ms`, `im.rate_limit.gate`).
 *
 * Metrics: `http.client.request.duration` (s, per attempt), `im.client.call.duration` (s, per
 * call), `im.client.retries` (by `im.retry.reason`), `im.client.rate_limited` (429 answers),
 * `im.client.rate_limit.wait` (s waited before sending), `im.client.token_exchanges` (by
 * `im.outcome`).
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import {
  context,
  metrics,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Counter,
  type Histogram,
  type Meter,
  type MeterProvider,
  type Span,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import {
  IM_CHANNELS,
  type AttemptEndEvent,
  type CallEndEvent,
  type CallStartEvent,
  type RateLimitWaitView,
  type RequestView,
  type RetryView,
} from '../core/hooks.js';
import { SDK_NAME, SDK_VERSION } from '../sdk-version.js';

export interface ImInstrumentationOptions {
  /** Default: the global tracer provider (`trace.getTracerProvider()`). */
  tracerProvider?: TracerProvider | undefined;
  /** Default: the global meter provider (`metrics.getMeterProvider()`). */
  meterProvider?: MeterProvider | undefined;
}

export interface ImInstrumentation {
  /** Stops listening (spans of calls in flight are ended as they are). */
  disable(): void;
}

interface CallState {
  span: Span;
  attempt: Span | undefined;
}

/** Where the server is, from an attempt's URL (its query values are already masked). */
function serverAttributes(url: string): Attributes {
  try {
    const u = new URL(url);
    const port = u.port !== '' ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
    return { 'server.address': u.hostname, 'server.port': port, 'url.scheme': u.protocol.replace(/:$/, '') };
  } catch {
    return {};
  }
}

/** `error.type` of an attempt that failed: the status as text, or the kind of failure. */
function attemptErrorType(e: AttemptEndEvent): string | undefined {
  if (e.outcome === 'response') return e.status !== undefined && e.status >= 400 ? String(e.status) : undefined;
  return e.outcome === 'network' ? 'connection_error' : e.outcome === 'too-large' ? 'response_too_large' : e.outcome;
}

/** The spans and metrics of one `instrumentImClient`: one handler per diagnostics channel. */
class ImTelemetry {
  readonly calls = new Map<number, CallState>();
  private readonly requestDuration: Histogram;
  private readonly callDuration: Histogram;
  private readonly retries: Counter;
  private readonly rateLimited: Counter;
  private readonly rateLimitWait: Histogram;
  private readonly tokenExchanges: Counter;

  constructor(
    private readonly tracer: Tracer,
    meter: Meter,
  ) {
    this.requestDuration = meter.createHistogram('http.client.request.duration', {
      unit: 's',
      description: 'Duration of HTTP client requests (one per attempt).',
    });
    this.callDuration = meter.createHistogram('im.client.call.duration', {
      unit: 's',
      description: 'Duration of SDK calls across all their attempts and waits.',
    });
    this.retries = meter.createCounter('im.client.retries', {
      description: 'Attempts followed by another attempt, by reason.',
    });
    this.rateLimited = meter.createCounter('im.client.rate_limited', { description: '429 rate_limited answers.' });
    this.rateLimitWait = meter.createHistogram('im.client.rate_limit.wait', {
      unit: 's',
      description: 'Time calls waited before sending because of an earlier 429.',
    });
    this.tokenExchanges = meter.createCounter('im.client.token_exchanges', {
      description: 'App Token exchanges, by outcome.',
    });
  }

  onCallStart(message: unknown): void {
    const e = message as CallStartEvent;
    const span = this.tracer.startSpan(
      e.operationId,
      {
        kind: SpanKind.INTERNAL,
        attributes: { 'im.operation.id': e.operationId, 'im.token_exchange': e.tokenExchange },
      },
      context.active(),
    );
    this.calls.set(e.callId, { span, attempt: undefined });
  }

  onAttemptStart(message: unknown): void {
    const e = message as RequestView;
    const call = this.calls.get(e.callId);
    if (!call) return;
    const attributes: Attributes = {
      'http.request.method': e.method,
      'url.full': e.url,
      ...serverAttributes(e.url),
      'im.operation.id': e.operationId,
      'im.retry_class': e.retryClass,
      'im.attempt': e.attempt,
    };
    if (e.attempt > 1) attributes['http.request.resend_count'] = e.attempt - 1;
    call.span.setAttribute('im.retry_class', e.retryClass);
    call.attempt = this.tracer.startSpan(
      e.method,
      { kind: SpanKind.CLIENT, attributes },
      trace.setSpan(context.active(), call.span),
    );
  }

  onAttemptEnd(message: unknown): void {
    const e = message as AttemptEndEvent;
    const errorType = attemptErrorType(e);
    const attributes: Attributes = {
      'http.request.method': e.method,
      ...serverAttributes(e.url),
      'im.operation.id': e.operationId,
    };
    if (e.status !== undefined) attributes['http.response.status_code'] = e.status;
    if (errorType !== undefined) attributes['error.type'] = errorType;
    this.requestDuration.record(e.durationMs / 1000, attributes);
    if (e.status === 429) this.rateLimited.add(1, { 'im.operation.id': e.operationId });
    const span = this.calls.get(e.callId)?.attempt;
    if (!span) return;
    if (e.status !== undefined) span.setAttribute('http.response.status_code', e.status);
    if (e.requestId !== undefined) span.setAttribute('im.request_id', e.requestId);
    if (errorType !== undefined) {
      span.setAttribute('error.type', errorType);
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end();
    this.calls.get(e.callId)!.attempt = undefined;
  }

  onRetry(message: unknown): void {
    const e = message as RetryView;
    this.retries.add(1, {
      'im.operation.id': e.operationId,
      'im.retry.reason': e.reason,
      'im.retry_class': e.retryClass,
    });
    this.calls.get(e.callId)?.span.addEvent('im.retry', {
      'im.retry.reason': e.reason,
      'im.retry.wait_ms': e.waitMs,
      'im.attempt': e.attempt,
    });
  }

  onRateLimitWait(message: unknown): void {
    const e = message as RateLimitWaitView;
    this.rateLimitWait.record(e.waitMs / 1000, { 'im.operation.id': e.operationId, 'im.rate_limit.gate': e.gate });
    this.calls
      .get(e.callId)
      ?.span.addEvent('im.rate_limit.wait', { 'im.rate_limit.wait_ms': e.waitMs, 'im.rate_limit.gate': e.gate });
  }

  onCallEnd(message: unknown): void {
    const e = message as CallEndEvent;
    const attributes: Attributes = { 'im.operation.id': e.operationId };
    if (!e.ok) attributes['error.type'] = e.errorName;
    this.callDuration.record(e.durationMs / 1000, attributes);
    if (e.tokenExchange) this.tokenExchanges.add(1, { 'im.outcome': e.ok ? 'ok' : 'error' });
    const call = this.calls.get(e.callId);
    if (!call) return;
    this.calls.delete(e.callId);
    call.attempt?.end();
    call.span.setAttribute('im.attempts', e.attempts);
    if (e.status !== undefined) call.span.setAttribute('http.response.status_code', e.status);
    if (!e.ok) {
      call.span.setAttribute('error.type', e.errorName);
      if (e.code !== undefined) call.span.setAttribute('im.error.code', e.code);
      call.span.setStatus({ code: SpanStatusCode.ERROR, message: e.error.message });
    }
    call.span.end();
  }
}

/**
 * Starts turning the client's events into spans and metrics; returns `disable()`. Call it once
 * at start-up, after the OpenTelemetry SDK is set up (or pass its providers).
 */
export function instrumentImClient(options: ImInstrumentationOptions = {}): ImInstrumentation {
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(SDK_NAME, SDK_VERSION);
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(SDK_NAME, SDK_VERSION);
  const t = new ImTelemetry(tracer, meter);
  // A subscriber that throws would surface as an uncaught exception (diagnostics_channel's rule):
  // every handler is guarded, so telemetry never takes a process down.
  const guard =
    (fn: (message: unknown) => void) =>
    (message: unknown): void => {
      try {
        fn(message);
      } catch {
        // telemetry must never break the app
      }
    };
  const handlers: [string, (message: unknown) => void][] = [
    [IM_CHANNELS.callStart, guard((m) => t.onCallStart(m))],
    [IM_CHANNELS.attemptStart, guard((m) => t.onAttemptStart(m))],
    [IM_CHANNELS.attemptEnd, guard((m) => t.onAttemptEnd(m))],
    [IM_CHANNELS.retry, guard((m) => t.onRetry(m))],
    [IM_CHANNELS.rateLimitWait, guard((m) => t.onRateLimitWait(m))],
    [IM_CHANNELS.callEnd, guard((m) => t.onCallEnd(m))],
  ];
  for (const [name, fn] of handlers) subscribe(name, fn);
  return {
    disable() {
      for (const [name, fn] of handlers) unsubscribe(name, fn);
      t.calls.clear();
    },
  };
}
