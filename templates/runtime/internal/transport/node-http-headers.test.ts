import { Agent, createServer, type ClientRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { NEVER_ABORTED } from '../call-scope.js';
import { nodeTransport } from './node-http.js';

// The default agent gets the headers as a flat array (no setHeader per header): what arrives must
// be what the object form sent, Host included; a user's agent still gets the object form.
let server: Server;
let url = '';
const seen: { headers: IncomingHttpHeaders; raw: string[] }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ headers: req.headers, raw: req.rawHeaders });
    res.end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const send = (transport: ReturnType<typeof nodeTransport>, headers: Record<string, string>, body?: string) =>
  transport({
    method: body === undefined ? 'GET' : 'POST',
    url: `${url}/h`,
    headers,
    body,
    timeoutMs: 5_000,
    maxBytes: 1000,
    signal: NEVER_ABORTED,
  });

const names = (raw: string[]) => raw.filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase());

describe('node transport request headers', () => {
  test('the default agent sends each header once, with Host and keep-alive as Node adds them', async () => {
    const t = nodeTransport({ origin: url });
    seen.length = 0;
    expect(
      await send(t, { accept: 'application/json', authorization: 'Bearer x', 'x-one': 'a b' }, '{"a":1}'),
    ).toMatchObject({ kind: 'response', status: 200 });
    const { headers, raw } = seen[0]!;
    expect(headers).toMatchObject({
      accept: 'application/json',
      authorization: 'Bearer x',
      'x-one': 'a b',
      host: url.slice('http://'.length),
      connection: 'keep-alive',
      'content-length': '7',
      'accept-encoding': 'gzip, deflate, br',
    });
    expect(names(raw).sort()).toEqual([
      'accept',
      'accept-encoding',
      'authorization',
      'connection',
      'content-length',
      'host',
      'x-one',
    ]);
  });

  test("a caller's own Host header is sent instead of Node's, once", async () => {
    const t = nodeTransport({ origin: url });
    seen.length = 0;
    await send(t, { host: 'example.test' });
    expect(seen[0]!.headers.host).toBe('example.test');
    expect(names(seen[0]!.raw).filter((n) => n === 'host')).toHaveLength(1);
  });

  test('a header value Node refuses is a network outcome, nothing sent', async () => {
    const t = nodeTransport({ origin: url });
    seen.length = 0;
    const o = await send(t, { 'x-bad': 'a\nb' });
    expect(o).toMatchObject({ kind: 'network', errorCode: 'ERR_INVALID_CHAR' });
    expect(seen).toHaveLength(0);
  });

  test("a user's agent may still set headers on the request (object form)", async () => {
    // addRequest is Node's (undocumented) hook where http proxy agents rewrite the request
    const agent = new Agent({ keepAlive: true });
    const base = (agent as unknown as { addRequest(r: ClientRequest, o: object): void }).addRequest;
    (agent as unknown as { addRequest(r: ClientRequest, o: object): void }).addRequest = function (req, options) {
      req.setHeader('x-added-by-agent', 'yes');
      base.call(this, req, options);
    };
    const t = nodeTransport({ origin: url, agent });
    seen.length = 0;
    expect(await send(t, { accept: 'text/plain' })).toMatchObject({ kind: 'response', status: 200 });
    expect(seen[0]!.headers).toMatchObject({ 'x-added-by-agent': 'yes', accept: 'text/plain' });
    agent.destroy();
  });
});
