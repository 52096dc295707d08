/**
 * Issue 19's done-when test: the delivery simulator (programmatic API, fixed seed, 1 000×) drives
 * a receiver — node:http + the kit's handler with the Redis inbox, two addresses with a secret each
 * — while three worker PROCESSES consume the inbox (test/fixtures/callbacks/inbox-sim-worker.ts,
 * side effects in Redis through the atomic commit). Mid-run one worker is SIGKILLed while it holds
 * events. The receiver fails some requests on purpose (503 before storing; stored but the answer
 * "lost" as a 503) so the simulator redelivers, and three events fail in the handler until fixed
 * (dead letters, listed and replayed). The simulator's receiver report is read from Redis (stored
 * ids, effect counters, current state per entity), so its own findings check the same facts.
 * Proven: every delivered event processed, each effect applied once per id, the newest version
 * current for every entity, nothing pending, no dead letter left, no receiver finding.
 */
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allow } from '../templates/runtime/callbacks/decisions.js';
import { RedisInbox } from '../templates/runtime/callbacks/inbox/redis-inbox.js';
import { DEFAULT_INBOX_RETENTION_MS } from '../templates/runtime/callbacks/inbox/inbox-base.js';
import { doneBuckets, idRecord } from '../templates/runtime/callbacks/inbox/redis-id-records.js';
import { createNodeCallbackHandler } from '../templates/runtime/callbacks/node.js';
import type { NodeCallbackRequest } from '../templates/runtime/callbacks/node.js';
import { buildPlan } from '../templates/runtime/callbacks/simulator/plan.js';
import type { ReceiverState, SimulationReport } from '../templates/runtime/callbacks/simulator/report.js';
import { simulateDelivery } from '../templates/runtime/callbacks/simulator/simulate.js';
import { fromNodeRedis } from '../templates/runtime/stores/redis-client.js';
import { pendingOf, startWorkerProcess, stopWorkerProcess } from './fixtures/callbacks/inbox-worker-process.js';
import { startRedisServer } from './fixtures/callbacks/redis-server.js';
import type { RedisServerHandle } from './fixtures/callbacks/redis-server.js';

const PREFIX = '{sim}:';
const SECRETS = ['whsec_sim_addr_one_Q7', 'whsec_sim_addr_two_K2'];
const SEED = 19_2026;
/** Events the simulator creates; best-effort losses (never sent) leave at least 2 000 delivered. */
const EVENTS = 2300;
const PLAN = { duplicateRate: 0.1, bestEffortLossRate: 0.1, truncatedRate: 0.05 };
const worker = fileURLToPath(new URL('./fixtures/callbacks/inbox-sim-worker.ts', import.meta.url));

type Redis = ReturnType<typeof createClient>;

/**
 * The receiver report, read from Redis only: `stored` = ids the inbox records (the `pending` set
 * of ids in the inbox and the live `done:<bucket>` sets of processed ids, read at once; a long id is
 * recorded by digest, `ids` maps those back), `processed` = the effect counters, `current` = the
 * guarded per-entity state.
 */
async function receiverStateFromRedis(redis: Redis, ids: ReadonlyMap<string, string>): Promise<ReceiverState> {
  const effects: string[] = [];
  const current: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = (await redis.sendCommand(['SCAN', cursor, 'MATCH', `${PREFIX}*`, 'COUNT', '10000'])) as [
      string,
      string[],
    ];
    cursor = next;
    for (const k of keys) {
      const rest = k.slice(PREFIX.length);
      if (rest.startsWith('s:effects:')) effects.push(rest.slice(10));
      else if (rest.startsWith('s:cur:')) current.push(rest.slice(6));
    }
  } while (cursor !== '0');
  const counts = effects.length ? await redis.mGet(effects.map((id) => `${PREFIX}s:effects:${id}`)) : [];
  const curIds = current.length ? await redis.mGet(current.map((e) => `${PREFIX}s:cur:${e}`)) : [];
  // one SUNION, so that an id moving from `pending` to a done set meanwhile is seen in one or the other
  const stored = (await redis.sendCommand([
    'SUNION',
    `${PREFIX}pending`,
    ...doneBuckets(PREFIX, DEFAULT_INBOX_RETENTION_MS, Date.now()).live,
  ])) as string[];
  return {
    stored: stored.map((record) => ids.get(record) ?? record),
    processed: Object.fromEntries(effects.map((id, i) => [id, Number(counts[i])])),
    current: Object.fromEntries(current.flatMap((e, i) => (curIds[i] ? [[e, curIds[i]!]] : []))),
  };
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

describe('issue 19 done-when: the simulator drives a receiver on the Redis inbox with three worker processes', () => {
  let redisServer: RedisServerHandle;
  let redis: Redis;
  let http: Server;
  let workers: ChildProcess[] = [];

  // three non-best-effort events that fail in the handler until fixed (never lost by the plan)
  const plan = buildPlan({ seed: SEED, events: EVENTS, eventsPerBatch: 10, ...PLAN, hooks: 3, hookTimeoutMs: 3000 });
  const poison = plan.events
    .filter((e) => e.type === 'friend.added' && !e.lost)
    .slice(0, 3)
    .map((e) => e.id);
  // the id records of the plan's events (idRecord) → the ids
  const recordIds = new Map(plan.events.map((e) => [idRecord(e.id), e.id]));

  beforeAll(async () => {
    redisServer = await startRedisServer();
    redis = createClient({ url: redisServer.url });
    await redis.connect();
    const env = {
      REDIS_URL: redisServer.url,
      INBOX_PREFIX: PREFIX,
      CONCURRENCY: '4',
      VISIBILITY_MS: '1000',
      MAX_ATTEMPTS: '3',
      POISON: poison.join(','),
    };
    // worker 0 stops inside its 100th event and says so: the test kills it then (see the watcher)
    workers = await Promise.all(
      [0, 1, 2].map((i) => startWorkerProcess(worker, i === 0 ? { ...env, HOLD_AFTER: '100' } : env)),
    );
  }, 30_000);
  afterAll(async () => {
    await Promise.all(workers.map(stopWorkerProcess));
    if (http) {
      http.closeAllConnections();
      await new Promise((r) => http.close(r));
    }
    await redis?.close().catch(() => undefined);
    await redisServer?.stop();
  });

  it('processes every event once, keeps the newest state per entity, leaves nothing pending, and the report is clean', async () => {
    const inbox = new RedisInbox({ client: fromNodeRedis(redis), durability: 'off', prefix: PREFIX });
    const handlers = SECRETS.map((secret) =>
      createNodeCallbackHandler({ secrets: secret, inbox, logger: {}, onHook: () => allow() }),
    );
    // Failures on purpose, on event requests only (verification and hooks answer normally): of
    // every ten event requests to an address, the 5th is refused before storing (503) and the 9th
    // is stored but its answer turned into a 503 (a lost answer), so stored events come again.
    const requestsSeen = [0, 0];
    const injected = { refused: 0, answerLost: 0 };
    http = createServer((req: IncomingMessage, res: ServerResponse) => {
      void (async () => {
        const address = req.url === '/b' ? 1 : 0;
        const body = await readBody(req);
        const isEvent = body.includes('"kind":"event"');
        const n = isEvent ? requestsSeen[address]!++ : -1;
        if (n % 10 === 4) {
          injected.refused++;
          res.writeHead(503, { 'content-length': '0' }).end();
          return;
        }
        if (n % 10 === 8) {
          injected.answerLost++;
          const writeHead = res.writeHead.bind(res) as (status: number, ...rest: unknown[]) => ServerResponse;
          (res as { writeHead: unknown }).writeHead = (status: number, ...rest: unknown[]) =>
            writeHead(status === 200 ? 503 : status, ...rest);
        }
        (req as NodeCallbackRequest).body = body; // read above; the kit takes a pre-read Buffer (express.raw style)
        await handlers[address]!(req as NodeCallbackRequest, res);
      })();
    });
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    const port = (http.address() as AddressInfo).port;

    // Mid-run, from outside: SIGKILL worker 0 the moment it says it is holding an event (inside
    // its handler, not acked); list the dead letters once the poison events are all there, fix the
    // cause and replay them. The kill follows an event, not a sampled moment, so it happens on a
    // loaded machine too. The watcher stops with the simulation.
    let simulating = true;
    const mid = {
      killedWhileSimulating: false,
      heldEventId: '',
      deadListed: [] as { eventId: string; attempts: number; lastError: string }[],
      replayed: 0,
    };
    workers[0]!.on('message', (m: { type?: string; eventId?: string }) => {
      if (m.type !== 'holding') return;
      workers[0]!.kill('SIGKILL');
      Object.assign(mid, { heldEventId: m.eventId, killedWhileSimulating: simulating });
    });
    const watcher = (async () => {
      const until = Date.now() + 180_000;
      while (simulating && Date.now() < until && mid.replayed === 0) {
        const dead = await inbox.deadLetters();
        if (poison.every((id) => dead.some((d) => d.eventId === id))) {
          mid.deadListed = dead.map(({ eventId, attempts, lastError }) => ({ eventId, attempts, lastError }));
          await redis.set(`${PREFIX}s:fixed`, '1');
          mid.replayed = await inbox.replay();
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    })();

    let report: SimulationReport;
    try {
      report = await simulateDelivery({
        url: [`http://127.0.0.1:${port}/a`, `http://127.0.0.1:${port}/b`],
        secret: SECRETS,
        seed: SEED,
        timeScale: 1000,
        events: EVENTS,
        eventsPerBatch: 10,
        ...PLAN,
        ratePerSecond: 200,
        timeoutMs: 10_000, // the longest address timeout (§2.1): the whole test suite may share the 2 cores with this run
        observe: () => receiverStateFromRedis(redis, recordIds),
        settleMs: 30_000, // the simulator waits (bounded) until every delivered id shows up processed
        maxRealMs: 180_000, // a bound on a hang, not a speed check: about 15 s quiet, over 60 s seen at load 30
      });
    } finally {
      simulating = false;
    }
    await watcher;

    // --- the run: two addresses, reordering, duplicates, redeliveries, all delivered, report clean
    expect(report.complete).toBe(true);
    expect(report.receiverReport).toBe(true);
    expect(report.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    const delivered = report.events.filter(
      (e) => e.deliveries.length === 2 && e.deliveries.every((d) => d.state === 'delivered'),
    );
    const lost = report.events.filter((e) => e.lost);
    expect(delivered.length + lost.length).toBe(EVENTS); // nothing failed or left pending
    expect(delivered.length).toBeGreaterThanOrEqual(2000);
    expect(report.totals.duplicateSends).toBeGreaterThan(0);
    expect(injected.refused).toBeGreaterThan(0);
    expect(injected.answerLost).toBeGreaterThan(0);
    expect(delivered.filter((e) => e.deliveries.some((d) => d.sends - d.duplicateSends > 1)).length).toBeGreaterThan(0); // redelivered after a failure
    const created = new Map(plan.events.map((e) => [e.id, e.created]));
    const outOfOrder = report.plan.queueOrder.filter((id, i, q) => i > 0 && created.get(id)! < created.get(q[i - 1]!)!);
    expect(outOfOrder.length).toBeGreaterThan(0); // events left the queue out of time order

    // --- mid-run: a worker killed holding events; the poison events listed and replayed
    expect(workers[0]!.signalCode).toBe('SIGKILL');
    expect(mid.killedWhileSimulating).toBe(true);
    expect(mid.heldEventId).not.toBe('');
    expect(mid.deadListed.map((d) => d.eventId).sort()).toEqual([...poison].sort());
    for (const d of mid.deadListed) {
      expect(d.attempts).toBe(3);
      expect(d.lastError).toContain('injected failure');
    }
    expect(mid.replayed).toBe(poison.length);
    expect(workers[1]!.exitCode ?? workers[1]!.signalCode).toBeNull();
    expect(workers[2]!.exitCode ?? workers[2]!.signalCode).toBeNull();

    // --- Redis, afterwards: each side effect once per delivered id, none for the lost ones
    const state = await receiverStateFromRedis(redis, recordIds);
    const ids = delivered.map((e) => e.id);
    expect(Object.keys(state.processed).sort()).toEqual([...ids].sort());
    expect(Object.entries(state.processed).filter(([, n]) => n !== 1)).toEqual([]);
    expect(state.processed[mid.heldEventId]).toBe(1); // the event the killed worker held: taken over, applied once
    // the newest delivered version is current for every entity (and nothing older anywhere)
    const newest = new Map<string, number>();
    for (const e of delivered)
      if (e.entity !== undefined) newest.set(e.entity, Math.max(newest.get(e.entity) ?? 0, e.version!));
    const byId = new Map(report.events.map((e) => [e.id, e]));
    const currentVersion = new Map<string, number>();
    for (const id of Object.values(state.current ?? {})) {
      const e = byId.get(id)!;
      expect(currentVersion.has(e.entity!)).toBe(false); // one receiver state key per simulator entity
      currentVersion.set(e.entity!, e.version!);
    }
    expect(currentVersion).toEqual(newest);
    // nothing pending: consumer group PEL empty, no retries waiting, no dead letters left
    const stats = await inbox.stats();
    expect(stats).toMatchObject({ pending: 0, retrying: 0, deadLetters: 0, processed: ids.length });
    expect(stats.superseded).toBeGreaterThan(0); // the ordering guard did refuse older versions
    expect((await pendingOf(redis, `${PREFIX}events`)).total).toBe(0);
  }, 240_000);
});
