import { describe, expect, it } from 'vitest';
import { redisServerPerFile } from '../../../test/fixtures/callbacks/redis-per-file.js';
import { MemoryDedupeStore, RedisDedupeStore } from './dedupe-store.js';
import { fromIoredis, fromNodeRedis } from './redis-client.js';

describe('MemoryDedupeStore', () => {
  it('claims once, releases, expires after the TTL', async () => {
    let now = 1_000;
    const s = new MemoryDedupeStore({ now: () => now });
    expect(await s.claim('a', 1000)).toBe(true);
    expect(await s.claim('a', 1000)).toBe(false);
    await s.release('a');
    expect(await s.claim('a', 1000)).toBe(true);
    now += 999;
    expect(await s.claim('a', 1000)).toBe(false);
    now += 2;
    expect(await s.claim('a', 1000)).toBe(true);
  });

  it('default TTL is 24 h', async () => {
    let now = 0;
    const s = new MemoryDedupeStore({ now: () => now });
    expect(await s.claim('x')).toBe(true);
    now = 24 * 3600 * 1000 - 1;
    expect(await s.claim('x')).toBe(false);
    now = 24 * 3600 * 1000 + 1;
    expect(await s.claim('x')).toBe(true);
  });

  it('is bounded: the oldest entries are evicted first', async () => {
    const s = new MemoryDedupeStore({ maxEntries: 3 });
    for (const id of ['1', '2', '3', '4']) expect(await s.claim(id, 60_000)).toBe(true);
    expect(s.size).toBe(3);
    expect(s.evicted).toBe(1);
    expect(await s.claim('4', 60_000)).toBe(false);
    expect(await s.claim('1', 60_000)).toBe(true); // evicted, so it is new again
  });

  it('sweeps expired entries so they do not count toward the bound', async () => {
    let now = 0;
    const s = new MemoryDedupeStore({ maxEntries: 2, now: () => now });
    await s.claim('a', 10);
    await s.claim('b', 10);
    now = 20;
    await s.claim('c', 10);
    expect(s.size).toBe(1);
    expect(s.evicted).toBe(0);
  });
});

describe('adapters', () => {
  it('fromIoredis calls client.call(name, ...args)', async () => {
    const calls: string[][] = [];
    const fake = {
      call: async (name: string, ...args: string[]) => (calls.push([name, ...args]), name === 'SET' ? 'OK' : 1),
    };
    const store = new RedisDedupeStore({ client: fromIoredis(fake), prefix: 'p:' });
    expect(await store.claim('id1', 1500.2)).toBe(true);
    await store.release('id1');
    expect(calls).toEqual([
      ['SET', 'p:id1', '1', 'NX', 'PX', '1501'],
      ['DEL', 'p:id1'],
    ]);
  });
});

describe('RedisDedupeStore against a real redis-server', () => {
  const redisServer = redisServerPerFile();

  it('SET NX PX: first claim wins, duplicates lose, release frees, the key expires', async () => {
    const store = new RedisDedupeStore({ client: fromNodeRedis(redisServer.client), prefix: 'unit:' });
    expect(await store.claim('evt_1', 60_000)).toBe(true);
    expect(await store.claim('evt_1', 60_000)).toBe(false);
    const ttl = Number(await redisServer.client.sendCommand(['PTTL', 'unit:evt_1']));
    expect(ttl).toBeGreaterThan(59_000);
    await store.release('evt_1');
    expect(await store.claim('evt_1', 60_000)).toBe(true);
    expect(await store.claim('short', 50)).toBe(true);
    await new Promise((r) => setTimeout(r, 120));
    expect(await store.claim('short', 50)).toBe(true);
  });

  it('two-phase: concurrent begins of one id give one claimed, the rest in_progress; complete makes it done', async () => {
    const store = new RedisDedupeStore({ client: fromNodeRedis(redisServer.client), prefix: 'two-phase:' });
    const states = await Promise.all(Array.from({ length: 10 }, () => store.begin('e', 60_000)));
    expect(states.filter((x) => x === 'claimed')).toHaveLength(1);
    expect(states.filter((x) => x === 'in_progress')).toHaveLength(9);
    await store.complete('e', 3_600_000);
    expect(await store.begin('e', 60_000)).toBe('done');
    expect(await store.claim('e', 60_000)).toBe(false); // the one-phase claim sees it too
    expect(await store.begin('short', 50)).toBe('claimed');
    await new Promise((r) => setTimeout(r, 120));
    expect(await store.begin('short', 50)).toBe('claimed'); // a processing claim expires
  });

  it('concurrent claims of one id: exactly one wins', async () => {
    const store = new RedisDedupeStore({ client: fromNodeRedis(redisServer.client), prefix: 'race:' });
    const results = await Promise.all(Array.from({ length: 50 }, () => store.claim('same', 60_000)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });
});

describe('two-phase claim (begin / complete / release)', () => {
  it('memory store: claimed → in_progress while processing → done after complete; release frees it', async () => {
    let now = 1_000;
    const store = new MemoryDedupeStore({ now: () => now });
    expect(await store.begin('e1', 60_000)).toBe('claimed');
    expect(await store.begin('e1', 60_000)).toBe('in_progress');
    await store.complete('e1', 24 * 3600_000);
    expect(await store.begin('e1', 60_000)).toBe('done');
    expect(await store.begin('e2', 60_000)).toBe('claimed');
    await store.release('e2');
    expect(await store.begin('e2', 60_000)).toBe('claimed');
    // a receiver that died while processing: the claim expires, a redelivery may process it
    now += 60_001;
    expect(await store.begin('e2', 60_000)).toBe('claimed');
  });
});
