/**
 * Starts Stoplight Prism as a mock of spec/openapi.yaml on 127.0.0.1 (a free port), waits until
 * it answers, and stops it (the whole process group) on `stop()`. Used by `npm run demo` and by
 * the ecosystem tests. Loopback only; every wait is bounded.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

export interface MockServer {
  /** e.g. `http://127.0.0.1:43817` */
  baseUrl: string;
  port: number;
  /** Everything Prism printed so far (stdout and stderr). */
  log(): string;
  stop(): Promise<void>;
}

/** A port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

/**
 * A temp copy of an OpenAPI 3.1 spec with `jsonSchemaDialect` written out, for Prism only.
 * Why: spec/openapi.yaml leaves the dialect at its 3.1 default (writing it out puts a red box in
 * Swagger UI and fails the official 3.1 schema-base check), but Prism 5.16 validates schemas as
 * draft-07 unless the root names 2020-12 (../shared/TOOLCHAIN.md). The spec has only local $refs,
 * so the copy can live in a temp dir. Returns the copy's path and a function that removes it.
 */
export function specForPrism(spec: string): { path: string; remove(): void } {
  const text = readFileSync(isAbsolute(spec) ? spec : join(repoRoot, spec), 'utf8');
  if (/^jsonSchemaDialect:/m.test(text)) return { path: spec, remove: () => {} };
  const withDialect = text.replace(/^(openapi: 3\.1\.\d+)$/m, `$1\njsonSchemaDialect: ${DRAFT_2020_12}`);
  if (withDialect === text) throw new Error(`${spec}: no \`openapi: 3.1.x\` line to put jsonSchemaDialect after`);
  const dir = mkdtempSync(join(tmpdir(), 'im-prism-spec-'));
  const path = join(dir, 'openapi.yaml');
  writeFileSync(path, withDialect);
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export async function startMock(opts: { spec?: string; timeoutMs?: number } = {}): Promise<MockServer> {
  const spec = specForPrism(opts.spec ?? 'spec/openapi.yaml');
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const port = await freePort();
  const child: ChildProcess = spawn(
    `${repoRoot}node_modules/.bin/prism`,
    ['mock', '-h', '127.0.0.1', '-p', String(port), spec.path],
    {
      cwd: repoRoot,
      detached: true, // own process group: stop() kills Prism and anything it started
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, CI: 'true', DO_NOT_TRACK: '1', NO_COLOR: '1', FORCE_COLOR: '0' },
    },
  );
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  let exited = false;
  const exitedPromise = new Promise<void>((resolve) =>
    child.once('exit', () => ((exited = true), spec.remove(), resolve())),
  );

  const stop = async (): Promise<void> => {
    if (exited || child.pid === undefined) return;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }, 3_000);
    await exitedPromise;
    clearTimeout(timer);
  };

  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  while (!/Prism is listening/.test(output)) {
    if (exited) throw new Error(`prism exited before listening:\n${output}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`prism did not listen within ${timeoutMs} ms:\n${output.slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { baseUrl, port, log: () => output, stop };
}
