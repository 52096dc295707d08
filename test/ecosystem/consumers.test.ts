/**
 * The package in users' projects: a copy of generated/ is built and packed (`npm pack`) in a
 * temp dir (not in place, so this runs beside test/package.test.ts), npm installs that tarball
 * once, and fresh temp consumer projects with that installed package prove:
 * - an ESM and a CommonJS consumer import the client and call it against a local node:http
 *   server on 127.0.0.1 (token exchange + one call);
 * - a TypeScript consumer type-checks under moduleResolution node16, bundler and node10, and a
 *   CommonJS file under node20 (TypeScript's model of Node's require() of an ES module);
 * - publint --strict and attw find no problem;
 * - the tarball holds no test files, no source maps pointing outside it, no secrets, and its
 *   README is the generated one.
 */
import { execFile, spawnSync } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/seed.js';
import { sectionAt, tsSnippets } from '../helpers/snippets.js';
import { builtPackage } from '../../test-support/built-package.js';
import { typecheckProjects } from '../../test-support/typecheck.js';

const run = promisify(execFile);
const bin = (name: string): string => join(repoRoot, 'node_modules/.bin', name);
const work = mkdtempSync(join(tmpdir(), 'im-consumers-'));
let pkgCopy = '';
const unpacked = join(work, 'unpacked');
let tarball = '';

const npmEnv = {
  ...process.env,
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
};

function sh(cmd: string, args: string[], cwd: string, timeout = 120_000): string {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout, env: npmEnv });
  if (r.status !== 0)
    throw new Error(`${cmd} ${args.join(' ')} (in ${cwd}) exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/**
 * A consumer project with the package as npm installed it from the tarball (beforeAll, once, in
 * the workspace: the package has no dependencies) copied into its own node_modules, so that what
 * the app installs beside it (@types/node 20 or 24, the @opentelemetry/api peer) is what the
 * package's imports find. An npm install per project cost ~1 s of CPU each, nine times, and
 * proved nothing more about the package (issue 33).
 */
function consumer(name: string, pkg: Record<string, unknown>, files: Record<string, string>): string {
  const dir = join(work, name);
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  cpSync(join(work, 'node_modules/im-server-sdk'), join(dir, 'node_modules/im-server-sdk'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true, version: '0.0.0', ...pkg }, null, 2));
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  return dir;
}

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(p);
    else yield p;
  }
}

// ------------------------------------------------------------------ the local service
const seen: { method: string; url: string; auth: string | undefined; ua: string | undefined; body: string }[] = [];
let server: Server;
let baseUrl = '';

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let b = '';
    req.on('data', (c) => (b += c));
    req.on('end', () => resolve(b));
  });
}

beforeAll(async () => {
  // The build of generated/ this run shares (test-support/built-package.ts: its own build script,
  // as its prepack runs it), packed without the prepack: its build, publint and attw ran again
  // there (issue 33), and this file runs publint and attw on this tarball itself below; the
  // prepack's own refusals are test/release.test.ts's and test/package.test.ts's.
  pkgCopy = await builtPackage();
  const [packed] = JSON.parse(
    (
      await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work, '--loglevel=error'], {
        cwd: pkgCopy,
        encoding: 'utf8',
        env: npmEnv,
        timeout: 120_000,
      })
    ).stdout,
  );
  tarball = join(work, packed.filename);
  mkdirSync(unpacked);
  sh('tar', ['-xzf', tarball, '-C', unpacked], work);
  // the tarball installed from disk (the package has no dependencies), once for every consumer below
  writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'consumers', private: true, version: '0.0.0' }));
  sh(
    'npm',
    ['install', tarball, '--offline', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error'],
    work,
  );

  server = createServer(async (req, res) => {
    const body = await readBody(req);
    seen.push({
      method: req.method!,
      url: req.url!,
      auth: req.headers.authorization,
      ua: req.headers['user-agent'],
      body,
    });
    res.setHeader('content-type', 'application/json');
    if (req.method === 'POST' && req.url === '/acme/chat/token') {
      const creds = JSON.parse(body);
      if (
        creds.client_id === 'consumer-id' &&
        creds.client_secret === 'consumer-secret' &&
        creds.grant_type === 'client_credentials'
      ) {
        res.end(JSON.stringify({ access_token: 'tok-consumer', expires_in: 3600, application: 'acme#chat' }));
      } else {
        res.statusCode = 401;
        res.end(JSON.stringify({ error: { code: 'invalid_client', message: 'bad credentials', request_id: 'r1' } }));
      }
      return;
    }
    if (req.headers.authorization !== 'Bearer tok-consumer') {
      res.statusCode = 401;
      res.end(JSON.stringify({ error: { code: 'unauthenticated', message: 'no token', request_id: 'r2' } }));
      return;
    }
    if (req.method === 'GET' && req.url === '/acme/chat/users/alice') {
      res.end(JSON.stringify({ username: 'alice', nickname: 'Alice' }));
      return;
    }
    res.statusCode = 404;
    res.end(
      JSON.stringify({ error: { code: 'not_found', message: `no route ${req.method} ${req.url}`, request_id: 'r3' } }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  baseUrl = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
}, 240_000);

afterAll(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  rmSync(work, { recursive: true, force: true });
});

const CALL = (load: string): string => `${load}
const im = new ImClient({ baseUrl: process.env.IM_BASE_URL, appKey: 'acme#chat', clientId: 'consumer-id', clientSecret: 'consumer-secret', maxRetries: 0 });
const user = await im.users.get({ username: 'alice' });
let refused = 'none';
try { await im.users.get({ username: '' }); } catch (e) { refused = (e instanceof ValidationError) + ':' + e.name; }
console.log(JSON.stringify({ user, refused, callbacks: Object.keys(callbacks).length, edge: typeof edge.verifyCallback, funcs: typeof funcs.usersGet }));
`;

describe('consumers of the packed tarball', () => {
  it('an ESM project imports and calls the client (token exchange + users.get)', async () => {
    const dir = consumer(
      'esm-consumer',
      { type: 'module' },
      {
        'index.mjs': CALL(
          `import { ImClient, ValidationError } from 'im-server-sdk';\nimport * as funcs from 'im-server-sdk/funcs';\nimport * as callbacks from 'im-server-sdk/callbacks';\nimport * as edge from 'im-server-sdk/callbacks/edge';`,
        ),
      },
    );
    seen.length = 0;
    const { stdout, stderr } = await run(process.execPath, ['index.mjs'], {
      cwd: dir,
      env: { ...process.env, IM_BASE_URL: baseUrl },
      timeout: 30_000,
    });
    expect(stderr).toBe('');
    const out = JSON.parse(stdout);
    expect(out.user).toMatchObject({ username: 'alice' });
    expect(out.refused).toBe('true:ValidationError');
    expect(out.callbacks).toBeGreaterThan(0);
    expect(out.edge).toBe('function');
    expect(out.funcs).toBe('function');
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(['POST /acme/chat/token', 'GET /acme/chat/users/alice']);
    expect(seen[1]!.auth).toBe('Bearer tok-consumer');
    // the version in the User-Agent is the packed package's own
    const version = JSON.parse(readFileSync(join(repoRoot, 'generated/package.json'), 'utf8')).version as string;
    expect(seen.map((s) => s.ua)).toEqual([
      `im-server-sdk/${version} node/${process.versions.node}`,
      `im-server-sdk/${version} node/${process.versions.node}`,
    ]);
  }, 120_000);

  it('a CommonJS project requires and calls the client', async () => {
    const dir = consumer(
      'cjs-consumer',
      { type: 'commonjs' },
      {
        'index.js': `(async () => {\n${CALL(
          `const { ImClient, ValidationError } = require('im-server-sdk');\nconst funcs = require('im-server-sdk/funcs');\nconst callbacks = require('im-server-sdk/callbacks');\nconst edge = require('im-server-sdk/callbacks/edge');`,
        )}})().catch((e) => { console.error(e); process.exit(1); });\n`,
      },
    );
    seen.length = 0;
    const { stdout, stderr } = await run(process.execPath, ['index.js'], {
      cwd: dir,
      env: { ...process.env, IM_BASE_URL: baseUrl },
      timeout: 30_000,
    });
    expect(stderr).toBe('');
    const out = JSON.parse(stdout);
    expect(out.user).toMatchObject({ username: 'alice' });
    expect(out.refused).toBe('true:ValidationError');
    expect(out.edge).toBe('function');
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(['POST /acme/chat/token', 'GET /acme/chat/users/alice']);
  }, 120_000);

  it('the im-callbacks bin of the installed package sends a signed request a receiver accepts', async () => {
    const dir = consumer('bin-consumer', { type: 'module' }, { 'index.mjs': '' });
    const { verifyCallback } = await import('../../generated/src/callbacks.js');
    const verdicts: string[] = [];
    const receiver = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      try {
        const v = await verifyCallback({
          headers: req.headers,
          rawBody: Buffer.concat(chunks),
          secrets: ['bin-secret-NEVER-PRINTED'],
        });
        verdicts.push(v.kind);
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ challenge: (v.body as { challenge?: string }).challenge }));
      } catch (e) {
        verdicts.push(`refused: ${(e as Error).message}`);
        res.statusCode = 401;
        res.end();
      }
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const port = (receiver.address() as { port: number }).port;
    try {
      const bin = join(work, 'node_modules/.bin/im-callbacks');
      const { stdout, stderr } = await run(bin, ['send', '--url', `http://127.0.0.1:${port}/cb`, '--kind', 'verify'], {
        cwd: dir,
        env: { ...process.env, IM_CALLBACK_SECRET: 'bin-secret-NEVER-PRINTED' },
        timeout: 30_000,
      });
      expect(verdicts).toEqual(['verify']);
      expect(stdout).toMatch(/challenge echoed correctly/);
      expect(stdout + stderr).not.toContain('bin-secret-NEVER-PRINTED');
      const version = await run(bin, ['--version'], { cwd: dir, timeout: 30_000 });
      expect(version.stdout.trim()).toBe(
        JSON.parse(readFileSync(join(repoRoot, 'generated/package.json'), 'utf8')).version,
      );
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  }, 60_000);

  it('a strict TypeScript app tests its backend with the fake in vitest, callbacks into the durable inbox included (issue 30)', async () => {
    const fixtures = join(repoRoot, 'test/fixtures/fake-consumer');
    const dir = consumer(
      'fake-consumer',
      { type: 'module', scripts: { test: 'vitest run' } },
      {
        'tsconfig.json': JSON.stringify({
          compilerOptions: {
            target: 'ES2022',
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            strict: true,
            exactOptionalPropertyTypes: true,
            noUncheckedIndexedAccess: true,
            noEmit: true,
            skipLibCheck: true,
            types: ['node'],
            lib: ['ES2023'],
          },
          include: ['src', 'test'],
        }),
      },
    );
    mkdirSync(join(dir, 'src'));
    mkdirSync(join(dir, 'test'));
    writeFileSync(join(dir, 'src/backend.ts'), readFileSync(join(fixtures, 'backend.ts.txt'), 'utf8'));
    writeFileSync(join(dir, 'test/backend.test.ts'), readFileSync(join(fixtures, 'backend.test.ts.txt'), 'utf8'));
    // the app's dev tools: this repository's own (the install above is offline); one vitest worker,
    // so the nested run adds little load to this suite
    for (const tool of ['vitest', '@types/node']) {
      mkdirSync(join(dir, 'node_modules', tool, '..'), { recursive: true });
      symlinkSync(join(repoRoot, 'node_modules', tool), join(dir, 'node_modules', tool), 'dir');
    }
    const [tsc] = await typecheckProjects([join(dir, 'tsconfig.json')]);
    expect(tsc!.output).toBe('');
    expect(tsc!.status).toBe(0);
    const vitest = await run(
      process.execPath,
      [
        join(repoRoot, 'node_modules/vitest/vitest.mjs'),
        'run',
        '--root',
        dir,
        '--reporter',
        'verbose',
        '--maxWorkers',
        '1',
        '--minWorkers',
        '1',
      ],
      { cwd: dir, timeout: 120_000, env: { ...process.env, NO_COLOR: '1' } },
    ).catch((e: { stdout: string; stderr: string }) => e);
    const out = `${vitest.stdout}\n${vitest.stderr}`;
    expect(out).toMatch(/Tests\s+5 passed \(5\)/);
    expect(out).toMatch(/the receiver stores the callbacks the fake sends after messages\.send/);
  }, 240_000);

  it('issue 29: a durable-inbox app on node-redis 6 and on ioredis 6 (as the clients themselves) takes each event from POST to its worker at once', async () => {
    // The app of the README ("Durable inbox and workers"): node-redis 6 (what `npm install redis`
    // gives today) or ioredis 6, a blocking connection for the idle worker. The clients are the
    // repository's pinned ones (redis6, ioredis), linked in: the install stays offline.
    const app = `import { createServer } from 'node:http';
import { createNodeCallbackHandler, RedisInbox, sampleCallbackBody, signCallbackRequest } from 'im-server-sdk/callbacks';
const io = process.env.CLIENT === 'ioredis';
let redis, blocking;
if (io) {
  const { Redis } = await import('ioredis');
  redis = new Redis(process.env.REDIS_URL); blocking = redis.duplicate();
} else {
  const { createClient } = await import('redis');
  redis = createClient({ url: process.env.REDIS_URL }); blocking = redis.duplicate();
}
redis.on('error', (e) => console.error('redis', e.message)); blocking.on('error', (e) => console.error('redis', e.message));
if (!io) await Promise.all([redis.connect(), blocking.connect()]);
const inbox = new RedisInbox({ client: redis, blockingClient: blocking, durability: 'off', prefix: '{' + process.env.CLIENT + '}:' });
const handled = new Map();
const stop = new AbortController();
const workers = inbox.consume((event) => void handled.set(event.id, performance.now()), { signal: stop.signal, onError: (e) => console.error(e) });
const server = createServer(createNodeCallbackHandler({ secrets: 'whsec_consumer_inbox', inbox }));
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const ms = [];
for (let i = -1; i < 10; i++) {
  await new Promise((r) => setTimeout(r, 150));
  const body = sampleCallbackBody('event');
  body.events[0].id = 'evt_' + i;
  const signed = signCallbackRequest({ body, secret: 'whsec_consumer_inbox' });
  const t0 = performance.now();
  const res = await fetch('http://127.0.0.1:' + server.address().port + '/cb', { method: 'POST', headers: signed.headers, body: signed.body });
  if (res.status !== 200) throw new Error('answered ' + res.status);
  const until = Date.now() + 20000;
  while (!handled.has('evt_' + i) && Date.now() < until) await new Promise((r) => setTimeout(r, 1));
  if (i >= 0) ms.push(handled.has('evt_' + i) ? handled.get('evt_' + i) - t0 : Infinity);
}
stop.abort(); await workers; server.close();
if (io) { redis.disconnect(); blocking.disconnect(); } else { await redis.quit(); await blocking.quit(); }
console.log(JSON.stringify(ms));
`;
    const dir = consumer('inbox-consumer', { type: 'module' }, { 'app.mjs': app });
    symlinkSync(join(repoRoot, 'node_modules/redis6'), join(dir, 'node_modules/redis'), 'dir');
    symlinkSync(join(repoRoot, 'node_modules/ioredis'), join(dir, 'node_modules/ioredis'), 'dir');
    const { startRedisServer } = await import('../fixtures/callbacks/redis-server.js');
    const redis = await startRedisServer();
    try {
      for (const client of ['redis', 'ioredis']) {
        const { stdout, stderr } = await run(process.execPath, ['app.mjs'], {
          cwd: dir,
          env: { ...process.env, CLIENT: client, REDIS_URL: redis.url },
          timeout: 120_000,
        });
        expect(stderr).toBe('');
        const ms = JSON.parse(stdout) as number[];
        console.log(`[inbox from the tarball] ${client}: POST → worker ${ms.map((m) => m.toFixed(1)).join(', ')} ms`);
        // generous for a loaded machine: an event lost by the blocking read waits for the 30 s visibility timeout
        expect(Math.max(...ms)).toBeLessThan(3000);
      }
    } finally {
      await redis.stop();
    }
  }, 180_000);

  it('a TypeScript project type-checks under moduleResolution node16, bundler and node10 (CommonJS under node20)', async () => {
    const source = `import { ImClient, ApiError, NotFoundError, ValidationError, type UsersCreateParams, type ClientOptions } from 'im-server-sdk';
import { ImCore, ImLeanCore, usersGet } from 'im-server-sdk/funcs';
import { createCallbackHandler, isKnownEvent } from 'im-server-sdk/callbacks';
import * as edge from 'im-server-sdk/callbacks/edge';

// onEvent gets the generated event union with no type argument, on both callback entries
export const receivers = [
  createCallbackHandler({ secrets: 's', onEvent: (event) => isKnownEvent(event) }),
  edge.createCallbackHandler({ secrets: 's', onEvent: (event) => edge.isKnownEvent(event) }),
];
const options: ClientOptions = { baseUrl: 'http://127.0.0.1:1', orgName: 'acme', appName: 'chat', clientId: 'id', clientSecret: async () => 'secret' };
const im = new ImClient(options);
const params: UsersCreateParams = { username: 'alice' };
export async function main(): Promise<string> {
  const created = await im.users.create(params, { timeoutMs: 5_000 });
  for await (const group of im.groups.ofUser({ username: 'alice' })) void group;
  const core = new ImCore({ baseUrl: 'http://127.0.0.1:1', appKey: 'acme#chat', clientId: 'id', clientSecret: 's' });
  await usersGet(core, { username: 'alice' });
  await usersGet(new ImLeanCore({ baseUrl: 'http://127.0.0.1:1', appKey: 'acme#chat', clientId: 'id', clientSecret: 's' }), { username: 'alice' });
  try {
    await im.users.get({ username: 'bob' });
  } catch (e) {
    if (e instanceof NotFoundError) return e.code ?? 'not_found';
    if (e instanceof ApiError) return String(e.status);
    if (e instanceof ValidationError) return e.issues.map((i) => i.pointer).join();
  }
  // @ts-expect-error: no such method
  im.users.doesNotExist();
  // @ts-expect-error: username must be a string
  await im.users.get({ username: 42 });
  return JSON.stringify(created);
}
`;
    const cjsSource = `import { ImClient } from 'im-server-sdk';
import type { UsersGetParams } from 'im-server-sdk';
import { usersGet } from 'im-server-sdk/funcs';
import { verifyCallback } from 'im-server-sdk/callbacks/edge';
const p: UsersGetParams = { username: 'alice' };
export const made = [typeof ImClient, typeof usersGet, typeof verifyCallback, p.username];
`;
    const common = {
      strict: true,
      noEmit: true,
      skipLibCheck: false,
      target: 'ES2022',
      lib: ['ES2023', 'DOM', 'DOM.Iterable'],
      types: ['node'],
      typeRoots: [join(repoRoot, 'node_modules/@types')],
    };
    const dir = consumer(
      'ts-consumer',
      { type: 'module' },
      {
        'index.ts': source,
        'legacy.cts': cjsSource,
        'tsconfig.node16.json': JSON.stringify({
          compilerOptions: { ...common, module: 'node16', moduleResolution: 'node16' },
          files: ['index.ts'],
        }),
        // the package is ESM only: a CommonJS file require()s it as Node 20.19+ does, which
        // TypeScript models from module node20 on (under node16 it refuses the import, TS1479)
        'tsconfig.node20.json': JSON.stringify({
          compilerOptions: { ...common, module: 'node20', moduleResolution: 'node16' },
          files: ['index.ts', 'legacy.cts'],
        }),
        'tsconfig.bundler.json': JSON.stringify({
          compilerOptions: { ...common, module: 'esnext', moduleResolution: 'bundler' },
          files: ['index.ts'],
        }),
      },
    );
    const legacy = consumer(
      'ts-node10-consumer',
      { type: 'commonjs' },
      {
        'index.ts': cjsSource,
        'tsconfig.json': JSON.stringify({
          compilerOptions: { ...common, module: 'commonjs', moduleResolution: 'node10', esModuleInterop: true },
          files: ['index.ts'],
        }),
      },
    );
    // one child process for the four projects (test-support/typecheck.ts: tsc -p, third-party declarations not re-checked)
    const projects = [
      join(dir, 'tsconfig.node16.json'),
      join(dir, 'tsconfig.node20.json'),
      join(dir, 'tsconfig.bundler.json'),
      join(legacy, 'tsconfig.json'),
    ];
    const results = await typecheckProjects(projects);
    expect(results.map((r) => `${relative(work, r.project)}: exit ${r.status}\n${r.output}`)).toEqual(
      projects.map((p) => `${relative(work, p)}: exit 0\n`),
    );
  }, 180_000);

  it('issue 31: ImLeanCore, ./funcs and the callbacks edge entry bundle with esbuild for the browser and neutral platforms, with no node: import', async () => {
    const dir = consumer(
      'bundle-consumer',
      { type: 'module' },
      {
        'lean.mjs': `import { ImLeanCore } from 'im-server-sdk';\nconst im = new ImLeanCore({ baseUrl: 'https://api.example.com', appKey: 'a#b', clientId: 'i', clientSecret: 's', dangerouslyAllowBrowser: true });\nconsole.log(typeof im.request);\n`,
        // the upload helper too: its file reader is the one place that reads node:fs
        'funcs.mjs': `import { ImLeanCore, usersGet, mediaUpload } from 'im-server-sdk/funcs';\nconst core = new ImLeanCore({ baseUrl: 'https://api.example.com', appKey: 'a#b', clientId: 'i', clientSecret: 's', dangerouslyAllowBrowser: true });\nexport const calls = () => [usersGet(core, { username: 'a' }), mediaUpload(core, new Uint8Array(3))];\nconsole.log(typeof calls);\n`,
        'edge.mjs': `import { createCallbackHandler } from 'im-server-sdk/callbacks/edge';\nconst handler = createCallbackHandler({ secrets: 's', onEvent: () => {} });\nconsole.log(typeof handler);\n`,
      },
    );
    const { build: esbuild } = await import('esbuild');
    const results: string[] = [];
    for (const platform of ['browser', 'neutral'] as const) {
      for (const app of ['lean', 'funcs', 'edge']) {
        const outfile = join(dir, `out-${platform}-${app}.mjs`);
        const r = await esbuild({
          entryPoints: [join(dir, `${app}.mjs`)],
          absWorkingDir: dir,
          bundle: true,
          platform,
          format: 'esm',
          outfile,
          logLevel: 'silent',
        }).then(
          () => 'ok',
          (e: Error) => e.message.split('\n').slice(0, 3).join(' '),
        );
        const imports =
          r === 'ok'
            ? [
                ...readFileSync(outfile, 'utf8').matchAll(
                  /(?:from\s*|import\(\s*|require\(\s*)["'](node:[\w/]+|fs|http|https|net|tls|crypto)["']/g,
                ),
              ].map((m) => m[1])
            : [];
        // the bundle runs (here on Node, as a worker runtime would load it)
        const ran =
          r === 'ok' ? (await run(process.execPath, [outfile], { cwd: dir, timeout: 30_000 })).stdout.trim() : '';
        results.push([`${platform} ${app}:`, r, ...imports, ran].filter(Boolean).join(' '));
      }
    }
    expect(results).toEqual([
      'browser lean: ok function',
      'browser funcs: ok function',
      'browser edge: ok function',
      'neutral lean: ok function',
      'neutral funcs: ok function',
      'neutral edge: ok function',
    ]);
  }, 180_000);

  it('issue 31: the declarations type-check with lib ["ES2023"] (no DOM), skipLibCheck false, on @types/node 20 and 24', async () => {
    const source = `import { ImClient, ImLeanCore, type ClientOptions, type CallHooks } from 'im-server-sdk';
import { usersGet, mediaUpload } from 'im-server-sdk/funcs';
import * as callbacks from 'im-server-sdk/callbacks';
import * as edge from 'im-server-sdk/callbacks/edge';
import { createFakeService } from 'im-server-sdk/testing';
import { instrumentImClient } from 'im-server-sdk/otel';
const hooks: CallHooks = { onRetry: (r) => void r.reason };
const options: ClientOptions = { baseUrl: 'http://127.0.0.1:1', appKey: 'a#b', clientId: 'i', clientSecret: 's', hooks };
export const made = [new ImClient(options), new ImLeanCore(options), usersGet, mediaUpload, callbacks.verifyCallback, edge.verifyCallback, createFakeService, instrumentImClient];
`;
    const projects: [string, string][] = [];
    for (const types of ['node', 'node24']) {
      const dir = consumer(
        `nodom-${types}`,
        { type: 'module' },
        {
          'index.ts': source,
          'tsconfig.json': JSON.stringify({
            compilerOptions: {
              strict: true,
              exactOptionalPropertyTypes: true,
              noEmit: true,
              skipLibCheck: false,
              target: 'ES2022',
              lib: ['ES2023'],
              types: ['node'],
              module: 'node16',
              moduleResolution: 'node16',
            },
            files: ['index.ts'],
          }),
        },
      );
      // the app's own @types/node (20 or 24) and @opentelemetry/api, as its npm install would put them
      mkdirSync(join(dir, 'node_modules/@types'), { recursive: true });
      mkdirSync(join(dir, 'node_modules/@opentelemetry'), { recursive: true });
      symlinkSync(join(repoRoot, 'node_modules/@types', types), join(dir, 'node_modules/@types/node'), 'dir');
      symlinkSync(
        join(repoRoot, 'node_modules/@opentelemetry/api'),
        join(dir, 'node_modules/@opentelemetry/api'),
        'dir',
      );
      const version = JSON.parse(readFileSync(join(dir, 'node_modules/@types/node/package.json'), 'utf8'))
        .version as string;
      projects.push([`@types/node ${version.split('.')[0]}`, join(dir, 'tsconfig.json')]);
    }
    // both in one child process (test-support/typecheck.ts)
    const results = await typecheckProjects(projects.map(([, p]) => p));
    const out = results.map((r, i) => `${projects[i]![0]}: exit ${r.status}${r.output ? `\n${r.output}` : ''}`);
    expect(out).toEqual(['@types/node 20: exit 0', '@types/node 24: exit 0']);
  }, 240_000);

  it("issue 31 done-when: the README's hooks and OpenTelemetry app, copied as it is, runs from the tarball (strict TypeScript, no DOM)", async () => {
    const readme = readFileSync(join(unpacked, 'package/README.md'), 'utf8');
    const snippets = tsSnippets('README.md', readme).filter(
      (sn) => sectionAt(readme, sn.line) === 'Observing calls: hooks and OpenTelemetry',
    );
    expect(snippets).toHaveLength(1);
    const dir = consumer(
      'observed-consumer',
      { type: 'module' },
      {
        'app.ts': snippets[0]!.code,
        'tsconfig.json': JSON.stringify({
          compilerOptions: {
            strict: true,
            exactOptionalPropertyTypes: true,
            skipLibCheck: false,
            target: 'ES2022',
            lib: ['ES2023'],
            types: ['node'],
            module: 'node16',
            moduleResolution: 'node16',
            outDir: 'out',
          },
          files: ['app.ts'],
        }),
      },
    );
    // what the app's own npm install brings: @types/node, the OpenTelemetry API and SDK
    mkdirSync(join(dir, 'node_modules/@types'), { recursive: true });
    symlinkSync(join(repoRoot, 'node_modules/@types/node'), join(dir, 'node_modules/@types/node'), 'dir');
    symlinkSync(join(repoRoot, 'node_modules/@opentelemetry'), join(dir, 'node_modules/@opentelemetry'), 'dir');
    const [tsc] = await typecheckProjects([join(dir, 'tsconfig.json')]);
    expect(`exit ${tsc!.status}\n${tsc!.output}`).toBe('exit 0\n');
    // a service whose first users.get answers 503: the hooks see the retry, the trace has two attempts
    let gets = 0;
    const service = createServer(async (req, res) => {
      await readBody(req);
      res.setHeader('content-type', 'application/json');
      if (req.url === '/acme/chat/token')
        return void res.end(JSON.stringify({ access_token: 'tok-observed-SECRET', expires_in: 3600 }));
      if (gets++ === 0) {
        res.statusCode = 503;
        return void res.end(
          JSON.stringify({ error: { code: 'unavailable', message: 'try again', request_id: 'r-503' } }),
        );
      }
      res.setHeader('x-request-id', 'r-200');
      res.end(JSON.stringify({ username: 'alice' }));
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    try {
      const env = {
        ...process.env,
        IM_BASE_URL: `http://127.0.0.1:${(service.address() as { port: number }).port}`,
        IM_APP_KEY: 'acme#chat',
        IM_CLIENT_ID: 'observed-id',
        IM_CLIENT_SECRET: 'observed-client-SECRET',
      };
      const { stdout, stderr } = await run(process.execPath, ['out/app.js'], { cwd: dir, env, timeout: 60_000 });
      expect(stdout).toMatch(/users\.get answered 503 in \d+ ms \(attempt 1\)/);
      expect(stderr).toMatch(/users\.get: status, attempt 2 in \d+ ms/);
      expect(stdout).toMatch(/users\.get answered 200 in \d+ ms \(attempt 2\)/);
      // ConsoleSpanExporter: the call's span and one CLIENT span per attempt (and the token exchange's)
      const names = [...stdout.matchAll(/^ {2}name: '([^']+)'/gm)].map((m) => m[1]).sort();
      expect(names).toEqual(['GET', 'GET', 'POST', 'app.token', 'users.get']);
      expect(stdout).toMatch(/'http\.response\.status_code': 503/);
      expect(stdout + stderr).not.toMatch(/SECRET/);
    } finally {
      await new Promise<void>((resolve) => service.close(() => resolve()));
    }
  }, 240_000);

  it('a strict consumer: exactOptionalPropertyTypes, undefined options, permissive catch, internals hidden, User augmented by declaration merging', async () => {
    const source = `import { ImClient, type ClientOptions, type RequestOptions } from 'im-server-sdk';
const timeoutMs: number | undefined = process.env.T ? Number(process.env.T) : undefined;
const options: ClientOptions = { baseUrl: 'http://127.0.0.1:1', appKey: 'a#b', clientId: 'id', clientSecret: 's', timeoutMs, logger: undefined, defaultHeaders: undefined, maxRetries: undefined };
const im = new ImClient(options);
const call: RequestOptions = { signal: undefined, maxRetries: undefined, headers: undefined, timeoutMs };
export const derived: ImClient = im.withOptions({ timeoutMs, defaultHeaders: { 'x-job': 'nightly' } });
export async function main(): Promise<string> {
  const user = await im.users.get({ username: 'a' }, call).catch((err: Error) => err.message);
  return typeof user === 'string' ? user : JSON.stringify(user);
}
type Has<T, K extends PropertyKey> = K extends keyof T ? true : false;
export const onClient: Has<ImClient, 'internals'> = false;
export const inOptions: Has<ClientOptions, 'internals'> = false;
// @ts-expect-error internals is not a public option
export const hidden = new ImClient({ ...options, internals: {} });
`;
    // issue 31: a field the seed does not show, added to User by declaration merging (a type alias: TS2300)
    const augment = `import { ImClient, type User, type UsersGetResult } from 'im-server-sdk';
declare module 'im-server-sdk' {
  interface User {
    nickname?: string;
  }
}
export async function nicknameOf(im: ImClient): Promise<string | undefined> {
  const user = await im.users.get({ username: 'alice' });
  const viaResult: UsersGetResult = user;
  const other: unknown = viaResult['not_named']; // open: the index signature stays
  void other;
  return user.nickname;
}
// @ts-expect-error nickname is a string now
export const wrong: User = { nickname: 42 };
`;
    const dir = consumer(
      'ts-exact-consumer',
      { type: 'module' },
      {
        'index.ts': source,
        'augment.ts': augment,
        'tsconfig.json': JSON.stringify({
          compilerOptions: {
            strict: true,
            exactOptionalPropertyTypes: true,
            noEmit: true,
            skipLibCheck: false,
            target: 'ES2022',
            lib: ['ES2023', 'DOM', 'DOM.Iterable'],
            types: ['node'],
            typeRoots: [join(repoRoot, 'node_modules/@types')],
            module: 'node16',
            moduleResolution: 'node16',
          },
          files: ['index.ts', 'augment.ts'],
        }),
      },
    );
    const [r] = await typecheckProjects([join(dir, 'tsconfig.json')]);
    expect(`exit ${r!.status}\n${r!.output}`).toBe('exit 0\n');
  }, 180_000);

  it('every property of ClientOptions and RequestOptions in the emitted .d.ts has a doc comment', () => {
    const file = join(pkgCopy, 'dist/esm/core/options.d.ts');
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
    const undocumented: string[] = [];
    let seenInterfaces = 0;
    sf.forEachChild((node) => {
      if (
        !ts.isInterfaceDeclaration(node) ||
        !['ClientOptions', 'RequestOptions', 'RuntimeInternals', 'ResponseDrift'].includes(node.name.text)
      )
        return;
      seenInterfaces += 1;
      for (const member of node.members) {
        const docs = ts.getJSDocCommentsAndTags(member).filter(ts.isJSDoc);
        if (!docs.some((d) => typeof d.comment === 'string' && d.comment.trim().length > 0))
          undocumented.push(`${node.name.text}.${member.name?.getText(sf)}`);
      }
    });
    expect(seenInterfaces).toBe(4);
    expect(undocumented).toEqual([]);
  });

  it('publint --strict finds nothing', () => {
    const r = spawnSync(bin('publint'), [pkgCopy, '--strict'], {
      cwd: work,
      encoding: 'utf8',
      timeout: 120_000,
      env: npmEnv,
    });
    expect(`${r.status}\n${r.stdout}${r.stderr}`).toMatch(/^0\n[\s\S]*All good!/);
  }, 120_000);

  it('arethetypeswrong finds no problem in the tarball (esm-only profile: node16 ESM, bundler, node10)', () => {
    const r = spawnSync(bin('attw'), [tarball, '--profile', 'esm-only', '--format', 'json'], {
      cwd: work,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...npmEnv, NO_COLOR: '1' },
    });
    expect(r.status, r.stderr).toBe(0);
    // The one finding attw keeps (and the profile ignores): TypeScript's node16 model of a require()
    // from CommonJS predates Node's require(esm) (20.19+, 22.12+); the CommonJS consumers above run it.
    const problems: { kind: string; entrypoint: string; resolutionKind: string }[] = JSON.parse(r.stdout).analysis
      .problems;
    expect(problems.filter((p) => !(p.kind === 'CJSResolvesToESM' && p.resolutionKind === 'node16-cjs'))).toEqual([]);
    expect(problems.map((p) => p.entrypoint).sort()).toEqual([
      '.',
      './callbacks',
      './callbacks/edge',
      './funcs',
      './otel',
      './testing',
    ]);
  }, 120_000);

  it('the tarball holds no test files, no outside-pointing source maps, no secrets, and the generated README', () => {
    const root = join(unpacked, 'package');
    const files = [...walk(root)].map((f) => relative(root, f));
    expect(files).toContain('README.md');
    expect(
      files.filter((f) =>
        /(^|\/)(test|tests|__tests__|__snapshots__|fixtures)\/|\.(test|spec)\.[cm]?[jt]s$|\.test\.d\.ts$/.test(f),
      ),
    ).toEqual([]);
    expect(files.filter((f) => /^src\/|\.ts$/.test(f) && !f.endsWith('.d.ts'))).toEqual([]);

    for (const f of files.filter((x) => x.endsWith('.map'))) {
      const map = JSON.parse(readFileSync(join(root, f), 'utf8'));
      for (const s of map.sources ?? [])
        expect(join(root, f, '..', map.sourceRoot ?? '', s).startsWith(root), `${f} → ${s}`).toBe(true);
    }
    const leaks: string[] = [];
    const secretPatterns: [string, RegExp][] = [
      ['private key', /-----BEGIN [A-Z ]*PRIVATE KEY-----/],
      ['AWS access key', /\bAKIA[0-9A-Z]{16}\b/],
      ['GitHub token', /\bgh[pousr]_[A-Za-z0-9]{36,}\b/],
      ['npm token', /\bnpm_[A-Za-z0-9]{36}\b/],
      ['Slack token', /\bxox[abprs]-[A-Za-z0-9-]{10,}/],
      ['OpenAI-style key', /\bsk-[A-Za-z0-9]{32,}\b/],
      ['JWT', /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/],
      ['bearer token literal', /Bearer [A-Za-z0-9._-]{20,}/],
      ["this machine's paths", new RegExp(`${repoRoot.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}|/root/|/home/[a-z]`)],
      ['sourceMappingURL', /sourceMappingURL=(?!data:)/],
    ];
    for (const f of files) {
      const text = readFileSync(join(root, f), 'utf8');
      for (const [what, re] of secretPatterns)
        if (re.test(text)) leaks.push(`${f}: ${what} (${text.match(re)![0].slice(0, 40)})`);
    }
    expect(leaks).toEqual([]);
    expect(files.some((f) => /(^|\/)\.(env|npmrc)/.test(f))).toBe(false);

    expect(readFileSync(join(root, 'README.md'), 'utf8')).toBe(
      readFileSync(join(repoRoot, 'generated/README.md'), 'utf8'),
    );
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toMatch(/im-server-sdk/);
    expect(statSync(tarball).size).toBeLessThan(5_000_000);
  });
});
