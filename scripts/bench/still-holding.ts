/**
 * Issue 28, "still holding": the red team's earlier findings re-run against this tree, each with
 * its figure. Local servers on 127.0.0.1 only; a private redis-server for the clock-skew check.
 *
 *   npx tsx scripts/bench/still-holding.ts
 *
 * 1. compression bombs: 13 cases × 2 transports (node, fetch), each bounded (too-large, or an
 *    error body cut at 64 KiB), with the time and the RSS growth;
 * 2. never-ending answers: 3 kinds × 2 transports, cut how long after the attempt timeout;
 * 3. desync and late answers: 60 calls on one keep-alive pool among late and doubled answers,
 *    how many got another call's answer;
 * 4. CRLF: 11 entry points × 2 transports, each refused before sending or encoded;
 * 5. proxy credentials: every error (message, causes, JSON) and log line of 5 proxy failures;
 * 6. NO_PROXY: 18 cases as curl reads them;
 * 8. clock skew: two clients at now ± 1 h sharing a RedisQuotaStore at 40/s, the rate reached.
 * (7, the verifier's edge cases, is templates/runtime/callbacks/verify.test.ts.)
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { createClient } from 'redis';
import { ImCore } from '../../templates/runtime/core/im-core.js';
import { messagesSendOperation, usersGetOperation, usersListOperation } from '../../generated/src/operations.js';
import { NEVER_ABORTED } from '../../templates/runtime/internal/call-scope.js';
import type { AttemptOutcome, Transport } from '../../templates/runtime/internal/http-attempt.js';
import { fetchTransport } from '../../templates/runtime/internal/transport/fetch.js';
import { nodeTransport } from '../../templates/runtime/internal/transport/node-http.js';
import { bypassed } from '../../templates/runtime/internal/transport/node-proxy.js';
import { RedisQuotaStore } from '../../templates/runtime/stores/redis-quota-store.js';
import { fromNodeRedis } from '../../templates/runtime/stores/redis-client.js';

const MB = 1024 * 1024;
async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ server: Server; origin: string }> {
  const server = createServer(handler);
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
const close = (server: Server): Promise<void> =>
  new Promise((r) => (server.closeAllConnections(), server.close(() => r())));
const transports = (origin: string): Array<[string, Transport]> => [
  ['node', nodeTransport({ origin })],
  ['fetch', fetchTransport((input, init) => fetch(input, init))],
];
const send = (t: Transport, url: string, timeoutMs = 10_000): Promise<AttemptOutcome> =>
  t({ method: 'GET', url, headers: {}, body: undefined, timeoutMs, maxBytes: MB, signal: NEVER_ABORTED });

async function bombs(): Promise<void> {
  const zeros = Buffer.alloc(64 * MB); // each bomb decodes to 64 MiB; the bound is 1 MiB
  const gz = gzipSync(zeros);
  const codings: Record<string, Buffer> = {
    gzip: gz,
    'x-gzip': gz,
    'deflate (zlib)': deflateSync(zeros),
    'deflate (raw)': deflateRawSync(zeros),
    br: brotliCompressSync(zeros),
  };
  const cases: Array<{ name: string; status: number; encoding: string; body: Buffer; length: boolean }> = [];
  for (const [name, body] of Object.entries(codings)) {
    cases.push({ name: `200 ${name}`, status: 200, encoding: name.split(' ')[0]!, body, length: true });
    cases.push({ name: `500 ${name} (error body)`, status: 500, encoding: name.split(' ')[0]!, body, length: true });
  }
  cases.push({ name: '200 gzip, chunked (no length)', status: 200, encoding: 'gzip', body: gz, length: false });
  cases.push({
    name: '200 gzip, gzip (double)',
    status: 200,
    encoding: 'gzip, gzip',
    body: gzipSync(gz),
    length: true,
  });
  cases.push({
    name: '200 gzip truncated mid-stream',
    status: 200,
    encoding: 'gzip',
    body: gz.subarray(0, gz.length - 1000),
    length: true,
  });
  const { server, origin } = await listen((req, res) => {
    const c = cases[Number(req.url!.slice(1))]!;
    res.writeHead(c.status, {
      'content-type': 'application/json',
      'content-encoding': c.encoding,
      ...(c.length ? { 'content-length': String(c.body.length) } : {}),
    });
    res.end(c.body);
  });
  let bounded = 0;
  const lines: string[] = [];
  for (const [name, t] of transports(origin)) {
    for (const [i, c] of cases.entries()) {
      global.gc?.();
      const rss = process.memoryUsage().rss;
      const started = performance.now();
      const o = await send(t, `${origin}/${i}`);
      const ms = performance.now() - started;
      const grew = (process.memoryUsage().rss - rss) / MB;
      const ok =
        o.kind === 'too-large' ||
        (o.kind === 'response' && o.bodyText.length <= 64 * 1024 && (o.status !== 200 || o.bodyText.length <= MB));
      if (ok) bounded++;
      lines.push(
        `  ${name.padEnd(5)} ${c.name.padEnd(32)} ${o.kind === 'response' ? `response ${o.status}, ${o.bodyText.length} chars read` : o.kind}; ${ms.toFixed(0)} ms; RSS +${grew.toFixed(1)} MiB ${ok ? 'bounded' : 'NOT BOUNDED'}`,
      );
    }
  }
  await close(server);
  console.log(
    `1. compression bombs (64 MiB each, bound 1 MiB / 64 KiB for errors): ${bounded}/${cases.length * 2} bounded\n${lines.join('\n')}`,
  );
}

async function neverEnding(): Promise<void> {
  const kinds = ['no headers ever', 'headers, then the body stalls', 'body dribbles a byte per 20 ms'];
  const timers: ReturnType<typeof setInterval>[] = [];
  const { server, origin } = await listen((req, res) => {
    const k = Number(req.url!.slice(1));
    if (k === 0) return;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('[');
    if (k === 2) timers.push(setInterval(() => res.write(' '), 20));
  });
  const lines: string[] = [];
  let within = 0;
  for (const [name, t] of transports(origin)) {
    for (const [i, kind] of kinds.entries()) {
      const started = performance.now();
      const o = await send(t, `${origin}/${i}`, 300);
      const late = performance.now() - started - 300;
      if (o.kind === 'timeout' && late < 30) within++;
      lines.push(`  ${name.padEnd(5)} ${kind.padEnd(32)} ${o.kind} ${late.toFixed(1)} ms after the 300 ms timeout`);
    }
  }
  timers.forEach(clearInterval);
  await close(server);
  console.log(
    `2. never-ending answers: ${within}/${kinds.length * 2} cut within 30 ms of the timeout\n${lines.join('\n')}`,
  );
}

async function desync(): Promise<void> {
  // /late/<id>: answered after the attempt timeout; /double/<id>: two answers to one request; /n/<id>: its own id
  const { server, origin } = await listen((req, res) => {
    const [, kind, id] = req.url!.split('/');
    const body = JSON.stringify({ id });
    if (kind === 'late')
      return void setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(body), 250);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
    res.end(body);
    if (kind === 'double') res.socket?.write(`HTTP/1.1 200 OK\r\nContent-Length: 13\r\n\r\n{"id":"evil"}`);
  });
  let crossed = 0;
  let calls = 0;
  for (const [name, t] of transports(origin)) {
    for (let i = 0; i < 30; i++) {
      const kind = i % 3 === 0 ? 'late' : i % 3 === 1 ? 'double' : 'n';
      const id = `${name}-${i}`;
      const o = await send(t, `${origin}/${kind}/${id}`, 150);
      calls++;
      if (o.kind === 'response' && JSON.parse(o.bodyText).id !== id) crossed++;
    }
  }
  await close(server);
  console.log(
    `3. desync and late answers: ${calls} calls on keep-alive pools (a third answered after the timeout, a third followed by a second unasked answer): ${crossed} got another call's answer`,
  );
}

async function crlf(): Promise<void> {
  // a raw server: records the request heads as sent
  const heads: string[] = [];
  const raw = createNetServer((s: Socket) => {
    let text = '';
    s.on('data', (d) => {
      text += d.toString('latin1');
      if (text.includes('\r\n\r\n')) {
        heads.push(text);
        const token = text.startsWith('POST') && text.includes('/token');
        const body = token ? '{"access_token":"tok","expires_in":3600}' : '{}';
        s.end(
          `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
        );
        text = '';
      }
    });
    s.on('error', () => undefined);
  });
  await new Promise<void>((r) => raw.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
  const EVIL = 'a\r\nX-Evil: 1';
  const op = usersGetOperation;
  const entry: Array<[string, (transport: 'node' | 'fetch') => Promise<unknown>]> = [
    ['defaultHeaders value', (tr) => client(tr, { defaultHeaders: { 'x-a': EVIL } }).request(op, { username: 'u' })],
    ['defaultHeaders name', (tr) => client(tr, { defaultHeaders: { [EVIL]: 'v' } }).request(op, { username: 'u' })],
    ['call headers value', (tr) => client(tr).request(op, { username: 'u' }, { headers: { 'x-a': EVIL } })],
    ['call headers name', (tr) => client(tr).request(op, { username: 'u' }, { headers: { [EVIL]: 'v' } })],
    [
      'idempotencyKey',
      (tr) =>
        client(tr).request(
          messagesSendOperation,
          { from: 'a', to: ['b'], type: 'text', body: { text: 'x' } },
          { idempotencyKey: EVIL },
        ),
    ],
    ['path parameter', (tr) => client(tr).request(op, { username: EVIL })],
    ['query parameter', (tr) => client(tr).request(usersListOperation, { cursor: EVIL })],
    ['orgName', (tr) => client(tr, { orgName: EVIL }).request(op, { username: 'u' })],
    ['appName', (tr) => client(tr, { appName: EVIL }).request(op, { username: 'u' })],
    ['clientId (token exchange body)', (tr) => client(tr, { clientId: EVIL }).request(op, { username: 'u' })],
    ['baseUrl path', (tr) => client(tr, { baseUrl: `${base}/x\r\nX-Evil: 1` }).request(op, { username: 'u' })],
  ];
  function client(transport: 'node' | 'fetch', extra: Record<string, unknown> = {}): ImCore {
    return new ImCore({
      baseUrl: base,
      orgName: 'org',
      appName: 'app',
      clientId: 'id',
      clientSecret: 'secret',
      maxRetries: 0,
      timeoutMs: 2000,
      transport,
      validateRequests: false,
      ...extra,
    } as never);
  }
  let safe = 0;
  const lines: string[] = [];
  for (const tr of ['node', 'fetch'] as const) {
    for (const [name, call] of entry) {
      heads.length = 0;
      const outcome = await Promise.resolve()
        .then(() => call(tr))
        .then(
          () => 'sent',
          (e: Error) => `refused (${e.name}: ${e.message.slice(0, 90)})`,
        );
      const injected = heads.some((h) => /\r\nX-Evil:/i.test(h));
      if (!injected) safe++;
      lines.push(
        `  ${tr.padEnd(5)} ${name.padEnd(32)} ${outcome}${outcome === 'sent' ? (injected ? ', INJECTED' : ', encoded (no header injected)') : ''}`,
      );
    }
  }
  await new Promise<void>((r) => raw.close(() => r()));
  console.log(`4. CRLF: ${safe}/${entry.length * 2} entry points refused or encoded\n${lines.join('\n')}`);
}

async function proxyCredentials(): Promise<void> {
  const PASSWORD = 'pr0xy-S3CRET-pw';
  const silent = createNetServer((s) => s.on('error', () => undefined)); // accepts, never answers CONNECT
  const refusing = createServer();
  refusing.on('connect', (_req, socket: Socket) => socket.end('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n'));
  await Promise.all([silent, refusing].map((srv) => new Promise<void>((r) => srv.listen(0, '127.0.0.1', r))));
  const portOf = (srv: { address(): unknown }): number => (srv.address() as AddressInfo).port;
  const closedPort = await new Promise<number>((resolve) => {
    const t = createNetServer().listen(0, '127.0.0.1', () => {
      const p = (t.address() as AddressInfo).port;
      t.close(() => resolve(p));
    });
  });
  const cases: Array<[string, string]> = [
    ['407 from the proxy', `http://user:${PASSWORD}@127.0.0.1:${portOf(refusing)}`],
    ['proxy never answers CONNECT', `http://user:${PASSWORD}@127.0.0.1:${portOf(silent)}`],
    ['proxy port refused', `http://user:${PASSWORD}@127.0.0.1:${closedPort}`],
    ['malformed % in the password', `http://user:${PASSWORD}%zz@127.0.0.1:${portOf(silent)}`],
    ['not an http(s) proxy', `socks5://user:${PASSWORD}@127.0.0.1:1080`],
  ];
  const seen: string[] = [];
  let clean = 0;
  for (const [name, proxy] of cases) {
    const logs: string[] = [];
    const log = (...a: unknown[]): void => void logs.push(a.map(String).join(' '));
    const err = await Promise.resolve()
      .then(() =>
        new ImCore({
          baseUrl: 'http://127.0.0.1:9',
          orgName: 'o',
          appName: 'a',
          clientId: 'id',
          clientSecret: 'sec',
          transport: 'node',
          proxy,
          timeoutMs: 300,
          maxRetries: 1,
          logger: { debug: log, info: log, warn: log, error: log },
        }).request(usersGetOperation, { username: 'u' }),
      )
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    const texts: string[] = [...logs];
    for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause)
      texts.push(String(e), (e as Error).stack ?? '', JSON.stringify(e) ?? '');
    const leaked = texts.some((t) => t.includes(PASSWORD) || t.includes(encodeURIComponent(PASSWORD)));
    if (!leaked) clean++;
    seen.push(
      `  ${name.padEnd(30)} ${(err as Error)?.name ?? 'no error'}: ${String((err as Error)?.message).slice(0, 110)} — ${leaked ? 'CREDENTIALS SHOWN' : 'no credentials'} (${texts.length} texts, ${logs.length} log lines)`,
    );
  }
  silent.close();
  refusing.close();
  console.log(
    `5. proxy credentials: ${clean}/${cases.length} failures show them nowhere (message, causes, stacks, JSON, logs)\n${seen.join('\n')}`,
  );
}

function noProxy(): void {
  // [NO_PROXY, target, bypassed] as curl reads NO_PROXY (no CIDR)
  const cases: Array<[string, string, boolean]> = [
    ['*', 'https://api.example.com', true],
    ['example.com', 'https://example.com', true],
    ['example.com', 'https://api.example.com', true],
    ['.example.com', 'https://api.example.com', true],
    ['.example.com', 'https://example.com', true],
    ['*.example.com', 'https://a.b.example.com', true],
    ['example.com', 'https://notexample.com', false],
    ['example.com', 'https://example.com.evil.net', false],
    ['api.example.com:8443', 'https://api.example.com:8443', true],
    ['api.example.com:8443', 'https://api.example.com', false],
    ['api.example.com:443', 'https://api.example.com', true],
    ['EXAMPLE.COM', 'https://Api.Example.com', true],
    ['10.0.0.1, localhost', 'http://localhost:3000', true],
    ['10.0.0.1,localhost', 'http://10.0.0.1', true],
    ['[::1]', 'http://[::1]:80', true],
    ['::1', 'http://[::1]:8080', true],
    ['', 'http://a.example', false],
    ['  other.com   example.com ', 'https://x.example.com', true],
  ];
  const wrong = cases.filter(([np, target, want]) => bypassed(new URL(target), np) !== want);
  console.log(
    `6. NO_PROXY: ${cases.length - wrong.length}/${cases.length} cases as curl reads them${wrong.length ? `; wrong: ${JSON.stringify(wrong)}` : ''}`,
  );
}

async function clockSkew(): Promise<void> {
  const port = await new Promise<number>((resolve) => {
    const s = createNetServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
  const redisServer = spawn(
    '/usr/bin/redis-server',
    ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  process.once('exit', () => redisServer.kill('SIGKILL')); // never left behind, even when a check throws
  for (let i = 0; i < 200; i++) {
    const up = await new Promise<boolean>((r) => {
      const s = connect({ host: '127.0.0.1', port }, () => (s.end(), r(true)));
      s.once('error', () => r(false));
    });
    if (up) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  const redis = createClient({ url: `redis://127.0.0.1:${port}` });
  redis.on('error', () => undefined);
  await redis.connect();
  const sentAt: number[] = [];
  const { server, origin } = await listen((req, res) => {
    if (req.url!.endsWith('/token'))
      return void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"access_token":"tok","expires_in":3600}');
    sentAt.push(Date.now());
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  const op = usersGetOperation;
  const rate = 40;
  const clients = [3_600_000, -3_600_000].map(
    (skew) =>
      new ImCore({
        baseUrl: origin,
        orgName: 'org',
        appName: 'app',
        clientId: 'id',
        clientSecret: 'secret',
        quotaStore: new RedisQuotaStore({ client: fromNodeRedis(redis) }),
        rateLimit: { perSecond: rate, maxWaitMs: 30_000 },
        internals: { now: () => Date.now() + skew },
      }),
  );
  const runMs = 4_000;
  const until = Date.now() + runMs;
  await Promise.all(
    clients.map(async (c) => {
      const loops = Array.from({ length: 8 }, async () => {
        while (Date.now() < until) await c.request(op, { username: 'u' });
      });
      await Promise.all(loops);
    }),
  );
  // the rate over the steady part (after the first second's burst)
  const first = sentAt[0]!;
  const steady = sentAt.filter((t) => t >= first + 1000 && t < first + runMs - 200);
  const reached = steady.length / ((runMs - 1200) / 1000);
  await close(server);
  await redis.close();
  redisServer.kill('SIGKILL');
  console.log(
    `8. clock skew: two clients at now + 1 h and now − 1 h sharing a RedisQuotaStore, rateLimit ${rate}/s: ${sentAt.length} calls in ${runMs / 1000} s; steady rate ${reached.toFixed(1)}/s = ${((reached / rate - 1) * 100).toFixed(1)} % from ${rate}/s`,
  );
}

await bombs();
await neverEnding();
await desync();
await crlf();
await proxyCredentials();
noProxy();
await clockSkew();
process.exit(0);
