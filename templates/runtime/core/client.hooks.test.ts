import { channel } from 'node:diagnostics_channel';
import { describe, expect, test } from 'vitest';
import {
  apiError,
  makeClient,
  ops,
  recordingLogger,
  SECRET,
  startFakeService,
  TOKEN_PREFIX,
} from '../test-support/fake-service.js';
import { ConfigError, RateLimitedError, ValidationError } from './errors.js';
import {
  IM_CHANNELS,
  type CallHooks,
  type ErrorView,
  type RequestView,
  type ResponseView,
  type RetryView,
} from './hooks.js';
import { clientOptionsFromEnv } from './from-env.js';

function recordingHooks(): { events: string[]; views: unknown[]; hooks: Required<CallHooks> } {
  const events: string[] = [];
  const views: unknown[] = [];
  return {
    events,
    views,
    hooks: {
      onRequest: (v: RequestView) => void (events.push(`request ${v.operationId} #${v.attempt}`), views.push(v)),
      onResponse: (v: ResponseView) => void (events.push(`response ${v.operationId} ${v.status}`), views.push(v)),
      onRetry: (v: RetryView) => void (events.push(`retry ${v.operationId} ${v.reason} ${v.waitMs}`), views.push(v)),
      onError: (v: ErrorView) => void (events.push(`error ${v.operationId} ${v.errorName} ${v.code}`), views.push(v)),
    },
  };
}

describe('hooks', () => {
  test('request, response, retry and error in order, with redacted frozen views that never hold the token or the secret', async () => {
    const svc = await startFakeService({
      handle: (_r, n) =>
        n === 1
          ? apiError(503, 'unavailable')
          : n === 2
            ? { status: 200, body: { ok: true } }
            : apiError(404, 'not_found'),
    });
    const { events, views, hooks } = recordingHooks();
    const im = makeClient(svc.baseUrl, { hooks });
    await im.request(ops.usersGet, { username: 'alice' });
    await expect(im.request(ops.usersList, { cursor: 'c-secretish' })).rejects.toThrow();
    expect(events).toEqual([
      'request app.token #1',
      'response app.token 200',
      'request users.get #1',
      'response users.get 503',
      'retry users.get status 0',
      'request users.get #2',
      'response users.get 200',
      'request users.list #1',
      'response users.list 404',
      'error users.list NotFoundError not_found',
    ]);
    const text = JSON.stringify(views);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(TOKEN_PREFIX);
    expect(text).not.toContain('c-secretish');
    expect(text).toContain('/users?cursor=***');
    for (const v of views) expect(Object.isFrozen(v)).toBe(true);
    const ok = views[6] as ResponseView;
    expect(ok).toMatchObject({
      operationId: 'users.get',
      method: 'GET',
      attempt: 2,
      status: 200,
      requestId: 'req-hdr-1',
      retryClass: 'Q',
      tokenExchange: false,
    });
    expect(ok.url).toBe(`${svc.baseUrl}/acme/chat/users/alice`);
    expect(ok.durationMs).toBeGreaterThanOrEqual(0);
  });

  test('a throwing or rejecting hook is logged and never breaks the call', async () => {
    const svc = await startFakeService();
    const { lines, logger } = recordingLogger();
    const im = makeClient(svc.baseUrl, {
      logger,
      hooks: {
        onRequest: () => {
          throw new Error(`boom with ${SECRET}`);
        },
        onResponse: async () => {
          throw new Error('async boom');
        },
      },
    });
    await expect(im.request(ops.usersGet, { username: 'a' })).resolves.toEqual({ ok: true });
    await new Promise((r) => setTimeout(r, 10));
    const warnings = lines.filter((l) => l.startsWith('warn'));
    expect(warnings.some((l) => /hooks\.onRequest threw during users\.get/.test(l))).toBe(true);
    expect(warnings.some((l) => /hooks\.onResponse threw .*async boom/.test(l))).toBe(true);
    expect(lines.join('\n')).not.toContain(SECRET);
  });

  test('429: onRetry says rate-limited with the Retry-After wait; per-call maxRetryAfterMs refuses a longer wait', async () => {
    const svc = await startFakeService({
      handle: (_r, n) =>
        n === 1
          ? apiError(429, 'rate_limited', undefined, { 'retry-after': '0' })
          : n === 2
            ? { status: 200, body: {} }
            : apiError(429, 'rate_limited', undefined, { 'retry-after': '3' }),
    });
    const { events, hooks } = recordingHooks();
    const im = makeClient(svc.baseUrl, { hooks });
    await im.request(ops.usersGet, { username: 'a' });
    expect(events).toContain('retry users.get rate-limited 0');
    const err = await im.request(ops.usersGet, { username: 'a' }, { maxRetryAfterMs: 1_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as Error).message).toMatch(/more than maxRetryAfterMs \(1000 ms\).*request option of this call/);
    await expect(im.request(ops.usersGet, { username: 'a' }, { maxRetryAfterMs: -1 })).rejects.toThrow(
      /requestOptions\.maxRetryAfterMs/,
    );
  });

  test('a call refused before sending reaches onError with 0 attempts', async () => {
    const svc = await startFakeService();
    const { events, hooks } = recordingHooks();
    const im = makeClient(svc.baseUrl, { hooks });
    await expect(im.request(ops.usersGet, {})).rejects.toBeInstanceOf(ValidationError);
    expect(events).toEqual(['error users.get ValidationError undefined']);
    expect(svc.requests).toHaveLength(0);
  });

  test('withOptions takes hooks of its own; bad hooks are refused naming the hook', async () => {
    const svc = await startFakeService();
    const { events, hooks } = recordingHooks();
    const base = makeClient(svc.baseUrl);
    await base.request(ops.usersGet, { username: 'a' });
    await base.withOptions({ hooks }).request(ops.usersGet, { username: 'a' });
    expect(events).toEqual(['request users.get #1', 'response users.get 200']);
    expect(() => makeClient(svc.baseUrl, { hooks: { onRequest: 'x' } as never })).toThrow(/hooks\.onRequest/);
    expect(() => makeClient(svc.baseUrl, { hooks: { onFinish: () => {} } as never })).toThrow(ConfigError);
  });
});

describe('diagnostics channels', () => {
  test('call:start, attempt:start/end, retry and call:end are published only while subscribed', async () => {
    const svc = await startFakeService({ handle: (_r, n) => (n === 1 ? { reset: true } : { status: 200, body: {} }) });
    const seen: string[] = [];
    const subs = Object.entries(IM_CHANNELS).map(([key, name]) => {
      const fn = (m: unknown): void => void seen.push(`${key} ${(m as { operationId: string }).operationId}`);
      channel(name).subscribe(fn);
      return () => channel(name).unsubscribe(fn);
    });
    const im = makeClient(svc.baseUrl);
    try {
      await im.request(ops.usersGet, { username: 'a' });
    } finally {
      for (const off of subs) off();
    }
    expect(seen).toEqual([
      'callStart users.get',
      'callStart app.token',
      'attemptStart app.token',
      'attemptEnd app.token',
      'callEnd app.token',
      'attemptStart users.get',
      'attemptEnd users.get',
      'retry users.get',
      'attemptStart users.get',
      'attemptEnd users.get',
      'callEnd users.get',
    ]);
    seen.length = 0;
    await im.request(ops.usersGet, { username: 'a' });
    expect(seen).toEqual([]);
  });
});

describe('fromEnv', () => {
  test('names every missing variable at once', () => {
    const err = (() => {
      try {
        clientOptionsFromEnv({}, { IM_APP_KEY: 'org#app' });
      } catch (e) {
        return e as Error;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(ConfigError);
    expect(err?.message).toMatch(/IM_BASE_URL, IM_CLIENT_ID, IM_CLIENT_SECRET are missing or empty/);
    expect(() => clientOptionsFromEnv({ clientSecret: 's' }, { IM_BASE_URL: ' ' })).toThrow(
      /IM_BASE_URL, IM_APP_KEY, IM_CLIENT_ID are missing/,
    );
  });
});
