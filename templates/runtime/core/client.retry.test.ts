import { describe, expect, test } from 'vitest';
import { apiError, makeClient, ops, startFakeService, type Reply } from '../test-support/fake-service.js';
import type { OperationSpec } from '../operation.js';
import {
  AbortError,
  AlreadyExistsError,
  ApiError,
  ConnectionError,
  NotFoundError,
  RateLimitPausedError,
  RateLimitedError,
  TimeoutError,
  ValidationError,
} from './errors.js';

type Fault = 'reset' | 'timeout' | '503';
const faultReply: Record<Fault, Reply> = {
  reset: { reset: true },
  timeout: { hang: true },
  '503': apiError(503, 'unavailable'),
};
const faultError: Record<Fault, unknown> = { reset: ConnectionError, timeout: TimeoutError, '503': ApiError };

const classes: Array<[string, OperationSpec, Record<string, unknown>, number]> = [
  ['Q', ops.usersGet, { username: 'a' }, 3],
  ['I', ops.usersUpdate, { username: 'a', nickname: 'n' }, 3],
  ['U', ops.usersCreate, { username: 'a' }, 3],
  ['D', ops.messagesSend, { to: 'b', body: 'hi' }, 3],
  ['N', ops.setPassword, { username: 'a', password: 'pw-123456' }, 1],
  ['D→N (online_only)', ops.messagesSend, { to: 'b', online_only: true }, 1],
  ['D→N (priority low)', ops.chatroomsSend, { room_id: 'r', priority: 'low' }, 1],
  ['D (priority high)', ops.chatroomsSend, { room_id: 'r', priority: 'high' }, 3],
  ['I→N (actions without version)', ops.moderationDecide, { item_id: 'i', actions: ['ban'] }, 1],
  ['I (actions with version)', ops.moderationDecide, { item_id: 'i', actions: ['ban'], version: 7 }, 3],
];

describe.each(['reset', 'timeout', '503'] as const)('fault %s on every attempt (maxRetries 2)', (fault) => {
  test.each(classes)('class %s: the documented number of requests seen', async (_name, op, params, want) => {
    const svc = await startFakeService({ handle: () => faultReply[fault] });
    // A short attempt timeout only where the fault is a hang: a reset or a 503 that is slow to
    // arrive on a busy machine must not turn into a timeout (a different error, other resends).
    const client = makeClient(svc.baseUrl, { timeoutMs: fault === 'timeout' ? 80 : 10_000 });
    const err = await client.request(op, params).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(faultError[fault]);
    expect(svc.calls).toHaveLength(want);
    expect((err as { attempts: number }).attempts).toBe(want);
    if (want === 1) expect((err as Error).message).toMatch(/Not resent: .* class N/);
    if (op.dedupeKey) {
      const keys = new Set(svc.calls.map((c) => c.json?.client_msg_id));
      expect(keys.size).toBe(1);
      expect([...keys][0]).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});

describe('resends that succeed', () => {
  test('D: two failures then success; all three attempts carry the same generated key', async () => {
    const svc = await startFakeService({
      handle: (_r, n) =>
        n === 1 ? { reset: true } : n === 2 ? apiError(502, 'bad_gateway') : { status: 200, body: { id: 'm1' } },
    });
    const params = { to: 'b', body: 'hi' };
    const data = await makeClient(svc.baseUrl).request(ops.messagesSend, params);
    expect(data).toEqual({ id: 'm1' });
    expect(svc.calls).toHaveLength(3);
    expect(new Set(svc.calls.map((c) => c.json?.client_msg_id)).size).toBe(1);
    expect(params).toEqual({ to: 'b', body: 'hi' }); // the caller's object is not changed
  });

  test("D: the caller's own client_msg_id and the idempotencyKey option are used", async () => {
    const svc = await startFakeService({
      handle: (_r, n) => (n % 2 === 1 ? apiError(500, 'internal') : { status: 200, body: {} }),
    });
    const client = makeClient(svc.baseUrl);
    await client.request(ops.messagesSend, { to: 'b', client_msg_id: 'mine-1' });
    await client.request(ops.messagesSend, { to: 'b' }, { idempotencyKey: 'opt-2' });
    expect(svc.calls.map((c) => c.json?.client_msg_id)).toEqual(['mine-1', 'mine-1', 'opt-2', 'opt-2']);
    await expect(
      client.request(ops.messagesSend, { client_msg_id: 'x' }, { idempotencyKey: 'y' }),
    ).rejects.toBeInstanceOf(ValidationError);
  });

  test('D with a header key: same header on every resend', async () => {
    const svc = await startFakeService({ handle: (_r, n) => (n < 3 ? { reset: true } : { status: 201, body: {} }) });
    await makeClient(svc.baseUrl).request(ops.headerKeyed, { a: 1 });
    const keys = svc.calls.map((c) => c.headers['idempotency-key']);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('per-call maxRetries overrides the client default', async () => {
    const svc = await startFakeService({ handle: () => apiError(503, 'unavailable') });
    await expect(
      makeClient(svc.baseUrl).request(ops.usersGet, { username: 'a' }, { maxRetries: 0 }),
    ).rejects.toBeInstanceOf(ApiError);
    expect(svc.calls).toHaveLength(1);
  });

  test('connection refused is a ConnectionError, resent for Q', async () => {
    const svc = await startFakeService();
    const client = makeClient(svc.baseUrl);
    await client.request(ops.usersGet, { username: 'a' }); // token cached
    await svc.close();
    const err = await client.request(ops.usersGet, { username: 'a' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect((err as ConnectionError).attempts).toBe(3);
    expect((err as ConnectionError).errorCode).toBe('ECONNREFUSED');
  });

  test('the token exchange itself is resent after a 503', async () => {
    const svc = await startFakeService({
      token: (_r, n) =>
        n === 1
          ? apiError(503, 'unavailable')
          : { status: 200, body: { access_token: 'tok-LEAKCHECK-appToken-z', expires_in: 3600 } },
    });
    await makeClient(svc.baseUrl).request(ops.usersGet, { username: 'a' });
    expect(svc.exchanges).toHaveLength(2);
  });
});

describe('echo of an earlier attempt', () => {
  test('U: already_exists after a resend is flagged', async () => {
    const svc = await startFakeService({
      handle: (_r, n) => (n === 1 ? { reset: true } : apiError(409, 'already_exists')),
    });
    const err = await makeClient(svc.baseUrl)
      .request(ops.usersCreate, { username: 'a' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AlreadyExistsError);
    expect((err as AlreadyExistsError).mayBeEchoOfEarlierAttempt).toBe(true);
    expect((err as Error).message).toMatch(/earlier attempt/);
  });

  test('I: not_found after a 503 is flagged; a first-attempt not_found is not', async () => {
    const svc = await startFakeService({
      handle: (_r, n) => (n === 1 ? apiError(503, 'unavailable') : apiError(404, 'not_found')),
    });
    const client = makeClient(svc.baseUrl);
    const resent = await client.request(ops.usersUpdate, { username: 'a' }).catch((e: unknown) => e);
    expect(resent).toBeInstanceOf(NotFoundError);
    expect((resent as NotFoundError).mayBeEchoOfEarlierAttempt).toBe(true);
    const direct = await client.request(ops.usersUpdate, { username: 'a' }).catch((e: unknown) => e);
    expect((direct as NotFoundError).mayBeEchoOfEarlierAttempt).toBe(false);
  });
});

function fakeClock(start = Date.parse('2030-01-01T00:00:00Z')) {
  const clock = {
    t: start,
    waits: [] as number[],
    now: () => clock.t,
    sleep: async (ms: number, signal?: AbortSignal) => {
      if (signal?.aborted) throw signal.reason;
      clock.waits.push(ms);
      clock.t += ms;
    },
  };
  return clock;
}

describe('429 rate_limited', () => {
  test('Retry-After in seconds; even class N is resent (it was not executed)', async () => {
    const clock = fakeClock();
    const svc = await startFakeService({
      handle: (_r, n) =>
        n === 1 ? apiError(429, 'rate_limited', undefined, { 'retry-after': '2' }) : { status: 200, body: { ok: 1 } },
    });
    const client = makeClient(svc.baseUrl, { internals: { random: () => 0, now: clock.now, sleep: clock.sleep } });
    await expect(client.request(ops.setPassword, { username: 'a', password: 'pw-123456' })).resolves.toEqual({ ok: 1 });
    expect(svc.calls).toHaveLength(2);
    expect(clock.waits).toEqual([2000]);
  });

  test('Retry-After as an HTTP-date', async () => {
    const clock = fakeClock();
    const svc = await startFakeService({
      handle: (_r, n) =>
        n === 1
          ? apiError(429, 'rate_limited', undefined, { 'retry-after': 'Tue, 01 Jan 2030 00:00:05 GMT' })
          : { status: 200, body: {} },
    });
    const client = makeClient(svc.baseUrl, { internals: { random: () => 0, now: clock.now, sleep: clock.sleep } });
    await client.request(ops.usersGet, { username: 'a' });
    expect(clock.waits).toEqual([5000]);
  });

  test('N: a retry count covers only 429s; exhausted → RateLimitedError with the wait', async () => {
    const clock = fakeClock();
    const svc = await startFakeService({
      handle: () => apiError(429, 'rate_limited', undefined, { 'retry-after': '1' }),
    });
    const client = makeClient(svc.baseUrl, { internals: { random: () => 0, now: clock.now, sleep: clock.sleep } });
    const err = await client
      .request(ops.setPassword, { username: 'a', password: 'pw-123456' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).retryAfterMs).toBe(1000);
    expect(svc.calls).toHaveLength(3);
  });

  test('Retry-After over maxRetryAfterMs fails at once, never shortened; later calls are not sent during the pause', async () => {
    const clock = fakeClock();
    const svc = await startFakeService({
      handle: () => apiError(429, 'rate_limited', undefined, { 'retry-after': '120' }),
    });
    const client = makeClient(svc.baseUrl, {
      maxRetryAfterMs: 60_000,
      internals: { random: () => 0, now: clock.now, sleep: clock.sleep },
    });
    const err = await client.request(ops.usersGet, { username: 'a' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).retryAfterMs).toBe(120_000);
    expect((err as Error).message).toMatch(/maxRetryAfterMs/);
    expect(clock.waits).toEqual([]);
    const later = await client.request(ops.usersGet, { username: 'b' }).catch((e: unknown) => e);
    // Not sent: a RateLimitPausedError (no status: the service did not answer this call).
    expect(later).toBeInstanceOf(RateLimitPausedError);
    expect(later).not.toBeInstanceOf(ApiError);
    expect(later).toMatchObject({ code: 'rate_limit_paused', sent: false, attempts: 0, retryAfterMs: 120_000 });
    expect((later as { status?: unknown }).status).toBeUndefined();
    expect(svc.calls).toHaveLength(1);
  });

  test('a 429 pauses every call of the client (real time, Retry-After 1)', async () => {
    let limitedAt = 0;
    const svc = await startFakeService({
      handle: (r) => {
        if (r.path.endsWith('/a') && limitedAt === 0) {
          limitedAt = Date.now();
          return apiError(429, 'rate_limited', undefined, { 'retry-after': '1' });
        }
        return { status: 200, body: {} };
      },
    });
    const client = makeClient(svc.baseUrl);
    await client.request(ops.usersGet, { username: 'warm' });
    const a = client.request(ops.usersGet, { username: 'a' });
    while (limitedAt === 0) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 50));
    const b = client.request(ops.usersGet, { username: 'b' });
    await Promise.all([a, b]);
    const bSeen = svc.calls.find((c) => c.path.endsWith('/b'));
    const aRetry = svc.calls.filter((c) => c.path.endsWith('/a'))[1];
    expect(bSeen!.at - limitedAt).toBeGreaterThanOrEqual(950);
    expect(aRetry!.at - limitedAt).toBeGreaterThanOrEqual(950);
  });
});

describe('abort, timeout and deadline', () => {
  test('abort during a backoff wait ends the call at once', async () => {
    const svc = await startFakeService({ handle: () => apiError(503, 'unavailable') });
    const client = makeClient(svc.baseUrl, { internals: { random: () => 0.99 } }); // first backoff ≈ 495 ms
    const ac = new AbortController();
    const started = Date.now();
    const p = client.request(ops.usersGet, { username: 'a' }, { signal: ac.signal }).catch((e: unknown) => e);
    while (svc.calls.length === 0) await new Promise((r) => setTimeout(r, 5));
    ac.abort(new Error('caller gave up'));
    const err = await p;
    expect(err).toBeInstanceOf(AbortError);
    expect(Date.now() - started).toBeLessThan(400);
    expect(svc.calls).toHaveLength(1);
  });

  test('abort during the 429 gate wait', async () => {
    const svc = await startFakeService({
      handle: () => apiError(429, 'rate_limited', undefined, { 'retry-after': '5' }),
    });
    const client = makeClient(svc.baseUrl);
    const ac = new AbortController();
    const p = client.request(ops.usersGet, { username: 'a' }, { signal: ac.signal }).catch((e: unknown) => e);
    while (svc.calls.length === 0) await new Promise((r) => setTimeout(r, 5));
    setTimeout(() => ac.abort(), 20);
    expect(await p).toBeInstanceOf(AbortError);
    expect(svc.calls).toHaveLength(1);
  });

  test('an already aborted signal sends nothing', async () => {
    const svc = await startFakeService();
    const err = await makeClient(svc.baseUrl)
      .request(ops.usersGet, { username: 'a' }, { signal: AbortSignal.abort() })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AbortError);
    await new Promise((r) => setTimeout(r, 50));
    expect(svc.requests).toHaveLength(0); // not even a token exchange
  });

  test('abort while a request is in flight', async () => {
    const svc = await startFakeService({ handle: () => ({ hang: true }) });
    const client = makeClient(svc.baseUrl);
    const ac = new AbortController();
    const p = client.request(ops.usersGet, { username: 'a' }, { signal: ac.signal }).catch((e: unknown) => e);
    while (svc.calls.length === 0) await new Promise((r) => setTimeout(r, 5));
    ac.abort();
    expect(await p).toBeInstanceOf(AbortError);
    expect(svc.calls).toHaveLength(1);
  });

  test('the overall deadline bounds all attempts and waits', async () => {
    const svc = await startFakeService({ handle: () => ({ hang: true }) });
    const client = makeClient(svc.baseUrl, { timeoutMs: 5_000 });
    const started = Date.now();
    const err = await client.request(ops.usersGet, { username: 'a' }, { deadlineMs: 250 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect((err as TimeoutError).kind).toBe('deadline');
    expect(Date.now() - started).toBeLessThan(4_500); // the first attempt alone would wait 5 s
  });

  test('a per-attempt timeout is a TimeoutError of kind attempt', async () => {
    const svc = await startFakeService({ handle: () => ({ status: 200, body: {}, delayMs: 300 }) });
    const err = await makeClient(svc.baseUrl, { timeoutMs: 50, maxRetries: 0 })
      .request(ops.usersGet, { username: 'a' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect((err as TimeoutError).kind).toBe('attempt');
  });
});

describe('bad input is refused before anything is sent', () => {
  test.each(['.', '..', '', 'a\u0007b'])('path param %j', async (username) => {
    const svc = await startFakeService();
    const err = await makeClient(svc.baseUrl)
      .request(ops.usersGet, { username })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(svc.requests).toHaveLength(0);
  });

  test('a generated validator runs before the token is fetched; validate:false skips it', async () => {
    const svc = await startFakeService();
    const op: OperationSpec = {
      ...ops.usersCreate,
      loadValidator: async () => ({
        validate: (p) =>
          (p as Record<string, unknown>).username
            ? null
            : [{ pointer: '/username', rule: 'required', message: 'is required' }],
      }),
    };
    const client = makeClient(svc.baseUrl);
    const err = await client.request(op, {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).issues).toEqual([
      { pointer: '/username', rule: 'required', message: 'is required' },
    ]);
    expect((err as Error).message).toContain('users.create');
    expect(svc.requests).toHaveLength(0);
    await client.request(op, {}, { validate: false });
    expect(svc.calls).toHaveLength(1);
  });

  test('issues on secret-looking fields never echo their message', async () => {
    const op: OperationSpec = {
      ...ops.setPassword,
      loadValidator: async () => ({
        validate: () => [{ pointer: '/password', rule: 'minLength', message: 'hunter2 is too short' }],
      }),
    };
    const svc = await startFakeService();
    const err = await makeClient(svc.baseUrl)
      .request(op, { username: 'a', password: 'hunter2' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(JSON.stringify(err)).not.toContain('hunter2');
    expect((err as Error).message).not.toContain('hunter2');
    expect((err as Error).message).toContain('/password');
  });
});
