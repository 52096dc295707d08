import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { NEVER_ABORTED } from '../call-scope.js';
import type { AttemptOutcome } from '../http-attempt.js';
import { nodeTransport } from './node-http.js';

/** A 127.0.0.1 server that answers after `delayMs` and counts its connections and their closes. */
async function server(opts: { keepAliveTimeoutMs: number; delayMs?: number }) {
  const sockets: Socket[] = [];
  let closed = 0;
  const s: Server = createServer((_req, res) => {
    setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'), opts.delayMs ?? 0);
  });
  s.keepAliveTimeout = opts.keepAliveTimeoutMs;
  s.on('connection', (socket: Socket) => {
    sockets.push(socket);
    socket.on('close', () => (closed += 1));
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  servers.push(s);
  return {
    url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`,
    connections: () => sockets.length,
    closed: () => closed,
  };
}

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

const get = (send: ReturnType<typeof nodeTransport>, url: string): Promise<AttemptOutcome> =>
  send({
    method: 'GET',
    url: `${url}/x`,
    headers: {},
    body: undefined,
    timeoutMs: 5_000,
    maxBytes: 1000,
    signal: NEVER_ABORTED,
  });

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return check();
}

describe('the default agent drops idle sockets itself (idle-drop-agent.ts)', () => {
  test('one connection for calls in a row; closed by the client after idleMs of silence', async () => {
    const srv = await server({ keepAliveTimeoutMs: 30_000 }); // hint timeout=30: longer than idleMs
    const send = nodeTransport({ origin: srv.url, idleMs: 150 });
    for (let i = 0; i < 3; i++)
      expect(await get(send, srv.url)).toMatchObject({ kind: 'response', status: 200, bodyText: 'ok' });
    expect(srv.connections()).toBe(1);
    expect(srv.closed()).toBe(0);
    expect(await until(() => srv.closed() === 1, 2_000)).toBe(true);
    // the next call opens a new connection and works
    expect(await get(send, srv.url)).toMatchObject({ kind: 'response', status: 200 });
    expect(srv.connections()).toBe(2);
  });

  test('a request slower than idleMs is not cut (the socket is busy), and the socket is reused after it', async () => {
    const srv = await server({ keepAliveTimeoutMs: 30_000, delayMs: 300 });
    const send = nodeTransport({ origin: srv.url, idleMs: 100 });
    expect(await get(send, srv.url)).toMatchObject({ kind: 'response', status: 200, bodyText: 'ok' });
    expect(await get(send, srv.url)).toMatchObject({ kind: 'response', status: 200, bodyText: 'ok' });
    expect(srv.connections()).toBe(1);
  });

  test("the server's Keep-Alive hint shortens the idle time; a hint of 1 s means the socket is not kept", async () => {
    const short = await server({ keepAliveTimeoutMs: 1_000 }); // Keep-Alive: timeout=1
    const send = nodeTransport({ origin: short.url, idleMs: 60_000 });
    await get(send, short.url);
    expect(await until(() => short.closed() === 1, 1_000)).toBe(true);
    await get(send, short.url);
    expect(short.connections()).toBe(2);

    const hinted = await server({ keepAliveTimeoutMs: 2_000 }); // timeout=2 → kept 1 s, not 60 s
    const send2 = nodeTransport({ origin: hinted.url, idleMs: 60_000 });
    await get(send2, hinted.url);
    const started = Date.now();
    expect(await until(() => hinted.closed() === 1, 3_000)).toBe(true);
    // closed by the client at ~1 s, before the server's own 2 s
    expect(Date.now() - started).toBeLessThan(1_900);
  });
});
