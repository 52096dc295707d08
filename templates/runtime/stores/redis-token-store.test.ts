import { inspect } from 'node:util';
import { createClient } from 'redis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startRedisServer } from '../../../test/fixtures/callbacks/redis-server.js';
import type { RedisServerHandle } from '../../../test/fixtures/callbacks/redis-server.js';
import { fromIoredis, fromNodeRedis as fromNodeRedisViaCallbacks } from '../callbacks/index.js';
import { fromNodeRedis, type RedisCommandClient } from './redis-client.js';
import { RedisTokenStore } from './redis-token-store.js';

describe('RedisTokenStore (commands)', () => {
  it('speaks plain commands through the minimal client; adapters stay exported from callbacks', async () => {
    const calls: string[][] = [];
    const client: RedisCommandClient = fromIoredis({
      call: async (name: string, ...args: string[]) => (calls.push([name, ...args]), name === 'GET' ? null : 'OK'),
    });
    const store = new RedisTokenStore({ client, prefix: 'p:', now: () => 1_000 });
    await store.set('k', { accessToken: 'tok', expiresAt: 61_000, obtainedAt: 1_000 });
    expect(calls[0]).toEqual([
      'SET',
      'p:k',
      JSON.stringify({ accessToken: 'tok', expiresAt: 61_000, obtainedAt: 1_000 }),
      'PX',
      '60000',
    ]);
    await store.set('k', { accessToken: 'old', expiresAt: 500 });
    expect(calls[1]).toEqual(['DEL', 'p:k']);
    expect(await store.get('k')).toBeNull();
    expect(fromNodeRedisViaCallbacks).toBe(fromNodeRedis);
  });

  it('console.log and String() show its prefix and lock TTL, never the client or what the client holds', () => {
    const password = 'redis-pass-SECRET-42';
    const client = fromIoredis({ options: { password }, call: async () => 'OK' } as unknown as Parameters<
      typeof fromIoredis
    >[0]);
    const store = new RedisTokenStore({ client, prefix: 'app:' });
    const shown = inspect(store, { depth: 10, showHidden: true });
    expect(shown).toMatch(/^RedisTokenStore \{ prefix: "app:", lockTtlMs: \d+ \}$/);
    expect(String(store)).toBe(shown);
    expect(`${shown}${JSON.stringify(store)}`).not.toContain(password);
  });
});

describe('RedisTokenStore against a real redis-server', () => {
  let server: RedisServerHandle;
  let redis: ReturnType<typeof createClient>;
  let client: RedisCommandClient;

  beforeAll(async () => {
    server = await startRedisServer();
    redis = createClient({ url: server.url });
    await redis.connect();
    client = fromNodeRedis(redis);
  });
  afterAll(async () => {
    await redis?.close().catch(() => undefined);
    await server?.stop();
  });
  beforeEach(async () => {
    await redis.flushAll();
  });

  it('stores the token with PX = its remaining lifetime, reads it back, drops it when it expires', async () => {
    const store = new RedisTokenStore({ client });
    const expiresAt = Date.now() + 400;
    await store.set('app', { accessToken: 'tok-1', expiresAt, application: 'app-id', obtainedAt: Date.now() });
    const pttl = Number(await redis.pTTL('app'));
    expect(pttl).toBeGreaterThan(300);
    expect(pttl).toBeLessThanOrEqual(400);
    expect(await store.get('app')).toMatchObject({ accessToken: 'tok-1', expiresAt, application: 'app-id' });
    await new Promise((r) => setTimeout(r, 450));
    expect(await store.get('app')).toBeNull();
  });

  it('ignores values that are not a stored token', async () => {
    const store = new RedisTokenStore({ client });
    await redis.set('app', 'not json');
    expect(await store.get('app')).toBeNull();
    await redis.set('app', JSON.stringify({ accessToken: 5 }));
    expect(await store.get('app')).toBeNull();
  });

  it('deleteIf deletes only the token that was refused (compare-and-delete)', async () => {
    const store = new RedisTokenStore({ client });
    await store.set('app', { accessToken: 'tok-2', expiresAt: Date.now() + 60_000 });
    await store.deleteIf('app', 'tok-1');
    expect((await store.get('app'))?.accessToken).toBe('tok-2');
    await store.deleteIf('app', 'tok-2');
    expect(await store.get('app')).toBeNull();
    await store.deleteIf('app', 'tok-2'); // nothing stored: no error
  });

  it('withExchangeLock: one holder at a time; the others use the token it stores without exchanging', async () => {
    const stores = Array.from({ length: 5 }, () => new RedisTokenStore({ client, pollMinMs: 5, pollMaxMs: 20 }));
    let exchanges = 0;
    let holders = 0;
    let maxHolders = 0;
    const results = await Promise.all(
      stores.map((store) =>
        store.withExchangeLock('app', async () => {
          const stored = await store.get('app');
          if (stored) return stored.accessToken;
          holders += 1;
          maxHolders = Math.max(maxHolders, holders);
          exchanges += 1;
          await new Promise((r) => setTimeout(r, 100));
          await store.set('app', { accessToken: 'tok-new', expiresAt: Date.now() + 60_000 });
          holders -= 1;
          return 'tok-new';
        }),
      ),
    );
    expect(results).toEqual(Array(5).fill('tok-new'));
    expect(exchanges).toBe(1);
    expect(maxHolders).toBe(1);
    expect(await redis.exists('app:lock')).toBe(0);
  });

  it('a holder whose process died blocks the others only until the lock expires', async () => {
    // A dead process neither renews nor releases: its lock is just a key with an expiry.
    await redis.set('app:lock', 'a-process-that-died', { PX: 300 });
    const started = Date.now();
    const other = new RedisTokenStore({ client, lockTtlMs: 300, pollMinMs: 5, pollMaxMs: 25 });
    const ran = await other.withExchangeLock('app', async () => Date.now() - started);
    expect(ran).toBeGreaterThanOrEqual(200);
    expect(ran).toBeLessThan(300 + 1_000);
  });

  it("a slow but living holder keeps its lock past lockTtlMs; a late release never deletes another owner's lock", async () => {
    const slow = new RedisTokenStore({ client, lockTtlMs: 300 });
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let entered!: () => void;
    const inside = new Promise<void>((r) => (entered = r));
    const holder = slow.withExchangeLock('app', async () => {
      entered();
      await held;
    });
    await inside;
    await new Promise((r) => setTimeout(r, 700)); // more than twice the lock's life
    expect(await redis.get('app:lock')).not.toBeNull(); // renewed, not expired
    // Another owner (say, after a long Redis pause) must keep its lock when the first releases.
    await redis.set('app:lock', 'someone-else', { PX: 5_000 });
    release();
    await holder;
    expect(await redis.get('app:lock')).toBe('someone-else');
  });

  it('an exchange that fails releases the lock and rejects (never run twice)', async () => {
    const store = new RedisTokenStore({ client });
    let runs = 0;
    await expect(
      store.withExchangeLock('app', async () => {
        runs += 1;
        throw new Error('exchange failed');
      }),
    ).rejects.toThrow('exchange failed');
    expect(runs).toBe(1);
    expect(await redis.exists('app:lock')).toBe(0);
  });

  it('Redis down: the lock is skipped, the exchange still runs once', async () => {
    const broken: RedisCommandClient = { command: async () => Promise.reject(new Error('ECONNREFUSED')) };
    const store = new RedisTokenStore({ client: broken });
    let runs = 0;
    expect(await store.withExchangeLock('app', async () => (runs += 1))).toBe(1);
    expect(runs).toBe(1);
  });
});
