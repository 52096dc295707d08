/**
 * The im-fake bin (for tools in other languages): starts on 127.0.0.1, prints its base URL and the
 * credentials as one JSON line, serves the REST API (a curl-like fetch here), refuses a host
 * beyond loopback without --allow-remote, and stops on SIGTERM.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/seed.js';

const bin = join(repoRoot, 'generated/src/bin/im-fake.ts');
const tsx = join(repoRoot, 'node_modules/.bin/tsx');

function start(args: string[]) {
  const child = spawn(tsx, [bin, ...args], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, IM_FAKE_CLIENT_SECRET: 'from-env-secret' },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d));
  child.stderr.on('data', (d: Buffer) => (err += d));
  return { child, out: () => out, err: () => err };
}

describe('im-fake', () => {
  it('serves the API on loopback, prints where, and stops on SIGTERM', async () => {
    const p = start(['--port', '0', '--app-key', 'acme#chat']);
    try {
      const deadline = Date.now() + 30_000;
      while (!p.out().includes('\n') && Date.now() < deadline && p.child.exitCode === null)
        await new Promise((r) => setTimeout(r, 50));
      const info = JSON.parse(p.out().split('\n')[0]!) as { baseUrl: string; appKey: string; clientId: string };
      expect(info).toMatchObject({ appKey: 'acme#chat', clientId: 'fake-client-id' });
      expect(info.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(p.out()).not.toContain('from-env-secret');
      const token = await fetch(`${info.baseUrl}/acme/chat/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          grant_type: 'client_credentials',
          client_id: 'fake-client-id',
          client_secret: 'from-env-secret',
        }),
      });
      const { access_token } = (await token.json()) as { access_token: string };
      const headers = { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' };
      expect(
        (await fetch(`${info.baseUrl}/acme/chat/users`, { method: 'POST', headers, body: '{"username":"alice"}' }))
          .status,
      ).toBe(200);
      expect(await (await fetch(`${info.baseUrl}/acme/chat/users/alice`, { headers })).json()).toMatchObject({
        username: 'alice',
      });
      p.child.kill('SIGTERM');
      const [code] = await once(p.child, 'exit');
      expect(code).toBe(0);
    } finally {
      if (p.child.exitCode === null) p.child.kill('SIGKILL');
    }
  }, 60_000);

  it('refuses a host beyond loopback without --allow-remote (exit 1, says why)', async () => {
    const p = start(['--port', '0', '--host', '0.0.0.0']);
    const [code] = await once(p.child, 'exit');
    expect(code).toBe(1);
    expect(p.err()).toMatch(/not loopback.*--allow-remote/);
  }, 60_000);
});
