/**
 * Issue 16: nothing hangs, nothing is unbounded, nothing the network says is trusted blindly.
 * Each test here failed on the code before the fix (the observed "before" is in its comment)
 * and runs the real client against the fake service on 127.0.0.1.
 */
import { describe, expect, test } from 'vitest';
import { SECRET, TOKEN_PREFIX, apiError, makeClient, ops, recordingLogger, startFakeService } from '../test-support/fake-service.js';

describe('item 3: answers of the service are not trusted as they come', () => {
  test('expires_in below the documented 300 s is clamped: one exchange for many calls, not one per call', async () => {
    // Before: expires_in 1 → a new exchange for each of the 10 calls (10 exchanges).
    let clock = Date.UTC(2030, 0, 1);
    const svc = await startFakeService({ expiresIn: 1 });
    const { lines, logger } = recordingLogger();
    const client = makeClient(svc.baseUrl, { logger, internals: { random: () => 0, now: () => clock } });
    for (let i = 0; i < 10; i++) {
      await client.request(ops.usersGet, { username: 'a' });
      clock += 2_000; // 2 s between calls: a 1 s token would be expired at every call
    }
    expect(svc.exchanges).toHaveLength(1);
    expect(lines.join('\n')).toMatch(/expires_in 1 s, outside the documented 300 s to 1 year; using 300 s/);
  });

  test('expires_in above a year is clamped to a year', async () => {
    const svc = await startFakeService({ expiresIn: 10 * 365 * 24 * 3600 });
    const client = makeClient(svc.baseUrl);
    const before = Date.now();
    await client.request(ops.usersGet, { username: 'a' });
    expect(svc.exchanges).toHaveLength(1);
    const events: number[] = [];
    const c2 = makeClient(svc.baseUrl, { onTokenEvent: (e) => e.expiresAt !== undefined && events.push(e.expiresAt) });
    await c2.request(ops.usersGet, { username: 'a' });
    expect(events[0]! - before).toBeLessThanOrEqual(365 * 24 * 3600 * 1000 + 60_000);
  });

  test('a __proto__ key in error.details never becomes the prototype of err.details (at any depth)', async () => {
    // Before: Object.getPrototypeOf(err.details) was { polluted: true } and err.details.polluted was true.
    const raw = '{"error":{"code":"invalid_argument","message":"m","details":{"__proto__":{"polluted":true},"field":"x",' +
      '"nested":{"constructor":{"prototype":{"polluted":true}},"__proto__":{"polluted":true}}}}}';
    const svc = await startFakeService({ handle: () => ({ status: 400, body: raw }) });
    const err = (await makeClient(svc.baseUrl).request(ops.usersGet, { username: 'a' }).catch((e: unknown) => e)) as {
      details: Record<string, unknown>;
    };
    expect(err.details.field).toBe('x');
    expect(Object.getPrototypeOf(err.details)).toBe(Object.prototype);
    expect((err.details as { polluted?: unknown }).polluted).toBeUndefined();
    const nested = err.details.nested as Record<string, unknown>;
    expect(Object.getPrototypeOf(nested)).toBe(Object.prototype);
    expect(Object.keys(nested)).toEqual([]);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });
});

describe('item 5: redaction before truncation, at any depth', () => {
  const nest = (depth: number, leaf: Record<string, unknown>): Record<string, unknown> => {
    let value: Record<string, unknown> = leaf;
    for (let i = 0; i < depth; i++) value = { level: value };
    return value;
  };

  test('the App Token 12 levels deep in error.details does not reach JSON.stringify(error)', async () => {
    // Before: depth > 8 was returned as it came: the token and the secret appeared in the JSON.
    const svc = await startFakeService({
      handle: (req) => apiError(400, 'invalid_argument', nest(12, { echo: String(req.headers.authorization).slice('Bearer '.length), note: SECRET })),
    });
    const err = await makeClient(svc.baseUrl).request(ops.usersGet, { username: 'a' }).catch((e: unknown) => e);
    const json = JSON.stringify(err);
    expect(json).not.toContain(TOKEN_PREFIX);
    expect(json).not.toContain(SECRET);
    expect(json).toContain('***');
  });

  test('500 levels of nesting: no stack overflow, nothing deep shown', async () => {
    const svc = await startFakeService({ handle: (req) => apiError(400, 'invalid_argument', nest(500, { t: String(req.headers.authorization) })) });
    const err = await makeClient(svc.baseUrl).request(ops.usersGet, { username: 'a' }).catch((e: unknown) => e);
    const json = JSON.stringify(err);
    expect(json).not.toContain(TOKEN_PREFIX);
    expect(json).toContain('nested too deeply');
  });

  test('invalid_client details echoing the client secret deep down are redacted', async () => {
    const svc = await startFakeService({ token: () => apiError(401, 'invalid_client', nest(10, { got: SECRET })) });
    const err = await makeClient(svc.baseUrl).request(ops.usersGet, { username: 'a' }).catch((e: unknown) => e);
    expect(JSON.stringify(err)).not.toContain(SECRET);
    expect(String((err as Error).message)).not.toContain(SECRET);
  });

  test('a token straddling the 200-character cut of a text body is not leaked as a prefix', async () => {
    // Before: the body was cut at 200 characters first, so "tok-LEAKCHECK-app…" survived redaction.
    const svc = await startFakeService({
      handle: (req) => {
        const token = String(req.headers.authorization).slice('Bearer '.length);
        return { status: 502, body: `${'x'.repeat(180)} token=${token} after`, headers: { 'content-type': 'text/plain' } };
      },
    });
    const err = await makeClient(svc.baseUrl, { maxRetries: 0 }).request(ops.usersGet, { username: 'a' }).catch((e: unknown) => e);
    const shown = `${String((err as Error).message)} ${JSON.stringify(err)}`;
    expect(shown).not.toContain('tok-LEAK');
    expect(shown).toContain('token=***');
  });
});

describe('item 8: no listener build-up on a shared signal', () => {
  test('200 calls that start together on a fresh client print no MaxListenersExceededWarning', async () => {
    // Before: (node) MaxListenersExceededWarning: Possible EventTarget memory leak detected. 11 abort listeners added to [AbortSignal].
    const warnings: string[] = [];
    const onWarning = (w: Error): void => {
      warnings.push(`${w.name}: ${w.message}`);
    };
    process.on('warning', onWarning);
    try {
      const svc = await startFakeService({ token: () => ({ status: 200, delayMs: 100, body: { access_token: `${TOKEN_PREFIX}x`, expires_in: 3600 } }) });
      const client = makeClient(svc.baseUrl);
      await Promise.all(Array.from({ length: 200 }, () => client.request(ops.usersGet, { username: 'a' })));
      expect(svc.exchanges).toHaveLength(1);
      await new Promise((r) => setImmediate(r)); // warnings are emitted on a later tick
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((w) => /MaxListeners/.test(w))).toEqual([]);
  });
});
