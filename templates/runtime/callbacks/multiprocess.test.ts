/**
 * Two receiver PROCESSES sharing one real redis-server (RedisDedupeStore, SET NX PX):
 * the same event delivered to each is processed exactly once.
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer } from '../../../test/fixtures/callbacks/redis-server.js';
import type { RedisServerHandle } from '../../../test/fixtures/callbacks/redis-server.js';
import { signCallbackRequest } from './sign.js';

const SECRET = 'whsec_multi_process_K2v';
const script = fileURLToPath(new URL('../../../test/fixtures/callbacks/receiver-process.ts', import.meta.url));

interface Receiver {
  child: ChildProcess;
  port: number;
  processed: string[];
  stderr: string[];
}

async function startReceiver(redisUrl: string, delayMs: number): Promise<Receiver> {
  const child = fork(script, [], {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      REDIS_URL: redisUrl,
      CALLBACK_SECRET: SECRET,
      PROCESS_DELAY_MS: String(delayMs),
      REDIS_PREFIX: 'mp',
    },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  const receiver: Receiver = { child, port: 0, processed: [], stderr: [] };
  child.stderr?.on('data', (d: Buffer) => receiver.stderr.push(d.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`receiver did not start: ${receiver.stderr.join('')}`)), 10_000);
    child.on('message', (m: { type: string; port?: number; id?: string }) => {
      if (m.type === 'listening') {
        receiver.port = m.port!;
        clearTimeout(timer);
        resolve();
      }
      if (m.type === 'processed') receiver.processed.push(m.id!);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`receiver exited (${code}): ${receiver.stderr.join('')}`));
    });
  });
  return receiver;
}

async function stopReceiver(r: Receiver | undefined): Promise<void> {
  if (!r || r.child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    const t = setTimeout(() => {
      r.child.kill('SIGKILL');
      resolve();
    }, 3000);
    r.child.once('exit', () => {
      clearTimeout(t);
      resolve();
    });
    r.child.send('stop');
  });
}

function deliver(port: number, ids: string[]): Promise<number> {
  const { headers, body } = signCallbackRequest({
    body: {
      kind: 'event',
      request_id: `req_${Math.random().toString(16).slice(2)}`,
      endpoint_id: 'ep_1',
      events: ids.map((id) => ({
        id,
        type: 'group.members_added',
        occurred_at: '2026-01-01T00:00:00.000Z',
        attempt: 1,
        data: {},
      })),
    },
    secret: SECRET,
  });
  return fetch(`http://127.0.0.1:${port}/callbacks`, { method: 'POST', headers, body }).then((r) => r.status);
}

describe('two handler processes sharing one redis-server', () => {
  let redis: RedisServerHandle;
  let a: Receiver;
  let b: Receiver;

  beforeAll(async () => {
    redis = await startRedisServer();
    // 300 ms of processing per event: wide enough that, even on a loaded machine, some second delivery meets the first still processing
    [a, b] = await Promise.all([startReceiver(redis.url, 300), startReceiver(redis.url, 300)]);
  }, 20_000);

  afterAll(async () => {
    await Promise.all([stopReceiver(a), stopReceiver(b)]);
    await redis?.stop();
  });

  it('the same event delivered to each process, at the same time and one after the other, is processed once', async () => {
    const run = Date.now().toString(36);
    const ids = Array.from({ length: 20 }, (_, i) => `evt_${run}_${i}`);
    // Concurrently: every id to both processes at once. The delivery that meets the event while
    // the other process is still storing it gets 503 (the service resends later), never a 2xx
    // before the event is stored.
    const pairs = await Promise.all(ids.map((id) => Promise.all([deliver(a.port, [id]), deliver(b.port, [id])])));
    for (const pair of pairs) {
      expect(pair).toContain(200);
      expect(pair.every((s) => s === 200 || s === 503)).toBe(true);
    }
    expect(pairs.flat().filter((s) => s === 503).length).toBeGreaterThan(0);
    // Later redelivery of a batch of all of them to both.
    expect(await deliver(a.port, ids)).toBe(200);
    expect(await deliver(b.port, ids)).toBe(200);
    const all = [...a.processed, ...b.processed].sort();
    expect(all).toEqual([...ids].sort());
    // no id was processed by both processes
    expect(a.processed.filter((id) => b.processed.includes(id))).toEqual([]);
  }, 20_000);
});
