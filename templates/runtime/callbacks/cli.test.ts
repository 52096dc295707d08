/** The im-callbacks CLI (scripts/im-callbacks.ts) against a real receiver built with this kit. */
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reject } from './decisions.js';
import { createNodeCallbackHandler } from './node.js';
import type { CallbackEvent } from './types.js';

const SECRET = 'whsec_cli_Hq8Lp2Zt';
const cli = fileURLToPath(new URL('../../../scripts/im-callbacks.ts', import.meta.url));
const received: CallbackEvent[] = [];
let server: Server;
let url = '';

function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', cli, ...args], { env: { ...process.env, ...env }, timeout: 15_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
      resolve({ code, out: stdout + stderr });
    });
  });
}

beforeAll(async () => {
  const handler = createNodeCallbackHandler({
    secrets: SECRET,
    logger: {},
    onEvent: (e) => void received.push(e),
    onHook: () => reject('cli test'),
  });
  server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callbacks`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('im-callbacks send', () => {
  it('sends signed event, verify and hook samples; refuses remote URLs; never prints the secret', async () => {
    const [event, verify, hook, wrong, remote] = await Promise.all([
      run(['send', '--url', url, '--secret', SECRET, '--kind', 'event', '--type', 'group.members_added', '--events', '2']),
      run(['send', '--url', url, '--kind', 'verify'], { IM_CALLBACK_SECRET: SECRET }),
      run(['send', '--url', url, '--secret', 'another', '--old-secret', SECRET, '--kind', 'hook']),
      run(['send', '--url', url, '--secret', 'not-the-secret', '--kind', 'verify']),
      run(['send', '--url', 'https://hooks.example.com/cb', '--secret', SECRET]),
    ]);
    expect(event.code, event.out).toBe(0);
    expect(event.out).toContain('→ 200');
    expect(received.filter((e) => e.type === 'group.members_added')).toHaveLength(2);
    expect(verify.code, verify.out).toBe(0);
    expect(verify.out).toContain('challenge echoed correctly');
    expect(hook.code, hook.out).toBe(0);
    expect(hook.out).toContain('"decision":"reject"');
    expect(wrong.code).toBe(1);
    expect(wrong.out).toContain('→ 401');
    expect(remote.code).toBe(2);
    expect(remote.out).toContain('--allow-remote');
    for (const r of [event, verify, hook, wrong, remote]) expect(r.out).not.toContain(SECRET);
  }, 20_000);
});
