/**
 * 8. Callback inbox (issue 19; no target, reported): events per second through `RedisInbox`
 * (append in batches + `consume` + settle: dedupe, claim, ack and processed marker in Lua) against
 * a bare Redis Streams loop of the same size (XADD per event, pipelined per batch; XREADGROUP
 * COUNT c BLOCK; XACK per entry) — the same private redis-server, the same client library
 * (node-redis, two connections each: commands + the blocking read), in this process, interleaved
 * rounds. Appending and consuming run at the same time, as in a receiver; a run ends when the
 * last event is acknowledged.
 *
 * Memory (issue 33): redis-server's `used_memory` (INFO memory) after each run minus before it,
 * ÷ the events: what the run left in Redis (ours: the done records of the ids, the emptied stream,
 * counters; bare: its stream, which it never trims). `MEMORY USAGE` would miss the keyspace's own
 * entry and expiry of a key per id, which is what the old layout paid most for. Once more for ours
 * with 36-character ids (a UUID's length) in an untimed run.
 *
 * Targets (issue 33): events/s ≥ 0.9× the bare loop's, redis-server CPU per event ≤ 1.5× its,
 * ≤ 80 bytes kept per processed event id.
 */
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import { startRedisServer } from '../../test/fixtures/callbacks/redis-server.js';
import { round } from './lib.js';

export interface InboxRow {
  mode: 'ours' | 'bare';
  label: string;
  eventsPerSec: number;
  runsEventsPerSec: number[];
  /** redis-server CPU (user + sys, from INFO cpu before and after) per event, µs; median of the runs. */
  redisCpuUsPerEvent: number;
  /** redis-server used_memory after the run minus before ÷ events, median of the runs. */
  bytesPerEvent?: number;
}
export interface InboxResult {
  events: number;
  batch: number;
  concurrency: number;
  rounds: number;
  redisVersion: string;
  /** Mean JSON size of one event, bytes. */
  eventBytes: number;
  /** Mean length of the event ids of the timed runs. */
  idLength: number;
  /** Ours, bytes kept per event with 36-character ids (one untimed run). */
  bytesPerEventLongIds: number;
  rows: InboxRow[];
}

type Client = ReturnType<typeof createClient>;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function sampleEvents(
  n: number,
  run: string,
  idLength?: number,
): { id: string; type: string; occurred_at: string; data: Record<string, unknown> }[] {
  return Array.from({ length: n }, (_, i) => ({
    id: idLength === undefined ? `evt_${run}_${i}` : `evt_${run}_${i}_`.padEnd(idLength, 'x'),
    type: 'group.members_added',
    occurred_at: '2026-01-01T00:00:00.000Z',
    data: {
      origin: 'client',
      group_id: `g${i % 50}`,
      member_version: i,
      member_count: 3,
      members: [{ username: `u${i}`, role: 'member', joined_via: 'create' }],
    },
  }));
}

async function redisCpuS(client: Client): Promise<number> {
  const info = String(await client.sendCommand(['INFO', 'cpu']));
  return (
    Number(/used_cpu_user:([\d.]+)/.exec(info)?.[1] ?? NaN) + Number(/used_cpu_sys:([\d.]+)/.exec(info)?.[1] ?? NaN)
  );
}

/** events/s of one run and the redis-server CPU it cost per event (µs). */
async function measured(probe: Client, n: number, f: () => Promise<number>): Promise<[number, number]> {
  const before = await redisCpuS(probe);
  const rate = await f();
  return [rate, (((await redisCpuS(probe)) - before) * 1e6) / n];
}

async function usedMemory(client: Client): Promise<number> {
  return Number(/used_memory:(\d+)/.exec(String(await client.sendCommand(['INFO', 'memory'])))?.[1] ?? NaN);
}

/** events/s of one run and the bytes it left in redis-server per event. */
async function withMemory(probe: Client, n: number, f: () => Promise<number>): Promise<[number, number]> {
  const before = await usedMemory(probe);
  const rate = await f();
  return [rate, ((await usedMemory(probe)) - before) / n];
}

async function runOurs(
  mod: any,
  command: Client,
  blocking: Client,
  n: number,
  batch: number,
  concurrency: number,
  run: string,
  idLength?: number,
): Promise<number> {
  const inbox = new mod.RedisInbox({
    client: mod.fromNodeRedis(command),
    blockingClient: mod.fromNodeRedis(blocking),
    prefix: `{bench-${run}}:`,
    blockMs: 100,
    durability: 'off',
  });
  const events = sampleEvents(n, run, idLength);
  let done = 0;
  const controller = new AbortController();
  let finish!: () => void;
  const finished = new Promise<void>((r) => (finish = r));
  const started = performance.now();
  const consuming = inbox.consume(
    () => {
      if (++done === n) finish();
    },
    { concurrency, signal: controller.signal },
  );
  for (let i = 0; i < n; i += batch) await inbox.append(events.slice(i, i + batch));
  await finished;
  // the last handler has returned; its settle (the ack) is what ends the run
  controller.abort();
  await consuming;
  const ms = performance.now() - started;
  const stats = await inbox.stats();
  if (stats.processed !== n || stats.pending !== 0)
    throw new Error(`inbox bench: ${JSON.stringify(stats)} after ${n} events`);
  return (n / ms) * 1000;
}

async function runBare(
  command: Client,
  blocking: Client,
  n: number,
  batch: number,
  concurrency: number,
  run: string,
): Promise<number> {
  const stream = `{bare-${run}}:events`;
  await command.sendCommand(['XGROUP', 'CREATE', stream, 'workers', '0', 'MKSTREAM']);
  const events = sampleEvents(n, run);
  let acked = 0;
  const started = performance.now();
  const consume = (async () => {
    while (acked < n) {
      const reply = (await blocking.sendCommand([
        'XREADGROUP',
        'GROUP',
        'workers',
        'c1',
        'COUNT',
        String(concurrency),
        'BLOCK',
        '100',
        'STREAMS',
        stream,
        '>',
      ])) as [string, [string, string[]][]][] | null;
      if (!reply) continue;
      const entries = reply[0]![1];
      // a no-op handler per entry (JSON.parse of the event, as ours does), then one XACK each
      await Promise.all(
        entries.map(([id, fields]) => (JSON.parse(fields[3]!), command.sendCommand(['XACK', stream, 'workers', id]))),
      );
      acked += entries.length;
    }
  })();
  for (let i = 0; i < n; i += batch) {
    await Promise.all(
      events
        .slice(i, i + batch)
        .map((e) => command.sendCommand(['XADD', stream, '*', 'id', e.id, 'e', JSON.stringify(e)])),
    );
  }
  await consume;
  return (n / (performance.now() - started)) * 1000;
}

export async function benchInbox(opts: {
  events: number;
  batch: number;
  concurrency: number;
  rounds: number;
  callbacksModule?: string;
}): Promise<InboxResult> {
  const mod = await import(
    opts.callbacksModule ?? fileURLToPath(new URL('../../templates/runtime/callbacks/index.ts', import.meta.url))
  );
  const server = await startRedisServer();
  const clients = [0, 1, 2, 3].map(() => createClient({ url: server.url }));
  try {
    await Promise.all(clients.map((c) => c.connect()));
    const [c1, b1, c2, b2] = clients as [Client, Client, Client, Client];
    const info = String(await c1.sendCommand(['INFO', 'server']));
    const redisVersion = /redis_version:(\S+)/.exec(info)?.[1] ?? '?';
    const ours: number[] = [];
    const bare: number[] = [];
    const oursCpu: number[] = [];
    const bareCpu: number[] = [];
    const oursBytes: number[] = [];
    const bareBytes: number[] = [];
    const oursRun = async (r: number) => {
      let cpu = 0;
      const [rate, bytes] = await withMemory(c1, opts.events, async () => {
        const [x, y] = await measured(c1, opts.events, () =>
          runOurs(mod, c1, b1, opts.events, opts.batch, opts.concurrency, `o${r}`),
        );
        cpu = y;
        return x;
      });
      ours.push(rate);
      oursCpu.push(cpu);
      oursBytes.push(bytes);
    };
    const bareRun = async (r: number) => {
      let cpu = 0;
      const [rate, bytes] = await withMemory(c1, opts.events, async () => {
        const [x, y] = await measured(c1, opts.events, () =>
          runBare(c2, b2, opts.events, opts.batch, opts.concurrency, `b${r}`),
        );
        cpu = y;
        return x;
      });
      bare.push(rate);
      bareCpu.push(cpu);
      bareBytes.push(bytes);
    };
    // one unmeasured warm-up of each, then interleaved rounds (alternating which goes first)
    await runOurs(mod, c1, b1, Math.min(500, opts.events), opts.batch, opts.concurrency, 'warm-o');
    await runBare(c2, b2, Math.min(500, opts.events), opts.batch, opts.concurrency, 'warm-b');
    for (let r = 0; r < opts.rounds; r++) {
      await c1.sendCommand(['FLUSHALL']);
      if (r % 2 === 0) {
        await oursRun(r);
        await bareRun(r);
      } else {
        await bareRun(r);
        await oursRun(r);
      }
    }
    await c1.sendCommand(['FLUSHALL']);
    const [, bytesPerEventLongIds] = await withMemory(c1, opts.events, () =>
      runOurs(mod, c1, b1, opts.events, opts.batch, opts.concurrency, 'long', 36),
    );
    return {
      events: opts.events,
      batch: opts.batch,
      concurrency: opts.concurrency,
      rounds: opts.rounds,
      redisVersion,
      eventBytes: round(
        sampleEvents(opts.events, 'size').reduce((sum, e) => sum + JSON.stringify(e).length, 0) / opts.events,
        0,
      ),
      idLength: round(sampleEvents(opts.events, 'o1').reduce((sum, e) => sum + e.id.length, 0) / opts.events, 1),
      bytesPerEventLongIds: round(bytesPerEventLongIds, 1),
      rows: [
        {
          mode: 'ours',
          label: 'RedisInbox: append + consume + settle',
          eventsPerSec: round(median(ours), 0),
          runsEventsPerSec: ours.map((x) => round(x, 0)),
          redisCpuUsPerEvent: round(median(oursCpu), 1),
          bytesPerEvent: round(median(oursBytes), 1),
        },
        {
          mode: 'bare',
          label: 'bare XADD + XREADGROUP + XACK',
          eventsPerSec: round(median(bare), 0),
          runsEventsPerSec: bare.map((x) => round(x, 0)),
          redisCpuUsPerEvent: round(median(bareCpu), 1),
          bytesPerEvent: round(median(bareBytes), 1),
        },
      ],
    };
  } finally {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await server.stop();
  }
}
