/** The im-callbacks CLI (scripts/im-callbacks.ts) against a real receiver built with this kit. */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
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
const generatedBin = fileURLToPath(new URL('../../../generated/src/bin/im-callbacks.ts', import.meta.url));
const packageVersion = (
  JSON.parse(readFileSync(new URL('../../../generated/package.json', import.meta.url), 'utf8')) as { version: string }
).version;
const received: CallbackEvent[] = [];
const processedIds: string[] = [];
let server: Server;
let url = '';

function run(args: string[], env: Record<string, string> = {}, bin = cli): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', bin, ...args],
      { env: { ...process.env, ...env }, timeout: 15_000 },
      (err, stdout, stderr) => {
        const code = err
          ? typeof (err as { code?: unknown }).code === 'number'
            ? (err as { code: number }).code
            : 1
          : 0;
        resolve({ code, out: stdout + stderr });
      },
    );
  });
}

beforeAll(async () => {
  const handler = createNodeCallbackHandler({
    secrets: SECRET,
    logger: {},
    onEvent: (e) => {
      received.push(e);
      processedIds.push(e.id);
    },
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
      run([
        'send',
        '--url',
        url,
        '--secret',
        SECRET,
        '--kind',
        'event',
        '--type',
        'group.members_added',
        '--events',
        '2',
      ]),
      run(['send', '--url', url, '--kind', 'verify'], { IM_CALLBACK_SECRET: SECRET }),
      run(['send', '--url', url, '--secret', 'another', '--old-secret', SECRET, '--kind', 'hook']),
      run(['send', '--url', url, '--secret', 'not-the-secret', '--kind', 'verify']),
      run(['send', '--url', 'https://hooks.example.com/cb', '--secret', SECRET]),
    ]);
    expect(event.code, event.out).toBe(0);
    expect(event.out).toContain(`signature=${process.env.IM_TEST_SIGNATURE ?? 'im-v1'}`); // the scheme of this vitest project
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

describe('im-callbacks keeps URL tokens and the old secret out of what it prints', () => {
  it('a ?token= query is printed as ***, user:password is refused, IM_CALLBACK_OLD_SECRET signs the rotation pair', async () => {
    const TOKEN = 'qtok_Z9x8W7v6';
    const [withToken, withUserinfo, rotation, unreachable] = await Promise.all([
      run(['send', '--url', `${url}?token=${TOKEN}`, '--kind', 'verify'], { IM_CALLBACK_SECRET: SECRET }),
      run(['send', '--url', url.replace('http://', 'http://user:pw@'), '--kind', 'verify'], {
        IM_CALLBACK_SECRET: SECRET,
      }),
      run(['send', '--url', url, '--kind', 'verify'], {
        IM_CALLBACK_SECRET: 'the-new-one',
        IM_CALLBACK_OLD_SECRET: SECRET,
      }),
      run(['send', '--url', `http://127.0.0.1:1/cb?token=${TOKEN}`, '--kind', 'verify'], {
        IM_CALLBACK_SECRET: SECRET,
      }),
    ]);
    expect(withToken.code, withToken.out).toBe(0);
    expect(withToken.out).toContain('?token=***');
    expect(withUserinfo.code).toBe(2);
    expect(withUserinfo.out).toContain('must not contain user:password');
    expect(rotation.code, rotation.out).toBe(0);
    expect(rotation.out).toContain('challenge echoed correctly');
    expect(unreachable.code).toBe(1);
    for (const r of [withToken, withUserinfo, rotation, unreachable]) {
      expect(r.out).not.toContain(TOKEN);
      expect(r.out).not.toContain(SECRET);
      expect(r.out).not.toContain('pw@');
    }
  }, 20_000);
});

describe('im-callbacks --help, --version, resending an event id', () => {
  it('--help documents every option and IM_CALLBACK_SECRET and exits 0; --version prints the package version', async () => {
    const [help, sendHelp, version, short, generated, none] = await Promise.all([
      run(['--help']),
      run(['send', '--help']),
      run(['--version']),
      run(['-v']),
      run(['--version'], {}, generatedBin),
      run([]),
    ]);
    expect(help.code).toBe(0);
    for (const option of [
      '--url',
      '--secret',
      '--old-secret',
      '--kind',
      '--type',
      '--events',
      '--event-id',
      '--repeat',
      '--hook',
      '--timeout-ms',
      '--body',
      '--allow-remote',
      '--version',
    ]) {
      expect(help.out).toContain(option);
    }
    expect(help.out).toMatch(/IM_CALLBACK_SECRET\s+the signing secret/);
    expect(sendHelp).toEqual(help);
    expect(version).toEqual({ code: 0, out: `${packageVersion}\n` });
    expect(short).toEqual(version);
    expect(generated).toEqual(version); // the bin the package ships knows the same version
    expect(none.code).toBe(2);
    expect(none.out).toContain('usage:');
  }, 20_000);

  it('--repeat resends the same event id (fresh signature each time) and --event-id resends it later: processed once', async () => {
    const id = `evt_cli_resend_${Date.now()}`;
    const first = await run(['send', '--url', url, '--event-id', id, '--repeat', '3', '--type', 'friend.added'], {
      IM_CALLBACK_SECRET: SECRET,
    });
    expect(first.code, first.out).toBe(0);
    expect(first.out.match(/→ 200/g)).toHaveLength(3);
    const requestIds = [...first.out.matchAll(/request_id=(\S+)/g)].map((m) => m[1]);
    expect(new Set(requestIds).size).toBe(3); // a retry is a new request
    expect(first.out.match(new RegExp(`event_ids=${id}\\b`, 'g'))).toHaveLength(3);
    const later = await run(['send', '--url', url, '--event-id', id, '--type', 'friend.added'], {
      IM_CALLBACK_SECRET: SECRET,
    });
    expect(later.code, later.out).toBe(0);
    expect(processedIds.filter((x) => x === id)).toHaveLength(1);
    const attempts = received.filter((e) => e.id === id).map((e) => e.attempt);
    expect(attempts).toEqual([1]);

    const bad = await Promise.all([
      run(['send', '--url', url, '--repeat', '0'], { IM_CALLBACK_SECRET: SECRET }),
      run(['send', '--url', url, '--kind', 'verify', '--event-id', 'x'], { IM_CALLBACK_SECRET: SECRET }),
    ]);
    for (const b of bad) expect(b.code, b.out).toBe(2);
    for (const r of [first, later, ...bad]) expect(r.out).not.toContain(SECRET);
  }, 30_000);
});

describe('issue 28 item 7: the loopback guard checks addresses, not names; --secret is flagged', () => {
  it('refuses evil.localhost and "localhost." before anything is sent; accepts literal loopback addresses and localhost', async () => {
    const port = new URL(url).port;
    const before = processedIds.length;
    const [evil, dotted, sub, v6, local] = await Promise.all([
      run(['send', '--url', `http://evil.localhost:${port}/callbacks`], { IM_CALLBACK_SECRET: SECRET }),
      run(['send', '--url', `http://localhost.:${port}/callbacks`], { IM_CALLBACK_SECRET: SECRET }),
      run(['simulate', '--url', `http://a.b.localhost:${port}/callbacks`, '--events', '1'], {
        IM_CALLBACK_SECRET: SECRET,
      }),
      run(['send', '--url', `http://[::ffff:127.0.0.1]:${port}/callbacks`, '--kind', 'verify'], {
        IM_CALLBACK_SECRET: SECRET,
      }),
      run(['send', '--url', `http://localhost:${port}/callbacks`, '--kind', 'verify'], { IM_CALLBACK_SECRET: SECRET }),
    ]);
    for (const refused of [evil, dotted, sub]) {
      expect(refused.code, refused.out).toBe(2);
      expect(refused.out).toMatch(/not a loopback address/);
    }
    expect(v6.code, v6.out).toBe(0); // a v4-mapped loopback address is loopback

    expect(local.code, local.out).toBe(0);
    expect(processedIds.length).toBe(before);
    const { isLoopbackTarget } = await import('./url.js');
    // a hosts file that sends localhost elsewhere is refused too
    expect(
      await isLoopbackTarget(new URL('http://localhost/'), async () => [
        { address: '127.0.0.1' },
        { address: '10.0.0.7' },
      ]),
    ).toBe(false);
    expect(
      await isLoopbackTarget(new URL('http://localhost/'), async () => [{ address: '::1' }, { address: '127.0.0.1' }]),
    ).toBe(true);
  });

  it('--help says the secret options show in the process list; using them prints a note (never the secret)', async () => {
    const help = await run(['--help']);
    expect(help.out).toMatch(
      /--secret <secret> +the address signing secret\. Visible to every user of this machine in the\s+process list/,
    );
    const simHelp = await run(['simulate', '--help']);
    expect(simHelp.out).toMatch(/Visible to other users in the process list/);
    const sent = await run(['send', '--url', url, '--secret', SECRET, '--kind', 'verify']);
    expect(sent.code).toBe(0);
    expect(sent.out).toMatch(
      /--secret\/--old-secret are visible to other users in the process list.*prefer IM_CALLBACK_SECRET/,
    );
    expect(sent.out).not.toContain(SECRET);
    const fromEnv = await run(['send', '--url', url, '--kind', 'verify'], { IM_CALLBACK_SECRET: SECRET });
    expect(fromEnv.out).not.toMatch(/process list/);
  });
});
