/**
 * Issue 20: one behaviour suite for both quota stores (MemoryQuotaStore; RedisQuotaStore on a
 * private real redis-server through node-redis), then Redis stopped mid-run under a client with
 * a shared rate limit: it degrades to per-process limiting and gate, never a hang. Last,
 * `evalScript` (the EVALSHA path the quota store shares with the Redis inbox) on the same server.
 */
import { describe, expect, it } from 'vitest';
import { createClient } from 'redis';
import { redisServerPerFile } from '../../../test/fixtures/callbacks/redis-per-file.js';
import { startRedisServer } from '../../../test/fixtures/callbacks/redis-server.js';
import { apiError, makeClient, ops, recordingLogger, startFakeService } from '../test-support/fake-service.js';
import { evalScript, fromNodeRedis } from './redis-client.js';
import { MemoryQuotaStore, type QuotaStore } from './quota-store.js';
import { RedisQuotaStore } from './redis-quota-store.js';

const redisServer = redisServerPerFile();

let n = 0;
const fresh = (): string => `t${++n}-${Date.now()}`;

describe.each([
  ['MemoryQuotaStore', () => new MemoryQuotaStore()],
  ['RedisQuotaStore', () => new RedisQuotaStore({ client: fromNodeRedis(redisServer.client) })],
] as Array<[string, () => QuotaStore]>)('%s', (_name, make) => {
  it('hands out slots on one schedule: burst at once, then one per interval; past maxWaitMs nothing is taken', async () => {
    const store = make();
    const key = fresh();
    // One per second: slots far apart compared with a call's time, even on a loaded machine
    // (the test never sleeps; reserve only says how long to wait).
    const rate = { perSecond: 1, burst: 2 };
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) waits.push((await store.reserve(key, rate, 10_000, `${key}:gate`)).waitMs);
    expect(waits.slice(0, 2)).toEqual([0, 0]);
    // ~1, ~2, ~3 s, less the time the calls took
    waits.slice(2).forEach((w, i) => {
      expect(w).toBeGreaterThan((i + 1) * 1_000 - 500);
      expect(w).toBeLessThanOrEqual((i + 1) * 1_000);
    });
    const refused = await store.reserve(key, rate, 50, `${key}:gate`);
    expect(refused.reserved).toBe(false);
    expect(refused.waitMs).toBeGreaterThan(3_500 - 500);
    const next = await store.reserve(key, rate, 10_000, `${key}:gate`);
    expect(next.waitMs).toBeLessThanOrEqual(refused.waitMs + 1); // the refusal took no slot
  });

  it('the gate: closed for ms, never shortened, read by reserve and sync, opened by openGate', async () => {
    const store = make();
    const key = fresh();
    const gate = `${key}:gate`;
    expect(await store.sync(key, gate)).toBe(0);
    // 20 s and a 5 s margin: far above what the calls take even on a loaded machine (nothing waits)
    await store.closeGate(gate, 20_000);
    await store.closeGate(gate, 5_000); // shorter: ignored
    const left = await store.sync(key, gate);
    expect(left).toBeGreaterThan(15_000);
    expect(left).toBeLessThanOrEqual(20_000);
    expect((await store.reserve(key, { perSecond: 100, burst: 1 }, 1_000, gate)).gateMs).toBeGreaterThan(15_000);
    await store.openGate(gate);
    expect(await store.sync(key, gate)).toBe(0);
  });

  it('adds the counters of every writer', async () => {
    const store = make();
    const key = fresh();
    await store.sync(key, `${key}:gate`, { sent: 3, rateLimited: 1 });
    await store.reserve(key, { perSecond: 100, burst: 5 }, 1_000, `${key}:gate`, {
      sent: 2,
      waited: 1,
      waitedMs: 40.4,
      throttled: 1,
    });
    expect(await store.counters(key)).toEqual({ sent: 5, waited: 1, waitedMs: 40, throttled: 1, rateLimited: 1 });
  });
});

describe('RedisQuotaStore specifics', () => {
  it('schedules by Redis time: two stores (two processes) draw from one schedule', async () => {
    const a = new RedisQuotaStore({ client: fromNodeRedis(redisServer.client) });
    const b = new RedisQuotaStore({ client: fromNodeRedis(redisServer.client) });
    const key = fresh();
    const rate = { perSecond: 2, burst: 1 };
    const waits = [];
    for (let i = 0; i < 6; i++) waits.push((await (i % 2 ? a : b).reserve(key, rate, 10_000, `${key}:gate`)).waitMs);
    expect(waits[0]).toBe(0);
    expect(waits[5]).toBeGreaterThan(2_000); // 5 intervals of 500 ms, not 2.5 per store (1.25 s)
  });

  it('reloads its script after SCRIPT FLUSH (a restarted Redis)', async () => {
    const store = new RedisQuotaStore({ client: fromNodeRedis(redisServer.client) });
    const key = fresh();
    await store.sync(key, `${key}:gate`);
    await redisServer.client.scriptFlush();
    await expect(store.sync(key, `${key}:gate`, { sent: 1 })).resolves.toBe(0);
    expect((await store.counters(key)).sent).toBe(1);
  });
});

describe('the fleet gate through Redis (two clients with their own stores stand for two processes)', () => {
  it("a 429 to one closes the other's gate within the read interval; both send again together", async () => {
    let refuse = true;
    const svc = await startFakeService({
      handle: (req) =>
        refuse && req.path.endsWith('/first')
          ? ((refuse = false), apiError(429, 'rate_limited', undefined, { 'retry-after': '1' }))
          : { status: 200, body: {} },
    });
    const a = makeClient(svc.baseUrl, {
      quotaStore: new RedisQuotaStore({ client: fromNodeRedis(redisServer.client) }),
      appKey: 'gate#app',
    });
    const b = makeClient(svc.baseUrl, {
      quotaStore: new RedisQuotaStore({ client: fromNodeRedis(redisServer.client) }),
      appKey: 'gate#app',
      clientId: 'client-2',
    });
    await Promise.all([
      a.request(ops.usersGet, { username: 'warm-a' }),
      b.request(ops.usersGet, { username: 'warm-b' }),
    ]);
    const first = a.request(ops.usersGet, { username: 'first' });
    await new Promise((r) => setTimeout(r, 150));
    // b reads the fleet gate in the background (never on a call's path): a call may go out before the read lands
    await b.request(ops.usersGet, { username: 'b-read' });
    await new Promise((r) => setTimeout(r, 50));
    expect(b.rateLimit.metrics.gate).toBe('closed');
    const started = Date.now();
    await b.request(ops.usersGet, { username: 'b-after' });
    const bWaited = Date.now() - started;
    await first;
    expect(bWaited).toBeGreaterThan(500);
    const retry = svc.calls.filter((c) => c.path.endsWith('/first'))[1]!.at;
    const bAfter = svc.calls.find((c) => c.path.endsWith('/b-after'))!.at;
    // Released together by the gate (a second after the 429), not one after the other: margin for load.
    expect(Math.abs(bAfter - retry)).toBeLessThan(400);
    const fleet = (await b.rateLimit.fleetMetrics())!;
    await a.rateLimit.fleetMetrics();
    expect((await b.rateLimit.fleetMetrics())!.rateLimited).toBe(1);
    expect(fleet.sent).toBeGreaterThanOrEqual(b.rateLimit.metrics.sent);
  });
});

describe('Redis stopped mid-run (issue 20)', () => {
  it('calls go on, limited per process; the 429 gate stays local; no hang; back to shared when Redis answers', async () => {
    const own = await startRedisServer();
    const client = createClient({ url: own.url, socket: { reconnectStrategy: () => 50 } });
    client.on('error', () => undefined);
    await client.connect();
    let refuseNext = false;
    const svc = await startFakeService({
      handle: () =>
        refuseNext
          ? ((refuseNext = false), apiError(429, 'rate_limited', undefined, { 'retry-after': '1' }))
          : { status: 200, body: {} },
    });
    const { lines, logger } = recordingLogger();
    const quotaStore = new RedisQuotaStore({ client: fromNodeRedis(client), commandTimeoutMs: 100 });
    const im = makeClient(svc.baseUrl, { quotaStore, rateLimit: { perSecond: 100, fallbackPerSecond: 50 }, logger });
    try {
      await Promise.all(Array.from({ length: 20 }, (_, i) => im.request(ops.usersGet, { username: `a${i}` })));
      expect(im.rateLimit.metrics.limiter).toEqual({ perSecond: 100, shared: true });
      own.pause(); // SIGSTOP: connections stay open, nothing answers (the worst case: no error, only silence)
      const started = Date.now();
      const during = await Promise.allSettled(
        Array.from({ length: 40 }, (_, i) => im.request(ops.usersGet, { username: `b${i}` }, { deadlineMs: 5_000 })),
      );
      const took = Date.now() - started;
      expect(during.every((r) => r.status === 'fulfilled')).toBe(true);
      // 40 calls at the fallback 50/s (~0.8 s) plus the budget of the failed Redis command
      expect(took).toBeLessThan(3_000);
      expect(im.rateLimit.metrics.limiter).toEqual({ perSecond: 50, shared: false });
      expect(
        lines.some((l) =>
          /quota store failed \(StoreTimeoutError: Redis EVALSHA did not answer within 100 ms\)/.test(l),
        ),
      ).toBe(true);
      // a 429 while the store is gone still closes this client's gate
      refuseNext = true;
      const t0 = Date.now();
      await im.request(ops.usersGet, { username: 'limited' });
      expect(Date.now() - t0).toBeGreaterThan(900);
      expect(im.rateLimit.metrics.rateLimited).toBe(1);
      own.resume();
      await new Promise((r) => setTimeout(r, 1_100)); // STORE_RETRY_MS
      await Promise.all(Array.from({ length: 5 }, (_, i) => im.request(ops.usersGet, { username: `c${i}` })));
      expect(im.rateLimit.metrics.limiter).toEqual({ perSecond: 100, shared: true });
      // killed for good while 30 calls are under way: they and later ones all finish, no hang
      const afterKill = Date.now();
      const inFlight = Promise.allSettled(
        Array.from({ length: 30 }, (_, i) => im.request(ops.usersGet, { username: `d${i}` })),
      );
      await new Promise((r) => setTimeout(r, 50));
      await own.stop();
      const killed = await inFlight;
      await Promise.all(Array.from({ length: 10 }, (_, i) => im.request(ops.usersGet, { username: `e${i}` })));
      expect(killed.every((r) => r.status === 'fulfilled')).toBe(true);
      expect(Date.now() - afterKill).toBeLessThan(4_000);
      expect(im.rateLimit.metrics.storeFailures).toBeGreaterThanOrEqual(2);
      expect(lines.join('\n')).not.toContain('LEAKCHECK');
    } finally {
      await client.disconnect().catch(() => undefined);
      await own.stop();
    }
  }, 20_000);
});

describe("issue 28 item 3: a 429 to a token exchange pauses that host's exchanges, never the fleet's calls", () => {
  it("host A's exchange answered 429 (Retry-After 1800): host B's calls go on, A's other processes do not exchange, a REST 429 still closes the fleet gate", async () => {
    let refuseExchange = true;
    let refuseCall = false;
    const svc = await startFakeService({
      token: (_req, n) =>
        refuseExchange
          ? ((refuseExchange = false), apiError(429, 'rate_limited', undefined, { 'retry-after': '1800' }))
          : { status: 200, body: { access_token: `tok-${n}`, expires_in: 3600 } },
      handle: () =>
        refuseCall
          ? ((refuseCall = false), apiError(429, 'rate_limited', undefined, { 'retry-after': '1' }))
          : { status: 200, body: {} },
    });
    const shared = (host: string) =>
      makeClient(svc.baseUrl, {
        quotaStore: new RedisQuotaStore({ client: fromNodeRedis(redisServer.client), prefix: `x28-${n}:` }),
        internals: { hostName: host },
      });
    n++;
    const hostB = shared('host-b');
    refuseExchange = false;
    await hostB.request(ops.usersGet, { username: 'warm' }); // B holds a valid App Token
    refuseExchange = true;
    const hostA = shared('host-a');
    const first = await hostA.request(ops.usersGet, { username: 'a' }).catch((e: unknown) => e);
    expect((first as { status?: number }).status).toBe(429); // A's exchange: Retry-After 1800 s, over maxRetryAfterMs
    await new Promise((r) => setTimeout(r, 150)); // past the fleet gate's read interval (GATE_CACHE_MS)
    // Before: B's next call failed unsent with RateLimitPausedError (… 1799409 ms): the app-wide gate was closed.
    const exchangesBefore = svc.exchanges.length;
    await expect(hostB.request(ops.usersGet, { username: 'b' })).resolves.toBeDefined(); // reads the fleet gate in the background
    await new Promise((r) => setTimeout(r, 150));
    const second = await hostB.request(ops.usersGet, { username: 'b1' }).then(
      () => 'sent',
      (e: Error) => e.message,
    );
    expect(second).toBe('sent');
    expect(hostB.rateLimit.remainingMs).toBe(0);
    // another process of host A (its own client, the same store) does not send an exchange the service would refuse
    const hostA2 = shared('host-a');
    const refused = await hostA2.request(ops.usersGet, { username: 'a2' }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ name: 'RateLimitPausedError', gate: 'exchange', sent: false });
    expect((refused as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(1_700_000);
    expect(svc.exchanges.length).toBe(exchangesBefore);
    // host C (another IP) exchanges as usual
    const hostC = shared('host-c');
    await expect(hostC.request(ops.usersGet, { username: 'c' })).resolves.toBeDefined();
    // a 429 to a REST call keeps closing the application's gate for every process
    refuseCall = true;
    const b2 = hostB.request(ops.usersGet, { username: 'b2' });
    await new Promise((r) => setTimeout(r, 300));
    await hostC.request(ops.usersGet, { username: 'c2' }); // starts the read of the fleet gate
    await new Promise((r) => setTimeout(r, 100));
    await hostC.request(ops.usersGet, { username: 'c3' }); // goes by it: waits for the rest of the 1 s pause
    expect(hostC.rateLimit.metrics.waited).toBeGreaterThanOrEqual(1);
    await b2;
  }, 20_000);
});

const INCR_BY = "return redis.call('INCRBY', KEYS[1], ARGV[1])";

function recorded(): { sent: string[]; command: (args: string[]) => Promise<unknown> } {
  const client = fromNodeRedis(redisServer.client);
  const sent: string[] = [];
  return {
    sent,
    command: (args) => (sent.push(args[0] === 'SCRIPT' ? `SCRIPT ${args[1]}` : args[0]!), client.command(args)),
  };
}

describe('evalScript', () => {
  it('loads a script once for calls that start together, then runs it by EVALSHA', async () => {
    const { sent, command } = recorded();
    const shas = new Map<string, Promise<string>>();
    const replies = await Promise.all([1, 2, 3].map((n) => evalScript(command, shas, INCR_BY, ['es:a'], [String(n)])));
    expect(replies.map(Number).sort()).toEqual([1, 3, 6]);
    expect(sent).toEqual(['SCRIPT LOAD', 'EVALSHA', 'EVALSHA', 'EVALSHA']);
  });

  it('after SCRIPT FLUSH answers the call by EVAL and loads the script again on the next one', async () => {
    const { sent, command } = recorded();
    const shas = new Map<string, Promise<string>>();
    expect(Number(await evalScript(command, shas, INCR_BY, ['es:b'], ['1']))).toBe(1);
    await redisServer.client.sendCommand(['SCRIPT', 'FLUSH']);
    expect(Number(await evalScript(command, shas, INCR_BY, ['es:b'], ['1']))).toBe(2);
    expect(Number(await evalScript(command, shas, INCR_BY, ['es:b'], ['1']))).toBe(3);
    expect(sent).toEqual(['SCRIPT LOAD', 'EVALSHA', 'EVALSHA', 'EVAL', 'SCRIPT LOAD', 'EVALSHA']);
  });

  it("passes a script's own error on without running it a second time", async () => {
    const { sent, command } = recorded();
    await expect(
      evalScript(command, new Map(), "return redis.error_reply('BOOM no such thing')", [], []),
    ).rejects.toThrow(/BOOM/);
    expect(sent).toEqual(['SCRIPT LOAD', 'EVALSHA']);
  });
});
