import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import {
  AggregationTemporality,
  MeterProvider,
  MetricReader,
  type DataPoint,
  type Histogram,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, test } from 'vitest';
import { apiError, makeClient, ops, SECRET, startFakeService, TOKEN_PREFIX } from '../test-support/fake-service.js';
import { instrumentImClient, type ImInstrumentation } from './index.js';

class TestReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected async onShutdown(): Promise<void> {}
  protected async onForceFlush(): Promise<void> {}
}

function setup(): { exporter: InMemorySpanExporter; reader: TestReader; instrumentation: ImInstrumentation } {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new TestReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  return { exporter, reader, instrumentation: instrumentImClient({ tracerProvider, meterProvider }) };
}

/** name → the data points of that metric. */
async function metricPoints(reader: TestReader): Promise<Map<string, DataPoint<unknown>[]>> {
  const { resourceMetrics } = await reader.collect();
  const out = new Map<string, DataPoint<unknown>[]>();
  for (const scope of resourceMetrics.scopeMetrics)
    for (const m of scope.metrics) out.set(m.descriptor.name, m.dataPoints as DataPoint<unknown>[]);
  return out;
}

const parentId = (s: ReadableSpan): string | undefined => s.parentSpanContext?.spanId;

let active: ImInstrumentation | undefined;
afterEach(() => {
  active?.disable();
  active = undefined;
});

describe.each(['node', 'fetch'] as const)('im-server-sdk/otel on the %s transport', (transport) => {
  test('one span per call with a child span per attempt, and the metrics', async () => {
    const { exporter, reader, instrumentation } = setup();
    active = instrumentation;
    const svc = await startFakeService({
      handle: (_r, n) =>
        n === 1
          ? apiError(503, 'unavailable')
          : n === 2
            ? { status: 200, body: { ok: true } }
            : n === 3
              ? apiError(429, 'rate_limited', undefined, { 'retry-after': '1' })
              : { status: 200, body: {} },
    });
    const im = makeClient(svc.baseUrl, { transport });
    await im.request(ops.usersGet, { username: 'alice' });
    await im.request(ops.usersGet, { username: 'bob' }, { headers: { 'x-trace-me': 'yes' } });

    const spans = exporter.getFinishedSpans();
    const callSpans = spans.filter((s) => s.kind === SpanKind.INTERNAL);
    expect(callSpans.map((s) => s.name)).toEqual(['app.token', 'users.get', 'users.get']);
    for (const call of callSpans) {
      const attempts = spans.filter((s) => parentId(s) === call.spanContext().spanId);
      expect(attempts.every((a) => a.kind === SpanKind.CLIENT)).toBe(true);
      expect(attempts.length).toBe(call.attributes['im.attempts']);
    }
    const [, first, second] = callSpans;
    const firstAttempts = spans.filter((s) => parentId(s) === first!.spanContext().spanId);
    expect(
      firstAttempts.map((s) => [
        s.name,
        s.attributes['http.response.status_code'],
        s.attributes['http.request.resend_count'],
      ]),
    ).toEqual([
      ['GET', 503, undefined],
      ['GET', 200, 1],
    ]);
    expect(firstAttempts[0]!.status.code).toBe(SpanStatusCode.ERROR);
    expect(firstAttempts[0]!.attributes['error.type']).toBe('503');
    expect(firstAttempts[1]!.attributes).toMatchObject({
      'http.request.method': 'GET',
      'url.full': `${svc.baseUrl}/acme/chat/users/alice`,
      'server.address': '127.0.0.1',
      'im.operation.id': 'users.get',
      'im.retry_class': 'Q',
      'im.attempt': 2,
    });
    expect(first!.events.map((e) => [e.name, e.attributes?.['im.retry.reason']])).toEqual([['im.retry', 'status']]);
    expect(second!.events.map((e) => [e.name, e.attributes?.['im.retry.reason']])[0]).toEqual([
      'im.retry',
      'rate-limited',
    ]);
    const text = JSON.stringify(spans.map((s) => ({ a: s.attributes, e: s.events })));
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(TOKEN_PREFIX);

    const points = await metricPoints(reader);
    const attemptsMeasured = (points.get('http.client.request.duration') ?? []).reduce(
      (n, p) => n + (p.value as Histogram).count,
      0,
    );
    expect(attemptsMeasured).toBe(5); // 1 exchange + 2 + 2
    const statuses = (points.get('http.client.request.duration') ?? [])
      .map((p) => p.attributes['http.response.status_code'])
      .sort();
    expect(statuses).toEqual([200, 200, 429, 503]); // POST app.token 200, GET 200, 429, 503
    const retriesByReason = Object.fromEntries(
      (points.get('im.client.retries') ?? []).map((p) => [p.attributes['im.retry.reason'], p.value]),
    );
    expect(retriesByReason).toEqual({ status: 1, 'rate-limited': 1 });
    expect((points.get('im.client.rate_limited') ?? []).map((p) => p.value)).toEqual([1]);
    expect((points.get('im.client.token_exchanges') ?? []).map((p) => [p.attributes['im.outcome'], p.value])).toEqual([
      ['ok', 1],
    ]);
    expect((points.get('im.client.call.duration') ?? []).reduce((n, p) => n + (p.value as Histogram).count, 0)).toBe(3);
    // the 429's Retry-After of 1 s: the resend waited at the client's gate (any positive wait passes)
    const waits = (points.get('im.client.rate_limit.wait') ?? []).map((p) => p.value as Histogram);
    expect(waits.map((h) => [h.count, (h.sum ?? 0) > 0])).toEqual([[1, true]]);
    expect(second!.events.map((e) => e.name)).toContain('im.rate_limit.wait');
  });

  test('a failed call ends its span with ERROR and the error class; disable() stops listening', async () => {
    const { exporter, instrumentation } = setup();
    active = instrumentation;
    const svc = await startFakeService({ handle: () => apiError(404, 'not_found') });
    const im = makeClient(svc.baseUrl, { transport });
    await expect(im.request(ops.usersGet, { username: 'ghost' })).rejects.toThrow();
    const call = exporter.getFinishedSpans().find((s) => s.name === 'users.get')!;
    expect(call.status.code).toBe(SpanStatusCode.ERROR);
    expect(call.attributes).toMatchObject({
      'error.type': 'NotFoundError',
      'im.error.code': 'not_found',
      'http.response.status_code': 404,
      'im.attempts': 1,
    });
    instrumentation.disable();
    exporter.reset();
    await expect(im.request(ops.usersGet, { username: 'ghost' })).rejects.toThrow();
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});
