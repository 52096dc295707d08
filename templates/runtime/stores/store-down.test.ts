/**
 * Issue 16 item 1, client side: a shared token store that stops answering never hangs calls.
 * Real parts: a private redis-server, stopped mid-run with SIGSTOP ("slow": connections stay
 * open, nothing answers) or killed ("down": node-redis reconnects and queues commands), and the
 * node-redis client through `fromNodeRedis`, as the docs show.
 */
import { createClient } from 'redis';
import { afterEach, describe, expect, it } from 'vitest';
import { startRedisServer, type RedisServerHandle } from '../../../test/fixtures/callbacks/redis-server.js';
import {
  apiError,
  makeClient,
  ops,
  recordingLogger,
  startFakeService,
  type FakeServiceOptions,
} from '../test-support/fake-service.js';
import { fromNodeRedis } from './redis-client.js';
import { RedisTokenStore } from './redis-token-store.js';
import { StoreTimeoutError, withStoreBudget } from './store-budget.js';

/** Settles with the call's outcome, or 'hung' after `ms` (so that a hang fails the test instead of timing it out). */
async function within<T>(ms: number, p: Promise<T>): Promise<{ outcome: T | unknown | 'hung'; tookMs: number }> {
  const started = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const outcome = await Promise.race([
    p.catch((e: unknown) => e),
    new Promise<'hung'>((r) => (timer = setTimeout(() => r('hung'), ms))),
  ]);
  clearTimeout(timer);
  return { outcome, tookMs: Date.now() - started };
}

describe('withStoreBudget', () => {
  it('rejects with StoreTimeoutError after the budget; a late rejection is not unhandled', async () => {
    let rejectLate!: (e: Error) => void;
    const never = new Promise<number>((_, reject) => (rejectLate = reject));
    const err = await withStoreBudget(never, 20, 'test store get').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreTimeoutError);
    expect((err as Error).message).toBe('test store get did not answer within 20 ms');
    rejectLate(new Error('late'));
    await expect(withStoreBudget(Promise.resolve(7), 20, 'x')).resolves.toBe(7);
  });
});

describe('RedisTokenStore over node-redis: Redis stops answering mid-run (issue 16 item 1)', () => {
  let server: RedisServerHandle | undefined;
  let redis: ReturnType<typeof createClient> | undefined;
  afterEach(async () => {
    server?.resume();
    redis?.destroy();
    await server?.stop();
    server = undefined;
    redis = undefined;
  });

  async function setup(handle?: FakeServiceOptions['handle']) {
    server = await startRedisServer();
    redis = createClient({ url: server.url, socket: { reconnectStrategy: () => 100 } });
    redis.on('error', () => undefined); // reconnect errors while the server is down
    await redis.connect();
    let clock = Date.now();
    const svc = await startFakeService({ expiresIn: 3600, ...(handle ? { handle } : {}) });
    const { lines, logger } = recordingLogger();
    const store = new RedisTokenStore({ client: fromNodeRedis(redis), commandTimeoutMs: 300 });
    const client = makeClient(svc.baseUrl, {
      tokenStore: store,
      logger,
      internals: { random: () => 0, now: () => clock },
    });
    await client.request(ops.usersGet, { username: 'warm' });
    expect(svc.exchanges).toHaveLength(1);
    return { svc, client, lines, expire: () => (clock += 2 * 3600_000) };
  }

  it('slow (SIGSTOP) after the token expired: the call exchanges locally and settles, with a log line', async () => {
    // Before: the call never settled (store.get queued in node-redis, no budget): 'hung' after 8 s.
    const { svc, client, lines, expire } = await setup();
    server!.pause();
    expire();
    const { outcome, tookMs } = await within(8_000, client.request(ops.usersGet, { username: 'a' }));
    expect(outcome).toEqual({ ok: true });
    expect(tookMs).toBeLessThan(3_000); // lock GET, get and set: 300 ms each at most
    expect(svc.exchanges).toHaveLength(2);
    const log = lines.join('\n');
    expect(log).toMatch(/token store get failed, exchanging instead: StoreTimeoutError/);
    expect(log).not.toMatch(/tok-LEAKCHECK|sk-LEAKCHECK/);
    console.info(`[store slow] call after expiry settled in ${tookMs} ms; exchanges ${svc.exchanges.length}`);
    // The next calls use the in-memory token: no store call, no wait.
    const next = await within(8_000, client.request(ops.usersGet, { username: 'b' }));
    expect(next.outcome).toEqual({ ok: true });
    expect(next.tookMs).toBeLessThan(500);
    expect(svc.exchanges).toHaveLength(2);
  });

  it('slow (SIGSTOP) and a 401: deleteIf is given up, the call is re-exchanged and resent', async () => {
    // Before: invalidate() awaited deleteIf forever: the call hung.
    const { svc, client } = await setup((_req, n) =>
      n === 2 ? apiError(401, 'unauthenticated') : { status: 200, body: { ok: true } },
    );
    server!.pause();
    const { outcome, tookMs } = await within(8_000, client.request(ops.usersGet, { username: 'a' }));
    expect(outcome).toEqual({ ok: true });
    expect(svc.exchanges).toHaveLength(2);
    expect(svc.calls).toHaveLength(3);
    expect(tookMs).toBeLessThan(3_000);
    console.info(`[store slow] 401 + re-exchange settled in ${tookMs} ms; exchanges ${svc.exchanges.length}`);
  });

  it('down (killed): node-redis queues the commands; the call still settles and exchanges locally', async () => {
    // Before: the offline queue held store.get until Redis came back: 'hung'.
    const { svc, client, lines, expire } = await setup();
    await server!.stop();
    expire();
    const { outcome, tookMs } = await within(8_000, client.request(ops.usersGet, { username: 'a' }));
    expect(outcome).toEqual({ ok: true });
    expect(tookMs).toBeLessThan(3_000);
    expect(svc.exchanges).toHaveLength(2);
    expect(lines.join('\n')).toMatch(/token store (get|set) failed/);
    console.info(`[store down] call after expiry settled in ${tookMs} ms; exchanges ${svc.exchanges.length}`);
  });
});

describe('a custom token store that never answers (any store, not only Redis)', () => {
  it('get/set are given up after tokenStoreTimeoutMs; a 401 deleteIf too; the calls settle', async () => {
    // Before: the first call waited for store.get forever.
    const never = <T>(): Promise<T> => new Promise<T>(() => undefined);
    const store = { get: never, set: never, delete: never, deleteIf: never } as never;
    const svc = await startFakeService({
      handle: (_r, n) => (n === 2 ? apiError(401, 'unauthenticated') : { status: 200, body: { ok: true } }),
    });
    const { lines, logger } = recordingLogger();
    const client = makeClient(svc.baseUrl, { tokenStore: store, tokenStoreTimeoutMs: 100, logger });
    const first = await within(5_000, client.request(ops.usersGet, { username: 'a' }));
    expect(first.outcome).toEqual({ ok: true });
    const second = await within(5_000, client.request(ops.usersGet, { username: 'b' })); // 401, deleteIf, re-exchange
    expect(second.outcome).toEqual({ ok: true });
    expect(svc.exchanges).toHaveLength(2);
    expect(first.tookMs + second.tookMs).toBeLessThan(2_000);
    const log = lines.join('\n');
    expect(log).toMatch(/token store get did not answer within 100 ms/);
    expect(log).toMatch(/token store deleteIf did not answer within 100 ms/);
  });
});

describe('issue 28 item 8: every store failure is an ImError (StoreError / StoreTimeoutError)', () => {
  it('fleetMetrics() on a stalled Redis, and each Redis store on a closed client, reject with ImErrors naming the call', async () => {
    const { ImError, StoreError } = await import('../core/errors.js');
    const { RedisQuotaStore } = await import('./redis-quota-store.js');
    const { RedisDedupeStore } = await import('./dedupe-store.js');
    const { RedisInbox } = await import('../callbacks/inbox/redis-inbox.js');
    const own = await startRedisServer();
    const redis = createClient({ url: own.url, socket: { reconnectStrategy: () => 100 } });
    redis.on('error', () => undefined);
    await redis.connect();
    const svc = await startFakeService({});
    try {
      const quotaStore = new RedisQuotaStore({ client: fromNodeRedis(redis), commandTimeoutMs: 100 });
      const im = makeClient(svc.baseUrl, { quotaStore });
      own.pause();
      const timedOut = await im.rateLimit.fleetMetrics().catch((e: unknown) => e);
      own.resume();
      expect(timedOut).toBeInstanceOf(StoreTimeoutError);
      expect(timedOut).toBeInstanceOf(StoreError);
      expect(timedOut).toBeInstanceOf(ImError);
      expect((timedOut as StoreTimeoutError).what).toMatch(/^Redis /);
      // a closed client: node-redis throws its own ClientClosedError; the stores hand out StoreErrors
      await redis.close();
      const failures = await Promise.all([
        new RedisQuotaStore({ client: fromNodeRedis(redis) }).counters('k').catch((e: unknown) => e),
        new RedisTokenStore({ client: fromNodeRedis(redis) }).get('k').catch((e: unknown) => e),
        new RedisDedupeStore({ client: fromNodeRedis(redis) }).claim('k', 1000).catch((e: unknown) => e),
        new RedisInbox({ client: fromNodeRedis(redis), durability: 'off' }).stats().catch((e: unknown) => e),
        new RedisInbox({ client: fromNodeRedis(redis), durability: 'off' })
          .append([{ id: 'e1', type: 't', data: {} } as never])
          .catch((e: unknown) => e),
      ]);
      for (const err of failures) {
        expect(err).toBeInstanceOf(StoreError);
        expect(err).toBeInstanceOf(ImError);
        expect((err as Error).message).toMatch(/^Redis \w+ failed \(.*closed/i);
        expect((err as Error).cause).toBeInstanceOf(Error);
      }
    } finally {
      await svc.close();
      own.resume();
      await own.stop();
    }
  });
});
