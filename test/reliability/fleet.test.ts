/**
 * Issue 9, "a fleet sharing one token": 4 business-server PROCESSES × 50 concurrent calls share
 * one App Token through a RedisTokenStore on one real redis-server, against one node:http fake
 * service that counts token exchanges. Through an expiry and through a 401 (token revoked by the
 * service), exactly one exchange reaches the service per token generation. A process killed
 * (SIGKILL) while it holds the exchange lock blocks the others only until the lock expires.
 * The store never holds the client secret, and the stored token expires in Redis with the token.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type RedisServerHandle } from '../fixtures/callbacks/redis-server.js';

const WORKER = fileURLToPath(new URL('./fleet-worker.ts', import.meta.url));
const SECRET = 'fleet-CLIENT-SECRET-canary-5e1f9c';
/** The seed's minimum lifetime (the client clamps shorter ones up to it); expiry is reached by moving the clocks. */
const EXPIRES_IN_S = 300;
const PROCESSES = 4;
const CALLS = 50;

interface TokenRecord {
  generation: number;
  expiresAt: number;
  revoked: boolean;
}

/** The fake service: one token per exchange (a new generation), 401 for expired or revoked tokens. */
class FleetService {
  server!: Server;
  baseUrl = '';
  readonly tokens = new Map<string, TokenRecord>();
  exchanges = 0;
  /** Bearer tokens seen on operation requests, with the answer. */
  readonly calls: Array<{ token: string; status: number }> = [];
  exchangeBodies: string[] = [];
  /** The service's clock offset (moved together with the workers'). */
  offsetMs = 0;
  now(): number {
    return Date.now() + this.offsetMs;
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        res.setHeader('content-type', 'application/json');
        if (req.method === 'POST' && req.url === '/fleet/app/token') {
          this.exchanges += 1;
          this.exchangeBodies.push(body);
          const token = `fleet-token-gen-${this.exchanges}-${Math.random().toString(36).slice(2)}`;
          this.tokens.set(token, {
            generation: this.exchanges,
            expiresAt: this.now() + EXPIRES_IN_S * 1000,
            revoked: false,
          });
          // A little latency so that the exchange is really concurrent with the other processes.
          setTimeout(
            () => res.end(JSON.stringify({ access_token: token, expires_in: EXPIRES_IN_S, application: 'fleet-app' })),
            50,
          );
          return;
        }
        const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
        const record = this.tokens.get(token);
        const valid = record !== undefined && !record.revoked && this.now() < record.expiresAt;
        this.calls.push({ token, status: valid ? 200 : 401 });
        if (!valid) {
          res.statusCode = 401;
          res.end(
            JSON.stringify({
              error: { code: 'unauthenticated', message: 'token invalid or expired', request_id: 'r-401' },
            }),
          );
          return;
        }
        res.end(JSON.stringify({ username: req.url?.split('/').pop() }));
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  generationOf(token: string): number | undefined {
    return this.tokens.get(token)?.generation;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }
}

interface Worker {
  child: ChildProcess;
  messages: any[];
  next(type: string, timeoutMs?: number): Promise<any>;
}

function spawnWorker(env: Record<string, string>): Worker {
  const child = fork(WORKER, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const messages: any[] = [];
  const waiters: Array<{ type: string; resolve: (m: any) => void }> = [];
  child.on('message', (m: any) => {
    const i = waiters.findIndex((w) => w.type === m.type);
    if (i >= 0) waiters.splice(i, 1)[0]!.resolve(m);
    else messages.push(m);
  });
  return {
    child,
    messages,
    next(type, timeoutMs = 20_000) {
      const i = messages.findIndex((m) => m.type === type);
      if (i >= 0) return Promise.resolve(messages.splice(i, 1)[0]);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`worker ${child.pid}: no ${type} within ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiters.push({ type, resolve: (m) => (clearTimeout(timer), resolve(m)) });
        child.once('exit', (code, signal) =>
          reject(new Error(`worker ${child.pid} exited (${code ?? signal}) before ${type}`)),
        );
      });
    },
  };
}

async function stopWorker(w: Worker): Promise<void> {
  if (w.child.exitCode !== null || w.child.signalCode !== null) return;
  const exited = new Promise<void>((r) => w.child.once('exit', () => r()));
  if (w.child.connected) w.child.send({ type: 'exit' });
  const timer = setTimeout(() => w.child.kill('SIGKILL'), 3_000);
  await exited;
  clearTimeout(timer);
}

async function wave(workers: Worker[], n: number): Promise<any[]> {
  for (const w of workers) w.child.send({ type: 'wave', wave: n, calls: CALLS });
  return Promise.all(workers.map((w) => w.next('wave-done')));
}

describe('a fleet of processes sharing one App Token through Redis', () => {
  let redisServer: RedisServerHandle;
  let redis: ReturnType<typeof createClient>;
  const service = new FleetService();
  const workers: Worker[] = [];

  beforeAll(async () => {
    [redisServer] = await Promise.all([startRedisServer(), service.start()]);
    redis = createClient({ url: redisServer.url });
    await redis.connect();
  });
  afterAll(async () => {
    await Promise.all(workers.map(stopWorker));
    await redis?.close().catch(() => undefined);
    await redisServer?.stop();
    await service.stop();
  });

  async function scanRedis(): Promise<Array<{ key: string; value: string | null; pttl: number }>> {
    const out: Array<{ key: string; value: string | null; pttl: number }> = [];
    for await (const keys of redis.scanIterator({ MATCH: '*' })) {
      for (const key of [keys].flat())
        out.push({ key, value: await redis.get(key), pttl: Number(await redis.pTTL(key)) });
    }
    return out;
  }

  it(`${PROCESSES} processes × ${CALLS} concurrent calls: one exchange per token generation (start, expiry, 401)`, async () => {
    const env = {
      REDIS_URL: redisServer.url,
      BASE_URL: service.baseUrl,
      LOCK_TTL_MS: '5000',
      CLIENT_SECRET: SECRET,
      MODE: 'normal',
    };
    const fleet = Array.from({ length: PROCESSES }, () => spawnWorker(env));
    workers.push(...fleet);
    await Promise.all(fleet.map((w) => w.next('ready')));
    const report: string[] = [];
    const check = (results: any[], generation: number, label: string) => {
      for (const r of results) expect(r.errors, label).toEqual([]);
      expect(results.reduce((s, r) => s + r.ok, 0)).toBe(PROCESSES * CALLS);
      expect(service.exchanges, `${label}: exchanges`).toBe(generation);
      report.push(
        `${label}: ${PROCESSES * CALLS} calls ok, exchanges so far ${service.exchanges}, slowest process ${Math.max(...results.map((r) => r.ms))} ms`,
      );
    };

    // 1. Cold start: 200 calls across 4 processes need a token at the same moment.
    service.calls.length = 0;
    check(await wave(fleet, 1), 1, 'start');
    expect(new Set(service.calls.map((c) => service.generationOf(c.token)))).toEqual(new Set([1]));

    // The stored token: under the client's key, PX = its remaining lifetime; no secret anywhere.
    let entries = await scanRedis();
    const tokenEntries = entries.filter((e) => e.value?.includes('accessToken'));
    expect(tokenEntries).toHaveLength(1);
    expect(tokenEntries[0]!.key).toContain('fleet#app');
    expect(tokenEntries[0]!.pttl).toBeGreaterThan(EXPIRES_IN_S * 1000 - 30_000);
    expect(tokenEntries[0]!.pttl).toBeLessThanOrEqual(EXPIRES_IN_S * 1000);
    for (const e of entries) {
      expect(e.key).not.toContain(SECRET);
      expect(e.value ?? '').not.toContain(SECRET);
    }
    expect(service.exchangeBodies.every((b) => b.includes(SECRET))).toBe(true); // the secret did go where it belongs

    // 2. Expiry: every clock moves past the token's expiry (Redis still holds it: its PX is real
    //    time); the next 200 calls share one new exchange.
    const gen1 = [...service.tokens.values()].find((t) => t.generation === 1)!;
    const offsetMs = gen1.expiresAt - Date.now() + 1_000;
    service.offsetMs = offsetMs;
    for (const w of fleet) w.child.send({ type: 'clock', offsetMs });
    await Promise.all(fleet.map((w) => w.next('clock-set')));
    service.calls.length = 0;
    check(await wave(fleet, 2), 2, 'after expiry');
    expect(new Set(service.calls.map((c) => service.generationOf(c.token)))).toEqual(new Set([2]));

    // 3. The service revokes generation 2 (401 unauthenticated): each process learns it from its
    //    own 401, but only one exchanges; the others find the new token in Redis.
    for (const t of service.tokens.values()) if (t.generation === 2) t.revoked = true;
    service.calls.length = 0;
    const third = await wave(fleet, 3);
    check(third, 3, 'after a 401');
    const refused = service.calls.filter((c) => c.status === 401);
    expect(refused.length).toBeGreaterThanOrEqual(PROCESSES);
    expect(new Set(refused.map((c) => service.generationOf(c.token)))).toEqual(new Set([2]));
    expect(new Set(service.calls.filter((c) => c.status === 200).map((c) => service.generationOf(c.token)))).toEqual(
      new Set([3]),
    );
    report.push(`after a 401: ${refused.length} answers 401, every one resent once with generation 3`);
    const events = third.flatMap((r) => r.events);
    expect(events.filter((e: string) => e === 'exchanged')).toHaveLength(1);

    entries = await scanRedis();
    for (const e of entries) expect(`${e.key} ${e.value}`).not.toContain(SECRET);
    expect(entries.filter((e) => e.key.endsWith(':lock'))).toHaveLength(0);
    console.log(`[fleet] ${report.join('; ')}`);
  });

  it('a process killed while holding the exchange lock blocks the others only until the lock expires', async () => {
    await redis.flushAll();
    const before = service.exchanges;
    const LOCK_TTL_MS = 1_500;
    const env = {
      REDIS_URL: redisServer.url,
      BASE_URL: service.baseUrl,
      LOCK_TTL_MS: String(LOCK_TTL_MS),
      CLIENT_SECRET: SECRET,
    };
    const others = [spawnWorker({ ...env, MODE: 'normal' }), spawnWorker({ ...env, MODE: 'normal' })];
    const holder = spawnWorker({ ...env, MODE: 'hang-exchange' });
    workers.push(...others, holder);
    await Promise.all([...others, holder].map((w) => w.next('ready')));

    holder.child.send({ type: 'wave', wave: 1, calls: 1 });
    await holder.next('exchanging');
    const lockKeys = (await scanRedis()).filter((e) => e.key.endsWith(':lock'));
    expect(lockKeys).toHaveLength(1);
    const lockedAt = Date.now() - (LOCK_TTL_MS - lockKeys[0]!.pttl);
    const died = new Promise<void>((r) => holder.child.once('exit', () => r()));
    holder.child.kill('SIGKILL');
    await died;

    const results = await wave(others, 2);
    const finished = Date.now();
    for (const r of results) expect(r.errors).toEqual([]);
    expect(service.exchanges - before).toBe(1); // the dead holder's exchange never reached the service
    const blockedMs = finished - lockedAt;
    expect(blockedMs).toBeGreaterThanOrEqual(LOCK_TTL_MS - 100);
    expect(blockedMs).toBeLessThan(LOCK_TTL_MS + 2_000);
    console.log(
      `[fleet] holder killed with the lock: the others got a token ${blockedMs} ms after the lock was taken (lock TTL ${LOCK_TTL_MS} ms), 1 exchange`,
    );
  });
});
