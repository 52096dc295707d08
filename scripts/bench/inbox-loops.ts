/**
 * The loops the inbox bench times (issue 19, 33): `RedisInbox` appending in batches while one
 * worker consumes, and the bare Streams loop of the same shape, each on node-redis connections to
 * a private redis-server (`withRedis`).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import { startRedisServer } from '../../test/fixtures/callbacks/redis-server.js';
import { type Client, countingClient } from './inbox-measure.js';

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

export interface RunShape {
  n: number;
  batch: number;
  concurrency: number;
  run: string;
  idLength?: number;
}

/** A `RedisInbox` of `mod` (a callbacks module) for one run; `sent` counts the commands it sends (countingClient). */
export function oursInbox(mod: any, command: Client, blocking: Client, run: string, sent?: Map<string, number>): any {
  const wrap = (c: Client) => mod.fromNodeRedis(sent ? countingClient(c, sent) : c);
  return new mod.RedisInbox({
    client: wrap(command),
    blockingClient: wrap(blocking),
    prefix: `{bench-${run}}:`,
    blockMs: 100,
    durability: 'off',
  });
}

/** Starts one worker (a handler that does nothing) on `inbox`; `done` settles when the n-th event was acknowledged. */
export function consumeAll(inbox: any, n: number, concurrency: number): { done: Promise<unknown> } {
  let handled = 0;
  const controller = new AbortController();
  let finish!: () => void;
  const finished = new Promise<void>((r) => (finish = r));
  const consuming = inbox.consume(
    () => {
      if (++handled === n) finish();
    },
    { concurrency, signal: controller.signal },
  );
  // the last handler has returned; its settle (the ack) is what ends the run
  const done = finished.then(() => {
    controller.abort();
    return consuming;
  });
  return { done };
}

/** Throws unless `inbox` processed exactly `n` events and holds none. */
export async function checkAllProcessed(inbox: any, n: number): Promise<void> {
  const stats = await inbox.stats();
  if (stats.processed !== n || stats.pending !== 0)
    throw new Error(`inbox bench: ${JSON.stringify(stats)} after ${n} events`);
}

/** Appends `events` to `inbox` in batches of `batch`, one batch after the other. */
export async function appendAll(inbox: any, events: readonly unknown[], batch: number): Promise<void> {
  for (let i = 0; i < events.length; i += batch) await inbox.append(events.slice(i, i + batch));
}

/** One run of `RedisInbox` (`mod`: a callbacks module): append in batches while one worker consumes. */
export async function runOurs(mod: any, command: Client, blocking: Client, shape: RunShape): Promise<number> {
  const { n, batch, concurrency, run } = shape;
  const inbox = oursInbox(mod, command, blocking, run);
  const events = sampleEvents(n, run, shape.idLength);
  const started = performance.now();
  const consumed = consumeAll(inbox, n, concurrency);
  await appendAll(inbox, events, batch);
  await consumed.done;
  const ms = performance.now() - started;
  await checkAllProcessed(inbox, n);
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

const repo = fileURLToPath(new URL('../..', import.meta.url));

/** The runtime at `rev`, unpacked into a temporary directory (git archive). */
export function runtimeAt(revision: string): { dir: string; callbacks: string } {
  const dir = mkdtempSync(join(tmpdir(), 'inbox-ab-'));
  const tar = execFileSync('git', ['-C', repo, 'archive', revision, 'templates/runtime'], {
    maxBuffer: 1 << 28,
  });
  mkdirSync(dir, { recursive: true });
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  return { dir, callbacks: join(dir, 'templates/runtime/callbacks/index.ts') };
}
