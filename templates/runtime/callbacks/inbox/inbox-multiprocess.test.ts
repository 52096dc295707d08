/**
 * Issue 19 part 1, done-when shape: three worker PROCESSES on one RedisInbox (real redis-server),
 * one SIGKILLed mid-run from outside while it holds events, one killing itself right after it sent
 * an atomic commit (the window between a side effect and its ack). 2 000 events (plus duplicates, shuffled, in batches of 1 to 100) arrive
 * through `createCallbackHandler({ inbox })` while the workers run. Proven from Redis afterwards:
 * every event processed, each side effect applied exactly once per id, every group's state is its
 * newest version, nothing pending, no dead letters.
 */
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  pendingOf,
  startWorkerProcess,
  stopWorkerProcess,
} from '../../../../test/fixtures/callbacks/inbox-worker-process.js';
import { startRedisServer } from '../../../../test/fixtures/callbacks/redis-server.js';
import type { RedisServerHandle } from '../../../../test/fixtures/callbacks/redis-server.js';
import { fromNodeRedis } from '../../stores/redis-client.js';
import { createCallbackHandler } from '../node.js';
import { signCallbackRequest } from '../sign.js';
import type { CallbackEvent } from '../types.js';
import { RedisInbox } from './redis-inbox.js';

const SECRET = 'whsec_inbox_mp_T4x';
const PREFIX = '{mp}:';
const N = 2000;
const GROUPS = 20;
const script = fileURLToPath(new URL('../../../../test/fixtures/callbacks/inbox-worker.ts', import.meta.url));

describe('RedisInbox with three worker processes, two SIGKILLed mid-run', () => {
  let server: RedisServerHandle;
  let redis: ReturnType<typeof createClient>;
  let workers: ChildProcess[] = [];

  beforeAll(async () => {
    server = await startRedisServer();
    redis = createClient({ url: server.url });
    await redis.connect();
    // the third worker also dies, by its own SIGKILL sent right after its 200th commit left (or not)
    const env = { REDIS_URL: server.url, INBOX_PREFIX: PREFIX, CONCURRENCY: '4', VISIBILITY_MS: '1000', WORK_MS: '3' };
    workers = await Promise.all(
      ([{}, {}, { DIE_IN_COMMIT_AT: '200' }] as Record<string, string>[]).map((extra) =>
        startWorkerProcess(script, { ...env, ...extra }),
      ),
    );
  }, 30_000);
  afterAll(async () => {
    await Promise.all(workers.map(stopWorkerProcess));
    await redis?.close().catch(() => undefined);
    await server?.stop();
  });

  it('processes every event once, applies each side effect once, keeps the newest group state, leaves nothing pending', async () => {
    const inbox = new RedisInbox({ client: fromNodeRedis(redis), durability: 'off', prefix: PREFIX, ordering: true });
    const handler = createCallbackHandler({ secrets: SECRET, inbox });
    const events: CallbackEvent[] = Array.from({ length: N }, (_, i) => {
      const group = (i / 2) % GROUPS;
      const version = Math.floor(i / 2 / GROUPS) + 1;
      return i % 2 === 0
        ? {
            id: `evt_${i}`,
            type: 'group.members_added',
            occurred_at: new Date(Date.UTC(2026, 0, 1) + version * 1000).toISOString(),
            data: { origin: 'client', group_id: `g${group}`, member_version: version },
          }
        : {
            id: `evt_${i}`,
            type: 'user.session_created',
            occurred_at: '2026-01-01T00:00:00.000Z',
            data: { origin: 'client' },
          };
    });
    // at-least-once and no order: 20 % duplicates, shuffled, in batches of 1 to 100
    const deliveries = [...events, ...events.filter((_, i) => i % 5 === 0)].sort(() => Math.random() - 0.5);
    let statuses = 0;
    let killed = false;
    let heldAtKill = 0;
    for (let at = 0; at < deliveries.length; ) {
      const size = 1 + Math.floor(Math.random() * 100);
      const batch = deliveries.slice(at, at + size);
      at += size;
      const { headers, body } = signCallbackRequest({
        body: { kind: 'event', request_id: `r${at}`, events: batch },
        secret: SECRET,
      });
      const res = await handler(new Request('http://127.0.0.1/cb', { method: 'POST', headers, body }));
      expect(res.status).toBe(200);
      statuses++;
      if (!killed && at > deliveries.length / 2) {
        // mid-run, while the first worker holds events it has not settled (its handler runs up to 3 ms)
        const victim = `pid-${workers[0]!.pid}`;
        const until = Date.now() + 5000;
        while ((heldAtKill = (await pendingOf(redis, `${PREFIX}events`, victim)).held) === 0 && Date.now() < until)
          await new Promise((r) => setImmediate(r));
        workers[0]!.kill('SIGKILL');
        killed = true;
      }
      if (statuses % 5 === 0) await new Promise((r) => setTimeout(r, 5)); // let workers run alongside
    }
    expect(killed).toBe(true);
    expect(heldAtKill).toBeGreaterThan(0); // the kill cut events in flight: they must be taken over
    const deadline = Date.now() + 60_000;
    for (;;) {
      const s = await inbox.stats();
      if (s.pending === 0 && s.processed >= N) break;
      if (Date.now() > deadline) throw new Error(`not drained: ${JSON.stringify(s)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(workers[2]!.signalCode).toBe('SIGKILL'); // died in its commit window
    expect(workers[1]!.exitCode ?? workers[1]!.signalCode).toBeNull(); // the survivor did the rest
    const stats = await inbox.stats();
    expect(stats).toMatchObject({ pending: 0, retrying: 0, deadLetters: 0, processed: N });
    // exactly once per id: read every effects counter
    const counts = await redis.mGet(events.map((e) => `${PREFIX}s:effects:${e.id}`));
    expect(counts.filter((c) => c !== '1')).toEqual([]);
    // the ordering guard refused older group versions across the three workers
    expect(stats.superseded).toBeGreaterThan(0);
    for (let g = 0; g < GROUPS; g++) expect(await inbox.getState(`group:g${g}`)).toBe(String(N / 2 / GROUPS));
    // the dead worker's claims were taken over: no entry is left in the consumer group's PEL
    expect((await pendingOf(redis, `${PREFIX}events`)).total).toBe(0);
  }, 120_000);
});
