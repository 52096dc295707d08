/**
 * Issue 16, receiver side: nothing waits without limit.
 * - item 2: a body that arrives slowly (raw `net` socket) is answered 408 within `bodyTimeoutMs`
 *   of its arrival and its socket closed; after a 413 the socket is closed, not drained.
 * - item 1: a nonce/dedupe store that stops answering (a real redis-server under SIGSTOP, through
 *   node-redis) never hangs the receiver: a hook is answered within its timeout_ms counted from
 *   the request's arrival, an event batch gets 503 within the store budget.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createClient } from 'redis';
import { afterEach, describe, expect, it } from 'vitest';
import { startRedisServer, type RedisServerHandle } from '../../../test/fixtures/callbacks/redis-server.js';
import { allow } from './decisions.js';
import { DEFAULT_BODY_TIMEOUT_MS, readWebBody } from './handler.js';
import { createCallbackHandler } from './node.js';
import { createNodeCallbackHandler } from './node.js';
import { signCallbackRequest } from './sign.js';
import { RedisDedupeStore } from '../stores/dedupe-store.js';
import { fromNodeRedis } from '../stores/redis-client.js';
import { rawSocket as openRawSocket, within } from '../test-support/raw-socket.js';

const SECRET = 'whsec-receiver-limits-test-secret';
const servers: Server[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await Promise.all(
    servers.splice(0).map((s) => new Promise<void>((r) => (s.closeAllConnections(), s.close(() => r())))),
  );
});

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; port: number }> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as AddressInfo).port };
}

const rawSocket = (port: number) => openRawSocket(port, sockets);

describe('item 2 (receiver): slow bodies and 413s do not hold sockets', () => {
  it('the default read deadline is the longest the service waits: 10 s', () => {
    expect(DEFAULT_BODY_TIMEOUT_MS).toBe(10_000);
  });

  it('a 1 MiB body that stops arriving is answered 408 within bodyTimeoutMs and its socket closed', async () => {
    // Before: no answer and the socket open after 3 s (Node's own request timeout is 300 s).
    const handler = createNodeCallbackHandler({
      secrets: SECRET,
      bodyTimeoutMs: 300,
      onEvent: () => undefined,
      logger: {},
    });
    const { server, port } = await listen(handler);
    const conns = Array.from({ length: 20 }, () => rawSocket(port));
    for (const c of conns) {
      c.socket.write(
        `POST /cb HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${1024 * 1024}\r\n\r\n`,
      );
      c.socket.write(Buffer.alloc(512 * 1024, 0x61)); // half of it, then nothing
    }
    const closed = await Promise.all(conns.map((c) => within(3_000, c.closedAfter)));
    expect(closed.every((t) => typeof t === 'number' && t < 2_000)).toBe(true);
    for (const c of conns) expect(c.received()).toMatch(/^HTTP\/1\.1 408 /);
    const open = await new Promise<number>((r) => server.getConnections((_e, n) => r(n)));
    expect(open).toBe(0);
    console.info(
      `[receiver] 20 slow 1 MiB bodies: 408 and closed after ${Math.max(...(closed as number[]))} ms at most; open connections after: ${open}`,
    );
  });

  it('after a 413 the socket is closed even while the sender keeps sending', async () => {
    // Before: the rest of the body was drained (req.resume()) for as long as the sender kept sending.
    const handler = createNodeCallbackHandler({ secrets: SECRET, onEvent: () => undefined, logger: {} });
    const { port } = await listen(handler);
    const declared = rawSocket(port);
    declared.socket.write(`POST /cb HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${8 * 1024 * 1024}\r\n\r\n`);
    const chunked = rawSocket(port);
    chunked.socket.write('POST /cb HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n');
    const piece = Buffer.alloc(64 * 1024, 0x62);
    const pump = setInterval(() => {
      for (const c of [declared, chunked]) {
        if (c.socket.destroyed) continue;
        if (c === chunked) c.socket.write(`${piece.length.toString(16)}\r\n`);
        c.socket.write(piece);
        if (c === chunked) c.socket.write('\r\n');
      }
    }, 20);
    try {
      const [a, b] = await Promise.all([within(4_000, declared.closedAfter), within(4_000, chunked.closedAfter)]);
      expect(typeof a).toBe('number');
      expect(typeof b).toBe('number');
      expect(declared.received()).toMatch(/^HTTP\/1\.1 413 /);
      expect(chunked.received()).toMatch(/^HTTP\/1\.1 413 /);
      console.info(
        `[receiver] 413 then closed: declared length after ${String(a)} ms, chunked after ${String(b)} ms (sender still sending)`,
      );
    } finally {
      clearInterval(pump);
    }
  });

  it('the Web handler gives up a body stream that stalls (readWebBody → timeout → 408)', async () => {
    const stalled = () =>
      new Request('http://x/cb', {
        method: 'POST',
        body: new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(new Uint8Array(10)) }), // never closed
        duplex: 'half',
      } as RequestInit);
    expect(await readWebBody(stalled(), 1024, 100)).toBe('timeout');
    const handler = createCallbackHandler({
      secrets: SECRET,
      bodyTimeoutMs: 100,
      onEvent: () => undefined,
      logger: {},
    });
    const started = Date.now();
    const res = await handler(stalled());
    expect(res.status).toBe(408);
    expect(Date.now() - started).toBeLessThan(10_000); // 100 ms budget; the bound only tells a timeout from a hang
  });
});

describe('item 1 (receiver): a stalled Redis nonce/dedupe store (SIGSTOP) never hangs the receiver', () => {
  let redisServer: RedisServerHandle | undefined;
  let redis: ReturnType<typeof createClient> | undefined;
  afterEach(async () => {
    redisServer?.resume();
    redis?.destroy();
    await redisServer?.stop();
    redisServer = undefined;
    redis = undefined;
  });

  async function stalledStore(): Promise<RedisDedupeStore> {
    redisServer = await startRedisServer();
    redis = createClient({ url: redisServer.url });
    redis.on('error', () => undefined);
    await redis.connect();
    const store = new RedisDedupeStore({ client: fromNodeRedis(redis) });
    expect(await store.claim('warm', 1_000)).toBe(true);
    redisServer.pause();
    return store;
  }

  const post = async (port: number, body: object): Promise<{ status: number; headers: Headers; ms: number }> => {
    const signed = signCallbackRequest({ body, secret: SECRET });
    const started = Date.now();
    const res = await fetch(`http://127.0.0.1:${port}/cb`, {
      method: 'POST',
      headers: signed.headers,
      body: signed.body,
      signal: AbortSignal.timeout(8_000),
    }).catch((e: unknown) => e);
    if (!(res instanceof Response)) return { status: -1, headers: new Headers(), ms: Date.now() - started };
    await res.text();
    return { status: res.status, headers: res.headers, ms: Date.now() - started };
  };

  it('a hook is answered within its timeout_ms from arrival with the default decision (nonce store stalled)', async () => {
    // Before: no answer at all (the nonce claim waited for Redis): the fetch was aborted after 8 s.
    const store = await stalledStore();
    const handler = createNodeCallbackHandler({
      secrets: SECRET,
      nonceStore: store,
      onHook: () => allow(),
      logger: {},
    });
    const { port } = await listen(handler);
    const r = await post(port, {
      kind: 'hook',
      hook: 'message.before_send',
      request_id: 'req_1',
      endpoint_id: 'ep_1',
      timeout_ms: 1_000,
      test: false,
      data: {},
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-im-hook-fallback')).toBe('store_unavailable');
    expect(r.ms).toBeLessThan(1_000);
    console.info(`[receiver] hook with a stalled nonce store answered in ${r.ms} ms (timeout_ms 1000)`);
  });

  it('an event batch gets 503 within the store budget (dedupe store stalled), so the service redelivers', async () => {
    // Before: no answer (begin() waited for Redis): the fetch was aborted after 8 s.
    const store = await stalledStore();
    const handler = createNodeCallbackHandler({
      secrets: SECRET,
      dedupeStore: store,
      storeTimeoutMs: 500,
      onEvent: () => undefined,
      logger: {},
    });
    const { port } = await listen(handler);
    const r = await post(port, {
      kind: 'event',
      request_id: 'req_2',
      endpoint_id: 'ep_1',
      events: [{ id: 'ev_1', type: 'message.sent', data: {} }],
    });
    expect(r.status).toBe(503);
    expect(r.ms).toBeLessThan(1_500);
    console.info(`[receiver] event batch with a stalled dedupe store answered 503 in ${r.ms} ms (budget 500)`);
  });
});
