/**
 * Issue 28 item 2: the body deadline holds on every documented framework recipe, each run as the
 * README mounts it in a receiver process of its own (test/fixtures/callbacks/framework-server.ts)
 * under `ulimit -n 256`:
 *  - a drip-fed body (1 byte every 200 ms, never complete) is answered 408 and its connection
 *    closed within bodyTimeoutMs (800 ms here) plus a margin;
 *  - fd exhaustion: 300 such connections (more than the process may hold) and then a correctly
 *    signed callback, resent on connection errors as the service resends: it is answered 200
 *    once the slow connections have been cut.
 * Before: Fastify (its parser read the body first) and NestJS (its body parser) kept a drip-fed body
 * open for minutes, and so did the README's express.raw() recipe; the signed callback to the
 * Fastify recipe under fd exhaustion never got an answer.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { sampleCallbackBody, signCallbackRequest } from '../generated/src/callbacks.js';
import { type RawSocket, rawSocket, within } from '../templates/runtime/test-support/raw-socket.js';

const SECRET = 'whsec_body_deadline_9Qx';
const BODY_TIMEOUT_MS = 800;
const FD_LIMIT = 256;
const SLOW = 300;
const fixture = fileURLToPath(new URL('./fixtures/callbacks/framework-server.ts', import.meta.url));
const children: ChildProcess[] = [];
const sockets: Socket[] = [];
const timers: ReturnType<typeof setInterval>[] = [];
afterEach(() => {
  for (const t of timers.splice(0)) clearInterval(t);
  for (const s of sockets.splice(0)) s.destroy();
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

async function startReceiver(framework: string): Promise<number> {
  const child = spawn('bash', ['-c', `ulimit -n ${FD_LIMIT} && exec "${process.execPath}" --import tsx "${fixture}"`], {
    env: { ...process.env, FRAMEWORK: framework, BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS), SECRET },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${framework} receiver did not start: ${err}`)), 30_000);
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /PORT (\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.once('exit', (code) => reject(new Error(`${framework} receiver exited ${code}: ${err}`)));
  });
}

/** A connection sending a body that never completes, a byte at a time; when it closed (ms after opening) and what it got. */
function drip(port: number): RawSocket {
  const conn = rawSocket(port, sockets);
  conn.socket.on('connect', () =>
    conn.socket.write(
      `POST /im/callbacks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`,
    ),
  );
  return conn;
}

function dripAll(): void {
  timers.push(
    setInterval(() => {
      for (const s of sockets) if (!s.destroyed && s.writable && !s.connecting) s.write('x');
    }, 200),
  );
}

/** POST a signed event, resending on connection errors as the service does; resolves the first status and when it came. */
async function signedCallback(
  port: number,
  deadlineMs: number,
): Promise<{ status: number | 'none'; ms: number; tries: number }> {
  const started = Date.now();
  const signed = signCallbackRequest({ body: sampleCallbackBody('event', { type: 'friend.added' }), secrets: SECRET });
  let tries = 0;
  while (Date.now() - started < deadlineMs) {
    tries++;
    const status = await new Promise<number | undefined>((resolve) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/im/callbacks',
          method: 'POST',
          headers: signed.headers,
          agent: false,
          timeout: 2_000,
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode));
        },
      );
      req.on('timeout', () => req.destroy());
      req.on('error', () => resolve(undefined));
      req.end(signed.body);
    });
    if (status !== undefined) return { status, ms: Date.now() - started, tries };
    await new Promise((r) => setTimeout(r, 100));
  }
  return { status: 'none', ms: Date.now() - started, tries };
}

const FRAMEWORKS = ['node', 'express', 'express-raw', 'koa', 'hono', 'fastify', 'nest'];

describe('issue 28 item 2: every framework recipe bounds the body read (receiver in its own process, ulimit -n 256)', () => {
  it.each(FRAMEWORKS)(
    '%s: a drip-fed body gets 408 and is closed; 300 slow connections do not keep a signed callback out',
    async (framework) => {
      const port = await startReceiver(framework);
      // 1. drip-fed bodies
      const slow = Array.from({ length: 5 }, () => drip(port));
      dripAll();
      const closed = await Promise.all(slow.map((c) => within(BODY_TIMEOUT_MS + 4_000, c.closedAfter)));
      const statuses = slow.map((c) => /^HTTP\/1\.1 (\d+)/.exec(c.received())?.[1] ?? 'none');
      // 2. fd exhaustion: more slow connections than the process may hold, then a signed callback
      const many = Array.from({ length: SLOW }, () => drip(port));
      await new Promise((r) => setTimeout(r, 300));
      const signed = await signedCallback(port, BODY_TIMEOUT_MS + 12_000);
      const cut = (await Promise.all(many.map((c) => within(3_000, c.closedAfter)))).filter(
        (t) => t !== 'still open',
      ).length;
      console.info(
        `[body deadline] ${framework}: drip-fed bodies answered ${statuses.join(',')} and closed after ${closed.map(String).join(', ')} ms (bodyTimeoutMs ${BODY_TIMEOUT_MS}); ${SLOW} slow connections under ulimit -n ${FD_LIMIT}: the signed callback answered ${signed.status} after ${signed.ms} ms (${signed.tries} tries); ${cut}/${SLOW} slow connections closed by then + 3 s`,
      );
      expect(closed.every((t) => typeof t === 'number' && t < BODY_TIMEOUT_MS + 4_000)).toBe(true);
      expect(statuses).toEqual(Array(5).fill('408'));
      expect(signed.status).toBe(200);
    },
    60_000,
  );
});
