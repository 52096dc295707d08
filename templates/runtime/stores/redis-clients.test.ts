/**
 * Issue 29 item 1: every Redis store (token, quota and gate, dedupe and nonce, inbox) with every
 * supported client, as the application's own client object, on a real redis-server and on a real
 * three-master Redis Cluster (127.0.0.1): node-redis 4, 5 (RESP2 and RESP3), 6 (RESP3), ioredis 5
 * (RESP2) and 6 (RESP3, both reply mappings), and the cluster clients of each. One server and one
 * cluster for the whole file; each client case uses keys of its own.
 *
 * Before the adapter layer, node-redis 6 and ioredis 6 lost the inbox's blocking XREADGROUP reply
 * (a RESP3 map), so an event waited for the 30 s visibility timeout; `deadLetters()` listed nothing
 * with node-redis 6 (HGETALL as an object); ioredis and the cluster clients were not accepted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer } from '../../../test/fixtures/callbacks/redis-server.js';
import type { RedisServerHandle } from '../../../test/fixtures/callbacks/redis-server.js';
import { CLUSTER_CLIENTS, SINGLE_NODE_CLIENTS } from '../../../test/fixtures/redis-clients.js';
import type { ClientCase, OpenedClient } from '../../../test/fixtures/redis-clients.js';
import { startRedisCluster } from '../../../test/fixtures/redis-cluster.js';
import type { RedisClusterHandle } from '../../../test/fixtures/redis-cluster.js';
import { RedisInbox } from '../callbacks/inbox/redis-inbox.js';
import { signCallbackRequest } from '../callbacks/sign.js';
import type { CallbackEvent } from '../callbacks/types.js';
import { verifyCallback } from '../callbacks/verify.js';
import { quotaKey } from '../internal/store-keys.js';
import { RedisDedupeStore } from './dedupe-store.js';
import { redisConnection } from './redis-client.js';
import { RedisQuotaStore } from './redis-quota-store.js';
import { RedisTokenStore } from './redis-token-store.js';

let server: RedisServerHandle;
let cluster: RedisClusterHandle;

beforeAll(async () => {
  [server, cluster] = await Promise.all([startRedisServer(), startRedisCluster()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([server?.stop(), cluster?.stop()]);
});

const cases: [string, ClientCase, 'single' | 'cluster', number][] = [
  ...SINGLE_NODE_CLIENTS.map((c, i): [string, ClientCase, 'single', number] => [c.name, c, 'single', i]),
  ...CLUSTER_CLIENTS.map((c, i): [string, ClientCase, 'cluster', number] => [c.name, c, 'cluster', 100 + i]),
];

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function waitFor(what: string, cond: () => boolean | Promise<boolean>, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

function ev(id: string, extra: Partial<CallbackEvent> = {}): CallbackEvent {
  return {
    id,
    type: 'user.session_created',
    occurred_at: '2026-01-01T00:00:00.000Z',
    data: { origin: 'client' },
    ...extra,
  };
}

function groupEvent(id: string, group: string, version: number): CallbackEvent {
  return {
    id,
    type: 'group.members_added',
    occurred_at: '2026-01-01T00:00:00.000Z',
    data: { origin: 'client', group_id: group, member_version: version },
  };
}

describe.each(cases)('Redis stores with %s', (_name, clientCase, where, n) => {
  let opened: OpenedClient;
  const tag = `c${n}`;

  beforeAll(async () => {
    opened = await clientCase.open(where === 'single' ? [server.url] : cluster.urls);
  }, 30_000);
  afterAll(async () => {
    await opened?.close();
  });

  it('is recognised as what it is', () => {
    const connection = redisConnection(opened.client, 'test');
    expect(connection.cluster).toBe(where === 'cluster');
    expect(connection.client).toBe(
      `${clientCase.name.startsWith('ioredis') ? 'ioredis' : 'node-redis'}${where === 'cluster' ? ' cluster' : ''}`,
    );
  });

  it('RedisTokenStore: set with PX, get, deleteIf compare-and-delete, one exchange lock holder at a time', async () => {
    const key = `im-openapi:app-token:v2:${tag}`;
    const a = new RedisTokenStore({ client: opened.client, pollMinMs: 5, pollMaxMs: 20 });
    const b = new RedisTokenStore({ client: opened.client, pollMinMs: 5, pollMaxMs: 20 });
    const expiresAt = Date.now() + 60_000;
    await a.set(key, { accessToken: 'tok-1', expiresAt, application: 'app' });
    expect(await b.get(key)).toEqual({ accessToken: 'tok-1', expiresAt, application: 'app' });
    const pttl = Number((await redisConnection(opened.client, 'test').command(['PTTL', key])) ?? 0);
    expect(pttl).toBeGreaterThan(50_000);
    expect(pttl).toBeLessThanOrEqual(60_000);
    await b.deleteIf(key, 'not-this-one');
    expect((await a.get(key))?.accessToken).toBe('tok-1');
    await b.deleteIf(key, 'tok-1');
    expect(await a.get(key)).toBeNull();
    // A holds the lock and stores a token; B waits for it and uses it instead of exchanging.
    const order: string[] = [];
    const first = a.withExchangeLock(key, async () => {
      order.push('a:start');
      await sleep(150);
      await a.set(key, { accessToken: 'tok-2', expiresAt });
      order.push('a:stored');
      return 'a';
    });
    await sleep(20);
    const second = b.withExchangeLock(key, async () => {
      order.push(`b:sees ${(await b.get(key))?.accessToken}`);
      return 'b';
    });
    expect(await Promise.all([first, second])).toEqual(['a', 'b']);
    expect(order).toEqual(['a:start', 'a:stored', 'b:sees tok-2']);
    await a.delete(key);
    expect(await b.get(key)).toBeNull();
  });

  it('RedisQuotaStore: one schedule of slots, the gate closed / read / opened, counters of every writer', async () => {
    const key = quotaKey('https://api.example.com', 'org', `app-${tag}`);
    const gate = `${key}:gate`;
    const one = new RedisQuotaStore({ client: opened.client });
    const two = new RedisQuotaStore({ client: opened.client });
    const rate = { perSecond: 10, burst: 2 };
    const first = await Promise.all([one.reserve(key, rate, 0, gate), two.reserve(key, rate, 0, gate)]);
    expect(first.map((r) => [r.reserved, r.waitMs])).toEqual([
      [true, 0],
      [true, 0],
    ]);
    const third = await one.reserve(key, rate, 0, gate);
    expect(third.reserved).toBe(false); // the burst is spent and no wait is allowed
    expect(third.waitMs).toBeGreaterThan(0);
    expect(third.members).toBe(2);
    const waited = await two.reserve(key, rate, 1000, gate);
    expect(waited.reserved).toBe(true);
    expect(waited.waitMs).toBeGreaterThan(0);
    expect(waited.waitMs).toBeLessThanOrEqual(200);
    await one.closeGate(gate, 5000);
    expect(await two.sync(key, gate)).toBeGreaterThan(4000);
    expect((await two.reserve(key, rate, 1000, gate)).gateMs).toBeGreaterThan(4000);
    await two.openGate(gate);
    expect(await one.sync(key, gate, { sent: 3, rateLimited: 1 })).toBe(0);
    await two.sync(key, gate, { sent: 2 });
    expect(await one.counters(key)).toMatchObject({ sent: 5, rateLimited: 1, waited: 0 });
  });

  it('RedisDedupeStore: claims once, two-phase begin/complete, and as a nonce store refuses a replayed callback', async () => {
    const store = new RedisDedupeStore({ client: opened.client, prefix: `im:callbacks:${tag}:` });
    expect(await store.claim('e1', 60_000)).toBe(true);
    expect(await store.claim('e1', 60_000)).toBe(false);
    await store.release('e1');
    expect(await store.claim('e1', 60_000)).toBe(true);
    expect(await Promise.all([store.begin('e2', 60_000), store.begin('e2', 60_000)])).toEqual(
      expect.arrayContaining(['claimed', 'in_progress']),
    );
    await store.complete('e2', 60_000);
    expect(await store.begin('e2', 60_000)).toBe('done');
    const signed = signCallbackRequest({
      secret: 'whsec_clients',
      body: {
        kind: 'verify',
        request_id: 'r1',
        app: 'o#a',
        endpoint_id: 'ep',
        sent_at: '2026-01-01T00:00:00.000Z',
        challenge: 'c',
      },
    });
    const verify = () =>
      verifyCallback({ headers: signed.headers, rawBody: signed.body, secrets: 'whsec_clients', nonceStore: store });
    expect((await verify()).kind).toBe('verify');
    await expect(verify()).rejects.toMatchObject({ reason: 'replayed_nonce' });
  });

  it('RedisInbox: durability read, append deduplicated, commit, ordering guard, retries, dead letters listed and replayed', async () => {
    const logged: string[] = [];
    const inbox = new RedisInbox({
      client: opened.client,
      blockingClient: opened.blocking,
      prefix: `{inbox-${tag}}:`,
      blockMs: 200,
      ordering: true,
      logger: { warn: (m: string) => void logged.push(m) },
    });
    const report = await inbox.checkDurability();
    expect(report).toMatchObject({ checked: true, source: 'config', appendonly: false, save: '' });
    expect(logged.join('\n')).toContain('appendonly no');
    expect(await inbox.append([ev('a'), ev('poison'), ev('a'), groupEvent('g-v2', 'g1', 2)])).toEqual({
      stored: 3,
      duplicates: 1,
    });
    const seen: string[] = [];
    const controller = new AbortController();
    const done = inbox.consume(
      async (event, ctx) => {
        seen.push(event.id);
        if (event.id === 'poison') throw new Error('poisoned');
        if (event.type === 'group.members_added') {
          await ctx.commit([{ op: 'set', key: 'group:g1', value: event.id }]);
          return;
        }
        await ctx.commit([{ op: 'incr', key: `count:${event.id}` }]);
      },
      {
        concurrency: 4,
        maxAttempts: 2,
        backoff: { baseMs: 5, maxMs: 10 },
        signal: controller.signal,
        onError: () => undefined,
      },
    );
    try {
      await waitFor('the dead letter', async () => (await inbox.stats()).deadLetters === 1);
      await inbox.append([groupEvent('g-v1', 'g1', 1)]); // older than what is committed: superseded
      await waitFor('g-v1 settled', async () => (await inbox.stats()).superseded === 1);
      const dead = await inbox.deadLetters();
      expect(dead.map((d) => [d.eventId, d.attempts, d.lastError])).toEqual([['poison', 2, 'Error: poisoned']]);
      expect(await inbox.getState('count:a')).toBe('1');
      expect(await inbox.getState('group:g1')).toBe('g-v2');
      expect(await inbox.replay('poison')).toBe(1);
      await waitFor(
        'the replayed run failed twice more',
        async () => (await inbox.stats()).deadLetters === 1 && seen.filter((id) => id === 'poison').length === 4,
      );
    } finally {
      controller.abort();
      await done;
    }
    expect(seen.filter((id) => id === 'a')).toEqual(['a']);
    expect(seen).not.toContain('g-v1'); // the guard skipped it (not handed to the handler)
    expect(await inbox.stats()).toMatchObject({ pending: 0, retrying: 0, deadLetters: 1, processed: 3, superseded: 1 });
  });

  it.each([
    ['with a blocking client (XREADGROUP BLOCK)', true],
    ['without one (polling)', false],
  ])('RedisInbox hands an appended event to an idle worker at once, %s', async (_how, withBlocking) => {
    const inbox = new RedisInbox({
      client: opened.client,
      ...(withBlocking ? { blockingClient: opened.blocking } : {}),
      prefix: `{lat-${tag}-${withBlocking ? 'b' : 'p'}}:`,
      durability: 'off',
    });
    const handled = new Map<string, number>();
    const controller = new AbortController();
    const done = inbox.consume((event) => void handled.set(event.id, performance.now()), { signal: controller.signal });
    const latencies: number[] = [];
    try {
      await inbox.append([ev('warm-up')]);
      await waitFor('the warm-up event', () => handled.has('warm-up'));
      for (let i = 0; i < 3; i++) {
        await sleep(250); // the worker is idle again: in its blocking read, or between polls
        const appendedAt = performance.now();
        await inbox.append([ev(`e${i}`)]);
        // generous: an event lost by the blocking read waits for the 30 s visibility timeout
        await waitFor(`e${i} handled`, () => handled.has(`e${i}`), 5000);
        latencies.push(handled.get(`e${i}`)! - appendedAt);
      }
    } finally {
      controller.abort();
      await done;
    }
    expect(Math.max(...latencies)).toBeLessThan(3000);
  });
});

describe('Redis stores refuse a client they do not know, at construction', () => {
  it.each([
    ['RedisTokenStore', (client: unknown) => new RedisTokenStore({ client: client as never })],
    ['RedisQuotaStore', (client: unknown) => new RedisQuotaStore({ client: client as never })],
    ['RedisDedupeStore', (client: unknown) => new RedisDedupeStore({ client: client as never })],
    ['RedisInbox', (client: unknown) => new RedisInbox({ client: client as never })],
  ])('%s names the supported clients', (name, make) => {
    for (const bad of [{ get: async () => null }, 'redis://127.0.0.1:6379', undefined, new Map()]) {
      expect(() => make(bad)).toThrow(TypeError);
      expect(() => make(bad)).toThrow(
        new RegExp(
          `^${name}: client is not a Redis client it knows .*supported: node-redis 4, 5 or 6 .*ioredis 5 or 6`,
        ),
      );
    }
  });

  it('RedisInbox refuses, on a cluster client, a prefix without a hash tag and a persistence wait', () => {
    const clusterish = { call: async () => null, isCluster: true };
    expect(() => new RedisInbox({ client: clusterish, prefix: 'inbox:' })).toThrow(/prefix must hold a hash tag/);
    expect(() => new RedisInbox({ client: clusterish, waitForPersistence: { aof: true } })).toThrow(
      /waitForPersistence needs a single-node connection/,
    );
    expect(() => new RedisInbox({ client: clusterish, prefix: '{app}:inbox:' })).not.toThrow();
  });
});
