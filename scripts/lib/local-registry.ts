/**
 * A local npm registry for the release loop (scripts/release-loop.ts): verdaccio, installed on
 * first use into node_modules/.cache/im-openapi/ (with the override that lets it install on
 * Node 20), listening on 127.0.0.1 only, with no uplinks (nothing is fetched from outside: every
 * package comes from the loop) and one user whose token the loop publishes with.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export const VERDACCIO = '6.8.0';

function fail(message: string): never {
  throw new Error(`local registry: ${message}`);
}

/** verdaccio with the override that lets it install on Node 20 (node-fetch 2.7.0), once. */
function ensureVerdaccio(root: string, log: (message: string) => void): string {
  const dir = join(root, `node_modules/.cache/im-openapi/verdaccio-${VERDACCIO}`);
  const bin = join(dir, 'node_modules/verdaccio/bin/verdaccio');
  if (existsSync(bin)) return bin;
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify(
      {
        name: 'im-loop-registry',
        private: true,
        dependencies: { verdaccio: VERDACCIO },
        overrides: { 'node-fetch': '2.7.0' },
      },
      null,
      2,
    ),
  );
  log(`installing verdaccio ${VERDACCIO} into ${dir}`);
  const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 600_000,
  });
  if (r.status !== 0 || !existsSync(bin)) fail(`npm install verdaccio@${VERDACCIO} failed:\n${r.stderr}`);
  return bin;
}

function freePort(): Promise<number> {
  return new Promise((done, reject) => {
    const server = createServer()
      .listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => done(port));
      })
      .on('error', reject);
  });
}

/** Starts verdaccio in `work`/registry on a free loopback port and signs a user in; the caller kills `child`. */
export async function startRegistry(
  work: string,
  root: string,
  log: (message: string) => void,
): Promise<{ url: string; token: string; child: ChildProcess }> {
  const bin = ensureVerdaccio(root, log);
  const port = await freePort();
  const dir = join(work, 'registry');
  mkdirSync(dir, { recursive: true });
  // no uplinks: nothing is fetched from outside; every package comes from this loop
  writeFileSync(
    join(dir, 'config.yaml'),
    [
      'storage: ./storage',
      'auth:',
      '  htpasswd:',
      '    file: ./htpasswd',
      'uplinks: {}',
      'packages:',
      "  '**':",
      '    access: $all',
      '    publish: $authenticated',
      '    unpublish: $authenticated',
      'log: { type: stdout, format: pretty, level: error }',
      '',
    ].join('\n'),
  );
  const child = spawn(process.execPath, [bin, '--config', join(dir, 'config.yaml'), '--listen', `127.0.0.1:${port}`], {
    cwd: dir,
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; i < 120; i++) {
    const up = await fetch(`${url}-/ping`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (i === 119) fail('verdaccio did not answer within 60 s');
    await new Promise((r) => setTimeout(r, 500));
  }
  const res = await fetch(`${url}-/user/org.couchdb.user:loop`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'loop', password: `loop-${process.pid}-${Date.now()}` }),
  });
  const { token } = (await res.json()) as { token?: string };
  if (!token) fail(`verdaccio gave no token (${res.status})`);
  log(`verdaccio ${VERDACCIO} on ${url} (pid ${child.pid})`);
  return { url, token, child };
}
