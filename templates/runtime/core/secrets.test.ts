/**
 * Leak scan: with recognisable token and secret values (both contain LEAKCHECK), and a service
 * that echoes them back in messages, details and headers, no thrown error (message, stack,
 * JSON, inspect), no log line, no token event and no printed client shows them.
 */
import { inspect } from 'node:util';
import { expect, test } from 'vitest';
import {
  SECRET,
  SECRET_2,
  TOKEN_PREFIX,
  makeClient,
  ops,
  recordingLogger,
  startFakeService,
  type Recorded,
  type Reply,
} from '../test-support/fake-service.js';
import type { OperationSpec } from '../operation.js';
import { ImError } from './errors.js';

const MARK = 'LEAKCHECK';

function echo(r: Recorded, status: number, code: string, extra?: Record<string, unknown>): Reply {
  const auth = String(r.headers.authorization ?? '');
  const token = auth.replace(/^Bearer /, '');
  return {
    status,
    headers: { 'x-echo': auth, 'www-authenticate': `Bearer error="${token}"` },
    body: {
      error: {
        code,
        message: `refused header ${auth}; token ${token}; secret ${String(r.json?.client_secret ?? '')}`,
        request_id: 'req-leak',
        details: { authorization: auth, note: `token was ${token}`, client_secret: r.json?.client_secret, ...extra },
      },
    },
  };
}

function scanText(err: unknown): string {
  const parts = [inspect(err, { depth: 10 }), JSON.stringify(err)];
  for (let e: unknown = err; e instanceof Error; e = (e as { cause?: unknown }).cause)
    parts.push(e.message, e.stack ?? '');
  return parts.join('\n');
}

test('no token or secret value in any error, log line, event or printed object', async () => {
  const { lines, logger } = recordingLogger();
  const events: unknown[] = [];
  const errors: unknown[] = [];
  const capture = (p: Promise<unknown>) =>
    p.then(
      () => undefined,
      (e: unknown) => void errors.push(e),
    );
  const secretOp: OperationSpec = {
    ...ops.setPassword,
    loadValidator: async () => ({
      validate: () => [{ pointer: '/password', rule: 'pattern', message: `bad ${SECRET}` }],
    }),
  };

  // 1. invalid_client with the secret echoed (and a rotation attempt with a function secret).
  let svc = await startFakeService({ acceptSecrets: [], token: (r) => echo(r, 401, 'invalid_client') });
  let reads = 0;
  let client = makeClient(svc.baseUrl, {
    logger,
    onTokenEvent: (e) => events.push(e),
    clientSecret: () => (reads++ === 0 ? SECRET : SECRET_2),
  });
  await capture(client.request(ops.usersGet, { username: 'a' }));
  await capture(client.request(secretOp, { username: 'a', password: SECRET }));
  expect(inspect(client)).not.toContain(MARK);
  expect(JSON.stringify(client)).not.toContain(MARK);

  // 2. answers that echo the App Token, each against a fresh service and client.
  const scenarios: Array<(r: Recorded, n: number) => Reply> = [
    (r) => echo(r, 400, 'invalid_argument'),
    (r) => echo(r, 401, 'unauthenticated'), // twice: one re-exchange, then UnauthenticatedError
    (r) => echo(r, 503, 'unavailable'),
    (r) => ({ ...echo(r, 429, 'rate_limited'), headers: { 'retry-after': '999' } }),
    (r) => ({ status: 502, body: `<html>upstream said ${String(r.headers.authorization)}</html>` }),
    (r) => ({ status: 200, body: `not json ${String(r.headers.authorization)}` }),
    (r) => echo(r, 403, 'app_unavailable', { reason: 'app_deleted' }),
  ];
  for (const handle of scenarios) {
    svc = await startFakeService({ handle });
    client = makeClient(svc.baseUrl, { logger, maxRetries: 1, onTokenEvent: (e) => events.push(e) });
    await capture(client.request(ops.usersGet, { username: 'a' }));
    await capture(client.request(ops.usersGet, { username: 'again' }));
    expect(svc.requests.some((r) => String(r.headers.authorization).includes(TOKEN_PREFIX))).toBe(true);
  }
  // The token exchange answering non-JSON that echoes the secret.
  svc = await startFakeService({ token: (r) => ({ status: 200, body: `<p>${String(r.json?.client_secret)}</p>` }) });
  await capture(makeClient(svc.baseUrl, { logger }).request(ops.usersGet, { username: 'a' }));
  // A connection reset and a timeout.
  svc = await startFakeService({ handle: (_r, n) => (n === 1 ? { reset: true } : { hang: true }) });
  client = makeClient(svc.baseUrl, { logger, maxRetries: 0, timeoutMs: 50 });
  await capture(client.request(ops.usersGet, { username: 'a' }));
  await capture(client.request(ops.usersGet, { username: 'a' }));

  expect(errors.length).toBeGreaterThanOrEqual(18);
  for (const err of errors) {
    expect(err).toBeInstanceOf(ImError);
    const text = scanText(err);
    expect(text, text).not.toContain(MARK);
  }
  expect(lines.length).toBeGreaterThan(10);
  expect(lines.some((l) => l.startsWith('debug') && l.includes('attempt 1 ->'))).toBe(true);
  for (const line of lines) expect(line).not.toContain(MARK);
  expect(JSON.stringify(events)).not.toContain(MARK);
  // Sanity: the values were really on the wire (checked per scenario), so the scan proves something.
  expect(SECRET).toContain(MARK);
});
