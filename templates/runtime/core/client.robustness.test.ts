/**
 * Issue 16: nothing hangs, nothing is unbounded, nothing the network says is trusted blindly.
 * Each test here failed on the code before the fix (the observed "before" is in its comment)
 * and runs the real client against the fake service on 127.0.0.1.
 */
import { describe, expect, test } from 'vitest';
import { MemoryTokenStore, tokenStoreKey } from '../internal/token-manager.js';
import { AbortError, PermissionDeniedError, RateLimitPausedError } from './errors.js';
import {
  SECRET,
  TOKEN_PREFIX,
  apiError,
  makeClient,
  ops,
  recordingLogger,
  startFakeService,
} from '../test-support/fake-service.js';

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
    const events: number[] = [];
    const client = makeClient(svc.baseUrl, {
      onTokenEvent: (e) => e.expiresAt !== undefined && events.push(e.expiresAt),
    });
    const before = Date.now();
    await client.request(ops.usersGet, { username: 'a' });
    expect(svc.exchanges).toHaveLength(1);
    // one year, neither the 10 years asked for nor the 300 s floor
    const year = 365 * 24 * 3600 * 1000;
    expect(events[0]! - before).toBeGreaterThan(year - 60_000);
    expect(events[0]! - before).toBeLessThanOrEqual(year + 60_000);
  });

  test('a __proto__ key in error.details never becomes the prototype of err.details (at any depth)', async () => {
    // Before: Object.getPrototypeOf(err.details) was { polluted: true } and err.details.polluted was true.
    const raw =
      '{"error":{"code":"invalid_argument","message":"m","details":{"__proto__":{"polluted":true},"field":"x",' +
      '"nested":{"constructor":{"prototype":{"polluted":true}},"__proto__":{"polluted":true}}}}}';
    const svc = await startFakeService({ handle: () => ({ status: 400, body: raw }) });
    const err = (await makeClient(svc.baseUrl)
      .request(ops.usersGet, { username: 'a' })
      .catch((e: unknown) => e)) as {
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
      handle: (req) =>
        apiError(
          400,
          'invalid_argument',
          nest(12, { echo: String(req.headers.authorization).slice('Bearer '.length), note: SECRET }),
        ),
    });
    const err = await makeClient(svc.baseUrl)
      .request(ops.usersGet, { username: 'a' })
      .catch((e: unknown) => e);
    const json = JSON.stringify(err);
    expect(json).not.toContain(TOKEN_PREFIX);
    expect(json).not.toContain(SECRET);
    expect(json).toContain('***');
  });

  test('500 levels of nesting: no stack overflow, nothing deep shown', async () => {
    const svc = await startFakeService({
      handle: (req) => apiError(400, 'invalid_argument', nest(500, { t: String(req.headers.authorization) })),
    });
    const err = await makeClient(svc.baseUrl)
      .request(ops.usersGet, { username: 'a' })
      .catch((e: unknown) => e);
    const json = JSON.stringify(err);
    expect(json).not.toContain(TOKEN_PREFIX);
    expect(json).toContain('nested too deeply');
  });

  test('invalid_client details echoing the client secret deep down are redacted', async () => {
    const svc = await startFakeService({ token: () => apiError(401, 'invalid_client', nest(10, { got: SECRET })) });
    const err = await makeClient(svc.baseUrl)
      .request(ops.usersGet, { username: 'a' })
      .catch((e: unknown) => e);
    expect(JSON.stringify(err)).not.toContain(SECRET);
    expect(String((err as Error).message)).not.toContain(SECRET);
  });

  test('a token straddling the 200-character cut of a text body is not leaked as a prefix', async () => {
    // Before: the body was cut at 200 characters first, so "tok-LEAKCHECK-app…" survived redaction.
    const svc = await startFakeService({
      handle: (req) => {
        const token = String(req.headers.authorization).slice('Bearer '.length);
        return {
          status: 502,
          body: `${'x'.repeat(180)} token=${token} after`,
          headers: { 'content-type': 'text/plain' },
        };
      },
    });
    const err = await makeClient(svc.baseUrl, { maxRetries: 0 })
      .request(ops.usersGet, { username: 'a' })
      .catch((e: unknown) => e);
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
      const svc = await startFakeService({
        token: () => ({ status: 200, delayMs: 100, body: { access_token: `${TOKEN_PREFIX}x`, expires_in: 3600 } }),
      });
      const client = makeClient(svc.baseUrl);
      await Promise.all(Array.from({ length: 200 }, () => client.request(ops.usersGet, { username: 'a' })));
      expect(svc.exchanges).toHaveLength(1);
      await new Promise((r) => setImmediate(r)); // warnings are emitted on a later tick
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((w) => /MaxListeners/.test(w))).toEqual([]);
  });

  test('200 concurrent calls sharing ONE caller signal add one listener to it, none after they end; abort still reaches every call', async () => {
    // Before: one listener per call on the caller's signal: MaxListenersExceededWarning (11 abort listeners).
    const warnings: string[] = [];
    const onWarning = (w: Error): void => {
      warnings.push(`${w.name}: ${w.message}`);
    };
    process.on('warning', onWarning);
    const controller = new AbortController();
    const added: number[] = [];
    let live = 0;
    const signal = controller.signal;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = ((...args: Parameters<typeof add>) => (added.push(++live), add(...args))) as typeof add;
    signal.removeEventListener = ((...args: Parameters<typeof remove>) => (live--, remove(...args))) as typeof remove;
    try {
      const svc = await startFakeService({
        token: () => ({ status: 200, delayMs: 100, body: { access_token: `${TOKEN_PREFIX}x`, expires_in: 3600 } }),
      });
      const client = makeClient(svc.baseUrl);
      await Promise.all(Array.from({ length: 200 }, () => client.request(ops.usersGet, { username: 'a' }, { signal })));
      expect(Math.max(...added)).toBe(1);
      expect(live).toBe(0);
      // Still cancellable: 50 calls in flight, one abort ends them all.
      const held = await startFakeService({ handle: () => ({ hang: true }) });
      const c2 = makeClient(held.baseUrl);
      const inFlight = Array.from({ length: 50 }, () =>
        c2.request(ops.usersGet, { username: 'a' }, { signal }).catch((e: unknown) => e),
      );
      while (held.calls.length < 50) await new Promise((r) => setTimeout(r, 5));
      controller.abort(new Error('stop'));
      const ended = await Promise.all(inFlight);
      expect(ended.every((e) => e instanceof AbortError)).toBe(true);
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((w) => /MaxListeners/.test(w))).toEqual([]);
  });
});

describe('item 4: one long Retry-After does not disable the client', () => {
  const clockAt = (t: number) => {
    const clock = { t, now: () => clock.t, sleep: async (ms: number) => void (clock.t += ms) };
    return clock;
  };

  test('the pause is capped at 1 hour, visible as client.rateLimit, and clear() opens it', async () => {
    // Before: Retry-After 31536000 (a year) closed the gate for a year, with no way to see or clear it;
    // every later call failed unsent with status 429 as if the service had answered it.
    const clock = clockAt(Date.UTC(2030, 0, 1));
    let limited = true;
    const svc = await startFakeService({
      handle: () =>
        limited ? apiError(429, 'rate_limited', undefined, { 'retry-after': '31536000' }) : { status: 200, body: {} },
    });
    const client = makeClient(svc.baseUrl, { internals: { random: () => 0, now: clock.now, sleep: clock.sleep } });
    expect(client.rateLimit.pausedUntil).toBeNull();
    await client.request(ops.usersGet, { username: 'a' }).catch(() => undefined);
    expect(client.rateLimit.pausedUntil).toBe(clock.t + 3_600_000);
    expect(client.rateLimit.remainingMs).toBe(3_600_000);

    const unsent = await client.request(ops.usersGet, { username: 'b' }).catch((e: unknown) => e);
    expect(unsent).toBeInstanceOf(RateLimitPausedError);
    expect(unsent).toMatchObject({ sent: false, attempts: 0, code: 'rate_limit_paused', retryAfterMs: 3_600_000 });
    expect((unsent as Error).message).toMatch(/was not sent/);
    expect(svc.calls).toHaveLength(1);

    limited = false;
    client.rateLimit.clear();
    expect(client.rateLimit.pausedUntil).toBeNull();
    await expect(client.request(ops.usersGet, { username: 'c' })).resolves.toEqual({});
    expect(svc.calls).toHaveLength(2);
  });

  test('after the capped hour the client sends again by itself', async () => {
    const clock = clockAt(Date.UTC(2030, 0, 1));
    let n = 0;
    const svc = await startFakeService({
      handle: () =>
        ++n === 1
          ? apiError(429, 'rate_limited', undefined, { 'retry-after': 'Fri, 01 Jan 2100 00:00:00 GMT' })
          : { status: 200, body: {} },
    });
    const client = makeClient(svc.baseUrl, { internals: { random: () => 0, now: clock.now, sleep: clock.sleep } });
    await client.request(ops.usersGet, { username: 'a' }).catch(() => undefined);
    clock.t += 3_600_000;
    await expect(client.request(ops.usersGet, { username: 'b' })).resolves.toEqual({});
  });

  test('a garbage Retry-After ("foo 3000") pauses nothing beyond the normal backoff', async () => {
    // Before: Date.parse("foo 3000") is the year 3000: the client refused every call for ~974 years.
    const clock = clockAt(Date.UTC(2030, 0, 1));
    let n = 0;
    const svc = await startFakeService({
      handle: () =>
        ++n === 1 ? apiError(429, 'rate_limited', undefined, { 'retry-after': 'foo 3000' }) : { status: 200, body: {} },
    });
    const client = makeClient(svc.baseUrl, { internals: { random: () => 0, now: clock.now, sleep: clock.sleep } });
    const started = clock.t;
    await expect(client.request(ops.usersGet, { username: 'a' })).resolves.toEqual({});
    expect(clock.t - started).toBeLessThanOrEqual(1_000);
    expect(client.rateLimit.pausedUntil).toBeNull();
  });
});

describe('item 6: token-store keys never collide; a foreign token from the store is dropped', () => {
  /** A service that knows which application each token was issued for and answers 403 across applications. */
  const appAwareService = () => {
    const issuedFor = new Map<string, string>();
    return startFakeService({
      token: (req, n) => {
        const token = `${TOKEN_PREFIX}${n}`;
        issuedFor.set(token, req.path.slice(0, -'/token'.length));
        return { status: 200, body: { access_token: token, expires_in: 3600, application: `app-${n}` } };
      },
      handle: (req) => {
        const token = String(req.headers.authorization).slice('Bearer '.length);
        const app = issuedFor.get(token);
        return app !== undefined && req.path.startsWith(`${app}/`)
          ? { status: 200, body: { ok: true } }
          : apiError(403, 'permission_denied');
      },
    });
  };

  test('clients whose names contain | and # get keys of their own (no shared token, no 403)', async () => {
    // Before: both keys were "…|o#p|q|r": the second client used the first one's token and got 403 permission_denied.
    const svc = await appAwareService();
    const store = new MemoryTokenStore();
    const a = makeClient(svc.baseUrl, {
      appKey: undefined,
      orgName: 'o',
      appName: 'p|q',
      clientId: 'r',
      tokenStore: store,
    });
    const b = makeClient(svc.baseUrl, {
      appKey: undefined,
      orgName: 'o',
      appName: 'p',
      clientId: 'q|r',
      tokenStore: store,
    });
    await expect(a.request(ops.usersGet, { username: 'u' })).resolves.toEqual({ ok: true });
    await expect(b.request(ops.usersGet, { username: 'u' })).resolves.toEqual({ ok: true });
    expect(svc.exchanges).toHaveLength(2);
    expect(tokenStoreKey(svc.baseUrl, 'o', 'p|q', 'r')).not.toBe(tokenStoreKey(svc.baseUrl, 'o', 'p', 'q|r'));
    expect(tokenStoreKey(svc.baseUrl, 'a#b', 'c', 'd')).not.toBe(tokenStoreKey(svc.baseUrl, 'a', 'b#c', 'd'));
  });

  test('403 permission_denied with a token read from the store: dropped, own token exchanged, call resent once', async () => {
    // Before: the 403 was thrown, and the foreign token stayed in the store for its whole life (up to 7 days).
    const svc = await appAwareService();
    const store = new MemoryTokenStore();
    const other = makeClient(svc.baseUrl, { appKey: 'other#app', tokenStore: new MemoryTokenStore() });
    await other.request(ops.usersGet, { username: 'u' });
    const foreign = `${TOKEN_PREFIX}1`;
    const key = tokenStoreKey(svc.baseUrl, 'acme', 'chat', 'client-1');
    await store.set(key, { accessToken: foreign, expiresAt: Date.now() + 3_600_000 });
    const events: string[] = [];
    const client = makeClient(svc.baseUrl, {
      tokenStore: store,
      onTokenEvent: (e) => events.push(`${e.type}:${e.reason ?? ''}`),
    });
    await expect(client.request(ops.usersGet, { username: 'u' })).resolves.toEqual({ ok: true });
    expect(svc.exchanges).toHaveLength(2);
    expect((await store.get(key))?.accessToken).not.toBe(foreign);
    expect(events).toContain('invalidated:permission_denied');
  });

  test('403 permission_denied with a token this client exchanged itself is thrown (no loop)', async () => {
    const svc = await startFakeService({ handle: () => apiError(403, 'permission_denied') });
    const err = await makeClient(svc.baseUrl)
      .request(ops.usersGet, { username: 'u' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermissionDeniedError);
    expect(svc.calls).toHaveLength(1);
    expect(svc.exchanges).toHaveLength(1);
  });
});

describe('timer-sized options (found by the random bad-input test)', () => {
  test('a timeout longer than a timer can hold is refused, not turned into 1 ms by Node', async () => {
    const svc = await startFakeService({ handle: () => ({ status: 200, body: '{"username":"a"}' }) });
    try {
      const client = makeClient(svc.baseUrl);
      const huge = await client.request(ops.usersGet, { username: 'a' }, { timeoutMs: 2.4e203 }).then(
        () => 'sent',
        (e: unknown) => e,
      );
      expect(huge).toMatchObject({ name: 'ConfigError' });
      expect(String((huge as Error).message)).toMatch(/timeoutMs.*at most 2147483647/);
      expect(() => makeClient(svc.baseUrl, { timeoutMs: 1e12 })).toThrow(/timeoutMs.*from 1 to 2147483647/);
      // the largest allowed value is a real wait, not an instant timeout
      await expect(
        client.request(ops.usersGet, { username: 'a' }, { timeoutMs: 2_147_483_647 }),
      ).resolves.toMatchObject({ username: 'a' });
    } finally {
      await svc.close();
    }
  });
});
