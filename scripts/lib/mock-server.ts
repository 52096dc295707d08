/**
 * Starts Stoplight Prism as a mock of spec/openapi.yaml on 127.0.0.1 (a free port), waits until
 * it answers, and stops it (the whole process group) on `stop()`. Used by `npm run demo` and by
 * the ecosystem tests. Loopback only; every wait is bounded.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
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

export async function startMock(opts: { spec?: string; timeoutMs?: number } = {}): Promise<MockServer> {
  const spec = opts.spec ?? 'spec/openapi.yaml';
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const port = await freePort();
  const child: ChildProcess = spawn(
    `${repoRoot}node_modules/.bin/prism`,
    ['mock', '-h', '127.0.0.1', '-p', String(port), spec],
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
  const exitedPromise = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));

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
