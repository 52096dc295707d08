/**
 * The attempt contract of both transports (issue 18), against real servers on 127.0.0.1: this
 * file runs once per transport (vitest projects `default` = node, `fetch-transport` = fetch).
 * Each test drives the transport the client would use, with the client's own choice logic.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { ClientOptions } from '../../core/options.js';
import { ERROR_BODY_BYTES, type AttemptOutcome, type AttemptRequest } from '../http-attempt.js';
import { NEVER_ABORTED } from '../call-scope.js';
import { chooseTransport } from './choose.js';
import { makeClient, ops, transportUnderTest } from '../../test-support/fake-service.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;

const kind = transportUnderTest();
let server: Server;
let baseUrl: string;
let handler: Handler;
let connections = 0;
const sockets = new Set<Socket>();

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handler(req, res, Buffer.concat(chunks)));
  });
  server.on('connection', (s: Socket) => {
    connections += 1;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((r) => server.close(() => r()));
});
beforeEach(() => {
  handler = (_req, res) => res.end('{}');
});

let transport: ReturnType<typeof chooseTransport>['send'];
beforeAll(() => {
  transport = chooseTransport({ transport: kind } as ClientOptions, baseUrl).send;
});

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

const attempt = (over: Partial<AttemptRequest> = {}): Promise<AttemptOutcome> =>
  transport({
    method: 'GET',
    url: `${baseUrl}/x`,
    headers: {},
    body: undefined,
    timeoutMs: 2_000,
    maxBytes: 1_000_000,
    signal: NEVER_ABORTED,
    ...over,
  });

const textOf = (o: AttemptOutcome): string => {
  if (o.kind !== 'response') throw new Error(`expected a response, got ${JSON.stringify(o)}`);
  return o.bodyText;
};

describe(`${kind} transport`, () => {
  test('the client picks it: default on Node is node, a fetch option means fetch', () => {
    expect(chooseTransport({} as ClientOptions, baseUrl).kind).toBe('node');
    expect(chooseTransport({ fetch: globalThis.fetch } as ClientOptions, baseUrl).kind).toBe('fetch');
    expect(chooseTransport({ transport: kind } as ClientOptions, baseUrl).kind).toBe(kind);
  });

  test('off Node (no process.getBuiltinModule, or Bun/Deno globals) the default is fetch; asking for node there is a ConfigError', () => {
    const proc = process as { getBuiltinModule?: unknown };
    const saved = proc.getBuiltinModule;
    try {
      proc.getBuiltinModule = undefined;
      expect(chooseTransport({} as ClientOptions, baseUrl).kind).toBe('fetch');
      expect(() => chooseTransport({ transport: 'node' } as ClientOptions, baseUrl)).toThrow(
        /transport.*Node >= 20\.16/,
      );
      expect(() => chooseTransport({ proxy: 'env' } as ClientOptions, baseUrl)).toThrow(/proxy.*node transport only/);
    } finally {
      proc.getBuiltinModule = saved;
    }
    for (const name of ['Bun', 'Deno'] as const) {
      (globalThis as Record<string, unknown>)[name] = {};
      try {
        expect(chooseTransport({} as ClientOptions, baseUrl).kind, name).toBe('fetch');
      } finally {
        delete (globalThis as Record<string, unknown>)[name];
      }
    }
  });

  test('a JSON answer: status, headers (case-insensitive, one view), body text without BOM', async () => {
    handler = (_req, res) => {
      res.setHeader('Set-Cookie', ['a=1', 'b=2']);
      res.setHeader('X-Request-Id', 'req-7');
      res.writeHead(201, { 'content-type': 'application/json' }).end('\uFEFF{"ok":true}');
    };
    const o = await attempt();
    expect(o).toMatchObject({ kind: 'response', status: 201, bodyText: '{"ok":true}' });
    if (o.kind !== 'response') return;
    expect(o.headers.get('X-REQUEST-ID')).toBe('req-7');
    expect(o.headers.get('set-cookie')).toBe('a=1, b=2');
    expect(o.headers.get('absent')).toBeNull();
    const seen: Record<string, string> = {};
    o.headers.forEach((v, n) => (seen[n] = v));
    expect(seen['x-request-id']).toBe('req-7');
  });

  test('the attempt timeout covers the body read: headers then a stalled body end as timeout', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"partial":');
    };
    const started = Date.now();
    expect(await attempt({ timeoutMs: 150 })).toEqual({ kind: 'timeout' });
    expect(Date.now() - started).toBeLessThan(10_000); // the bound only tells the timeout from a hang
  });

  test("the call's signal ends the attempt (kind 'ended', with the reason)", async () => {
    handler = () => undefined; // never answers
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('caller gave up')), 50);
    const o = await attempt({ signal: controller.signal, timeoutMs: 5_000 });
    expect(o.kind).toBe('ended');
  });

  test('an already aborted signal sends nothing', async () => {
    let seen = 0;
    handler = (_req, res) => {
      seen += 1;
      res.end('{}');
    };
    const controller = new AbortController();
    controller.abort();
    expect((await attempt({ signal: controller.signal })).kind).toBe('ended');
    expect(seen).toBe(0);
  });

  test('a redirect is an answer, never followed', async () => {
    let hits = 0;
    handler = (_req, res) => {
      hits += 1;
      res.writeHead(302, { location: `${baseUrl}/elsewhere` }).end('moved');
    };
    const o = await attempt();
    expect(o).toMatchObject({ kind: 'response', status: 302, bodyText: 'moved' });
    if (o.kind === 'response') expect(o.headers.get('location')).toBe(`${baseUrl}/elsewhere`);
    expect(hits).toBe(1);
  });

  test('a success body over maxBytes is too-large, with or without Content-Length', async () => {
    handler = (_req, res) => res.writeHead(200, { 'content-length': '5000' }).end('x'.repeat(5000));
    expect(await attempt({ maxBytes: 1000 })).toMatchObject({ kind: 'too-large', status: 200, limitBytes: 1000 });
    handler = (_req, res) => {
      res.writeHead(200);
      res.write('x'.repeat(800));
      res.end('y'.repeat(800));
    };
    expect(await attempt({ maxBytes: 1000 })).toMatchObject({ kind: 'too-large', limitBytes: 1000 });
    expect(textOf(await attempt({ maxBytes: 1600 }))).toHaveLength(1600);
  });

  test('an error body is cut at ERROR_BODY_BYTES, not refused', async () => {
    handler = (_req, res) => res.writeHead(500).end('e'.repeat(ERROR_BODY_BYTES + 5000));
    const o = await attempt();
    expect(o).toMatchObject({ kind: 'response', status: 500 });
    expect(textOf(o)).toHaveLength(ERROR_BODY_BYTES);
  });

  test.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['deflate', deflateRawSync],
    ['br', brotliCompressSync],
  ] as const)('%s answers are decoded, and bounded after decoding', async (coding, compress) => {
    const json = JSON.stringify({ items: Array.from({ length: 500 }, (_, i) => ({ i, name: `user-${i}` })) });
    handler = (_req, res) =>
      res
        .writeHead(200, { 'content-encoding': coding, 'content-type': 'application/json' })
        .end(compress(Buffer.from(json)));
    expect(textOf(await attempt())).toBe(json);
    // the compressed size is far below the bound, the decoded one above it
    handler = (_req, res) =>
      res.writeHead(200, { 'content-encoding': coding }).end(compress(Buffer.alloc(4_000_000, 'a')));
    expect(await attempt({ maxBytes: 100_000 })).toMatchObject({ kind: 'too-large', limitBytes: 100_000 });
    // an empty body that says it is compressed is an empty answer
    handler = (_req, res) => res.writeHead(200, { 'content-encoding': coding }).end();
    expect(textOf(await attempt())).toBe('');
  });

  test('a binary success body comes as a web stream, not covered by the attempt timeout once headers came', async () => {
    const payload = Buffer.alloc(300_000, 7);
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.write(payload.subarray(0, 1000));
      setTimeout(() => res.end(payload.subarray(1000)), 200);
    };
    const o = await attempt({ timeoutMs: 100, streamsStatus: (s) => s === 200 });
    expect(o.kind).toBe('response');
    if (o.kind !== 'response' || !o.stream) throw new Error('no stream');
    expect(o.stream).toBeInstanceOf(ReadableStream);
    const bytes = Buffer.from(await new Response(o.stream).arrayBuffer());
    expect(bytes.equals(payload)).toBe(true);
  });

  test('a refused connection is a network outcome with its code', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const o = await chooseTransport({ transport: kind } as ClientOptions, url).send({
      method: 'GET',
      url: `${url}/x`,
      headers: {},
      body: undefined,
      timeoutMs: 2_000,
      maxBytes: 1000,
      signal: NEVER_ABORTED,
    });
    expect(o).toMatchObject({ kind: 'network', errorCode: 'ECONNREFUSED' });
  });

  test('a reset before the answer is a network outcome (ECONNRESET), mid-body too', async () => {
    handler = (req) => req.socket.destroy();
    expect(await attempt()).toMatchObject({ kind: 'network' });
    handler = (_req, res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('x'.repeat(100), () => res.socket?.destroy());
    };
    expect((await attempt()).kind).toBe('network');
  });

  const bodies: Array<[string, () => unknown, string]> = [
    ['string', () => 'héllo', 'héllo'],
    ['Uint8Array', () => new TextEncoder().encode('bytes'), 'bytes'],
    ['ArrayBuffer', () => new TextEncoder().encode('buffer').buffer, 'buffer'],
    ['Blob', () => new Blob(['a', 'blob']), 'ablob'],
    ['URLSearchParams', () => new URLSearchParams({ a: '1 2' }), 'a=1+2'],
  ];
  test.each(bodies)('a %s body arrives byte for byte', async (_name, make, want) => {
    let got = '';
    handler = (_req, res, body) => {
      got = body.toString('utf8');
      res.end('{}');
    };
    await attempt({ method: 'POST', body: make() as BodyInit, headers: { 'content-type': 'text/plain' } });
    expect(got).toBe(want);
  });

  test('a ReadableStream body is streamed (sent once)', async () => {
    let got = '';
    handler = (_req, res, body) => {
      got = body.toString('utf8');
      res.end('{}');
    };
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (const part of ['one ', 'two ', 'three']) c.enqueue(new TextEncoder().encode(part));
        c.close();
      },
    });
    await attempt({
      method: 'PUT',
      body: stream,
      stream: true,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(got).toBe('one two three');
  });

  test('an answer that comes while a stream body is still going out (an early 413) ends the attempt', async () => {
    handler = () => undefined;
    server.once('request', (_req: IncomingMessage, res: ServerResponse) =>
      res.writeHead(413, { connection: 'close' }).end('{"error":{"code":"too_large"}}'),
    );
    let cancelled = false;
    const endless = new ReadableStream<Uint8Array>(
      {
        pull: (c) => new Promise<void>((r) => setTimeout(() => (cancelled || c.enqueue(new Uint8Array(1024)), r()), 5)),
        cancel: () => void (cancelled = true),
      },
      { highWaterMark: 0 },
    );
    const o = await attempt({
      method: 'PUT',
      body: endless,
      stream: true,
      headers: { 'content-type': 'application/octet-stream' },
      timeoutMs: 3_000,
    });
    expect(o).toMatchObject({ kind: 'response', status: 413 });
    if (kind === 'node') expect(cancelled).toBe(true);
    handler = (_req, res) => res.end('{"after":true}');
    expect(textOf(await attempt())).toBe('{"after":true}');
  });

  test.runIf(kind === 'node')('keep-alive: 20 sequential attempts share one connection', async () => {
    const fresh = chooseTransport({ transport: 'node' } as ClientOptions, baseUrl).send;
    const before = connections;
    for (let i = 0; i < 20; i++)
      textOf(
        await fresh({
          method: 'GET',
          url: `${baseUrl}/k`,
          headers: {},
          body: undefined,
          timeoutMs: 2_000,
          maxBytes: 1000,
          signal: NEVER_ABORTED,
        }),
      );
    expect(connections - before).toBe(1);
  });

  test('withOptions keeps the connections of its client unless a transport option changes', async () => {
    handler = (req, res) =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(req.url?.endsWith('/token') ? '{"access_token":"t-1","expires_in":3600}' : '{"ok":true}');
    for (const s of sockets) s.destroy();
    await new Promise((r) => setTimeout(r, 20));
    const before = connections;
    const im = makeClient(baseUrl);
    const derived = im.withOptions({ timeoutMs: 1_500, maxRetries: 1 });
    expect(derived.transport).toBe(kind);
    for (let i = 0; i < 5; i++) {
      await im.request(ops.usersGet, { username: 'a' });
      await derived.request(ops.usersGet, { username: 'b' });
    }
    // fetch pools connections process-wide anyway; the node transport per client, shared here
    if (kind === 'node') expect(connections - before).toBe(1);
    expect(im.withOptions({ transport: kind === 'node' ? 'fetch' : 'node' }).transport).toBe(
      kind === 'node' ? 'fetch' : 'node',
    );
  });

  test('no transport module imports a node: builtin at load time (edge and worker bundles stay free of it)', () => {
    const dir = import.meta.dirname;
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    expect(files.sort()).toEqual([
      'choose.ts',
      'fetch.ts',
      'idle-drop-agent.ts',
      'node-builtins.ts',
      'node-http.ts',
      'node-options.ts',
      'node-proxy.ts',
      'node-response.ts',
    ]);
    for (const f of files) {
      const text = readFileSync(join(dir, f), 'utf8');
      const staticNode = text
        .split('\n')
        .filter(
          (line) =>
            /^\s*(import|export)\b(?!\s+type\b)[^;]*['"]node:/.test(line) ||
            /\bimport\(\s*['"]node:/.test(line) ||
            /\brequire\(/.test(line),
        );
      expect(staticNode, f).toEqual([]);
    }
  });
});
