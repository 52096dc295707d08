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
import { median, round } from './lib.js';

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
  /** Ours, where redis-server's time goes (INFO commandstats over the timed runs), per event. */
  redisProfile?: CommandCost[];
  rows: InboxRow[];
}

/** One command's share of a run (INFO commandstats): calls and µs per event; scripts include the commands they call. */
export interface CommandCost {
  command: string;
  callsPerEvent: number;
  usPerEvent: number;
}

export type Client = ReturnType<typeof createClient>;

export function sampleEvents(
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

async function usedMemory(client: Client): Promise<number> {
  return Number(/used_memory:(\d+)/.exec(String(await client.sendCommand(['INFO', 'memory'])))?.[1] ?? NaN);
}

/** INFO commandstats as command → calls and µs (since the last CONFIG RESETSTAT). */
async function commandStats(client: Client): Promise<Map<string, { calls: number; usec: number }>> {
  const out = new Map<string, { calls: number; usec: number }>();
  const text = String(await client.sendCommand(['INFO', 'commandstats']));
  for (const m of text.matchAll(/^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/gm))
    out.set(m[1]!, { calls: Number(m[2]), usec: Number(m[3]) });
  return out;
}

/** One measured run: events/s, redis-server CPU µs per event, bytes left per event, and the command profile. */
export interface RunFigures {
  rate: number;
  cpuUs: number;
  /** This process's CPU (user + system) per event, µs: the client side of the run. */
  nodeCpuUs: number;
  bytes: number;
  stats: Map<string, { calls: number; usec: number }>;
}

export async function measureRun(probe: Client, f: () => Promise<number>, n: number): Promise<RunFigures> {
  // memory first (withRedis turns latency tracking off, so RESETSTAT frees no histograms the run would re-allocate)
  const memory = await usedMemory(probe);
  await probe.sendCommand(['CONFIG', 'RESETSTAT']);
  const cpu = await redisCpuS(probe);
  const node = process.cpuUsage();
  const rate = await f();
  const nodeUsed = process.cpuUsage(node);
  const cpuUs = (((await redisCpuS(probe)) - cpu) * 1e6) / n;
  const bytes = ((await usedMemory(probe)) - memory) / n;
  const stats = await commandStats(probe);
  // the probe's own INFO / CONFIG calls are not the run's
  for (const name of ['info', 'config|resetstat']) stats.delete(name);
  return { rate, cpuUs, nodeCpuUs: (nodeUsed.user + nodeUsed.system) / n, bytes, stats };
}

/** Calls and µs per event by command, summed over runs of `n` events each, most expensive first. */
export function profileOf(runs: readonly RunFigures[], n: number): CommandCost[] {
  const sum = new Map<string, { calls: number; usec: number }>();
  for (const run of runs)
    for (const [command, s] of run.stats) {
      const t = sum.get(command) ?? { calls: 0, usec: 0 };
      t.calls += s.calls;
      t.usec += s.usec;
      sum.set(command, t);
    }
  const events = n * runs.length;
  return [...sum]
    .map(([command, s]) => ({
      command,
      callsPerEvent: round(s.calls / events, 3),
      usPerEvent: round(s.usec / events, 2),
    }))
    .sort((a, b) => b.usPerEvent - a.usPerEvent);
}

export interface RunShape {
  n: number;
  batch: number;
  concurrency: number;
  run: string;
  idLength?: number;
}

/** One run of `RedisInbox` (`mod`: a callbacks module): append in batches while one worker consumes. */
export async function runOurs(mod: any, command: Client, blocking: Client, shape: RunShape): Promise<number> {
  const { n, batch, concurrency, run } = shape;
  const inbox = new mod.RedisInbox({
    client: mod.fromNodeRedis(command),
    blockingClient: mod.fromNodeRedis(blocking),
    prefix: `{bench-${run}}:`,
    blockMs: 100,
    durability: 'off',
  });
  const events = sampleEvents(n, run, shape.idLength);
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

/** One run of the bare Streams loop of the same shape. */
export async function runBare(command: Client, blocking: Client, shape: RunShape): Promise<number> {
  const { n, batch, concurrency, run } = shape;
  const stream = `{bare-${run}}:events`;
  await command.sendCommand(['XGROUP', 'CREATE', stream, 'workers', '0', 'MKSTREAM']);
  const events = sampleEvents(n, run);
  let acked = 0;
  const started = performance.now();
  const read = ['XREADGROUP', 'GROUP', 'workers', 'c1', 'COUNT', String(concurrency), 'BLOCK', '100'];
  const consume = (async () => {
    while (acked < n) {
      const reply = (await blocking.sendCommand([...read, 'STREAMS', stream, '>'])) as
        | [string, [string, string[]][]][]
        | null;
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

/** A private redis-server and four node-redis connections: commands + blocking read for each side. */
export async function withRedis<T>(
  f: (clients: [Client, Client, Client, Client], redisVersion: string) => Promise<T>,
): Promise<T> {
  const server = await startRedisServer();
  const clients = [0, 1, 2, 3].map(() => createClient({ url: server.url }));
  try {
    await Promise.all(clients.map((c) => c.connect()));
    // no per-command latency histograms (~32 KB each, allocated at a command's first call after
    // CONFIG RESETSTAT): a run whose commands differ from the previous run's counted the difference
    // as its own, +20 bytes per event for the 36-character run that followed a bare one
    await clients[0]!.sendCommand(['CONFIG', 'SET', 'latency-tracking', 'no']);
    const info = String(await clients[0]!.sendCommand(['INFO', 'server']));
    return await f(clients as [Client, Client, Client, Client], /redis_version:(\S+)/.exec(info)?.[1] ?? '?');
  } finally {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await server.stop();
  }
}

function rowOf(mode: 'ours' | 'bare', label: string, runs: readonly RunFigures[]): InboxRow {
  return {
    mode,
    label,
    eventsPerSec: round(median(runs.map((r) => r.rate)), 0),
    runsEventsPerSec: runs.map((r) => round(r.rate, 0)),
    redisCpuUsPerEvent: round(median(runs.map((r) => r.cpuUs)), 1),
    bytesPerEvent: round(median(runs.map((r) => r.bytes)), 1),
  };
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
  const { events: n, batch, concurrency } = opts;
  return withRedis(async ([c1, b1, c2, b2], redisVersion) => {
    const ours: RunFigures[] = [];
    const bare: RunFigures[] = [];
    const oursRun = async (r: number) =>
      ours.push(await measureRun(c1, () => runOurs(mod, c1, b1, { n, batch, concurrency, run: `o${r}` }), n));
    const bareRun = async (r: number) =>
      bare.push(await measureRun(c1, () => runBare(c2, b2, { n, batch, concurrency, run: `b${r}` }), n));
    // one unmeasured warm-up of each, then interleaved rounds (alternating which goes first)
    const warm = { n: Math.min(500, n), batch, concurrency };
    await runOurs(mod, c1, b1, { ...warm, run: 'warm-o' });
    await runBare(c2, b2, { ...warm, run: 'warm-b' });
    for (let r = 0; r < opts.rounds; r++) {
      await c1.sendCommand(['FLUSHALL']);
      for (const side of r % 2 === 0 ? [oursRun, bareRun] : [bareRun, oursRun]) await side(r);
    }
    await c1.sendCommand(['FLUSHALL']);
    const long = await measureRun(
      c1,
      () => runOurs(mod, c1, b1, { n, batch, concurrency, run: 'long', idLength: 36 }),
      n,
    );
    return {
      events: n,
      batch,
      concurrency,
      rounds: opts.rounds,
      redisVersion,
      eventBytes: round(sampleEvents(n, 'size').reduce((sum, e) => sum + JSON.stringify(e).length, 0) / n, 0),
      idLength: round(sampleEvents(n, 'o1').reduce((sum, e) => sum + e.id.length, 0) / n, 1),
      bytesPerEventLongIds: round(long.bytes, 1),
      redisProfile: profileOf(ours, n),
      rows: [
        rowOf('ours', 'RedisInbox: append + consume + settle', ours),
        rowOf('bare', 'bare XADD + XREADGROUP + XACK', bare),
      ],
    };
  });
}
