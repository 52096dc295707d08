import { listPages } from './pagination.js';
import { inspect } from 'node:util';
import { describe, expect, test } from 'vitest';
import {
  SECRET,
  SECRET_2,
  TOKEN_PREFIX,
  apiError,
  makeClient,
  ops,
  startFakeService,
  type Recorded,
} from '../test-support/fake-service.js';
import {
  MemoryTokenStore,
  tokenStoreKey,
  type StoredToken,
  type TokenEvent,
  type TokenStore,
} from '../internal/token-manager.js';
import { ImCore } from './im-core.js';
import { ConfigError, CredentialsRevokedError, InvalidClientError, UnauthenticatedError } from './errors.js';

const bearer = (r: Recorded | undefined): string | undefined => r?.headers.authorization;

describe('client options', () => {
  const good = { baseUrl: 'https://api.example.com/', appKey: 'acme#chat', clientId: 'c', clientSecret: SECRET };
  test.each([
    ['baseUrl', { ...good, baseUrl: undefined }],
    ['baseUrl', { ...good, baseUrl: 'api.example.com' }],
    ['baseUrl', { ...good, baseUrl: 'ftp://api.example.com' }],
    ['baseUrl', { ...good, baseUrl: 'https://api.example.com/?x=1' }],
    ['appKey', { ...good, appKey: 'acme-chat' }],
    ['appKey', { ...good, appKey: 'a#b#c' }],
    ['appKey', { ...good, appKey: '#chat' }],
    ['appKey', { ...good, orgName: 'acme' }],
    ['orgName', { ...good, appKey: undefined }],
    ['appName', { ...good, appKey: undefined, orgName: 'acme' }],
    ['clientId', { ...good, clientId: '' }],
    ['clientSecret', { ...good, clientSecret: undefined }],
    ['clientSecret', { ...good, clientSecret: 42 }],
    ['maxRetries', { ...good, maxRetries: -1 }],
    ['maxRetries', { ...good, maxRetries: 1.5 }],
    ['timeoutMs', { ...good, timeoutMs: 0 }],
    ['tokenStore', { ...good, tokenStore: { get() {} } }],
    ['fetch', { ...good, fetch: 'nope' }],
  ])('%s is named when wrong', (option, opts) => {
    let err: unknown;
    try {
      new ImCore(opts as never);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).option).toBe(option);
    expect((err as Error).message).toContain(`\`${option}\``);
    expect((err as Error).message).not.toContain(SECRET);
  });

  test('appKey and orgName/appName forms are equivalent; trailing slash trimmed', () => {
    const a = new ImCore(good);
    const b = new ImCore({ ...good, appKey: undefined, orgName: 'acme', appName: 'chat' });
    expect(a.toJSON()).toEqual(b.toJSON());
    expect(a.toJSON()).toEqual({ baseUrl: 'https://api.example.com', orgName: 'acme', appName: 'chat', clientId: 'c' });
  });

  test('printing the client shows no secret', () => {
    const c = new ImCore(good);
    for (const text of [
      JSON.stringify(c),
      inspect(c, { depth: 10, showHidden: true }),
      String(c),
      `${inspect({ c })}`,
    ]) {
      expect(text).not.toContain(SECRET);
    }
    expect(inspect(c)).toContain('acme');
  });
});

describe('token exchange and caching', () => {
  test('exchange sends client credentials without Authorization; the token is reused', async () => {
    const svc = await startFakeService();
    const client = makeClient(svc.baseUrl);
    await client.request(ops.usersGet, { username: 'a' });
    await client.request(ops.usersGet, { username: 'b' });
    expect(svc.exchanges).toHaveLength(1);
    const ex = svc.exchanges[0];
    expect(ex?.method).toBe('POST');
    expect(ex?.path).toBe('/acme/chat/token');
    expect(ex?.headers.authorization).toBeUndefined();
    expect(ex?.json).toEqual({ grant_type: 'client_credentials', client_id: 'client-1', client_secret: SECRET });
    expect(svc.calls.map(bearer)).toEqual([`Bearer ${TOKEN_PREFIX}1`, `Bearer ${TOKEN_PREFIX}1`]);
  });

  test('single flight: 50 concurrent calls → one exchange', async () => {
    const svc = await startFakeService({
      token: () => ({ status: 200, delayMs: 50, body: { access_token: `${TOKEN_PREFIX}x`, expires_in: 3600 } }),
    });
    const client = makeClient(svc.baseUrl);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => client.request(ops.usersGet, { username: `u${i}` })),
    );
    expect(results).toHaveLength(50);
    expect(svc.exchanges).toHaveLength(1);
    expect(new Set(svc.calls.map(bearer))).toEqual(new Set([`Bearer ${TOKEN_PREFIX}x`]));
  });

  test('the store key names baseUrl, org#app and clientId but never the secret; a shared store shares the token', async () => {
    const svc = await startFakeService();
    const keys: string[] = [];
    const inner = new MemoryTokenStore();
    const store: TokenStore = {
      get: (k) => inner.get(k),
      set: (k, t: StoredToken) => (keys.push(k), inner.set(k, t)),
      delete: (k) => inner.delete(k),
    };
    await makeClient(svc.baseUrl, { tokenStore: store }).request(ops.usersGet, { username: 'a' });
    await makeClient(svc.baseUrl, { tokenStore: store }).request(ops.usersGet, { username: 'a' });
    expect(svc.exchanges).toHaveLength(1);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toContain(svc.baseUrl);
    expect(keys[0]).toContain('acme#chat');
    expect(keys[0]).toContain('client-1');
    expect(keys[0]).not.toContain(SECRET);
  });

  test('withExchangeLock of the store wraps the exchange', async () => {
    const svc = await startFakeService();
    let locked = 0;
    const inner = new MemoryTokenStore();
    const store: TokenStore = {
      get: (k) => inner.get(k),
      set: (k, t) => inner.set(k, t),
      delete: (k) => inner.delete(k),
      withExchangeLock: async (_k, fn) => {
        locked += 1;
        return fn();
      },
    };
    await makeClient(svc.baseUrl, { tokenStore: store }).request(ops.usersGet, { username: 'a' });
    expect(locked).toBe(1);
  });

  test('refresh ahead: inside the margin callers keep the old token while one background exchange runs', async () => {
    let now = 1_000_000;
    const events: TokenEvent[] = [];
    let release: () => void = () => {};
    const svc = await startFakeService({
      expiresIn: 300,
      token: (_r, n) =>
        n === 1
          ? { status: 200, body: { access_token: `${TOKEN_PREFIX}1`, expires_in: 300 } }
          : new Promise((resolve) => {
              release = () => resolve({ status: 200, body: { access_token: `${TOKEN_PREFIX}2`, expires_in: 300 } });
            }),
    });
    const client = makeClient(svc.baseUrl, {
      internals: { random: () => 0, now: () => now },
      onTokenEvent: (e) => events.push(e),
    });
    await client.request(ops.usersGet, { username: 'a' });
    now += 275_000; // margin = min(5 min, 10 % of 300 s) = 30 s: due, still valid
    await client.request(ops.usersGet, { username: 'b' });
    await client.request(ops.usersGet, { username: 'c' });
    expect(svc.calls.map(bearer)).toEqual([
      `Bearer ${TOKEN_PREFIX}1`,
      `Bearer ${TOKEN_PREFIX}1`,
      `Bearer ${TOKEN_PREFIX}1`,
    ]);
    await vitestWaitFor(() => svc.exchanges.length === 2);
    release();
    await vitestWaitFor(() => events.some((e) => e.type === 'refreshed'));
    await client.request(ops.usersGet, { username: 'd' });
    expect(bearer(svc.calls[3])).toBe(`Bearer ${TOKEN_PREFIX}2`);
    expect(svc.exchanges).toHaveLength(2);
    expect(events.map((e) => e.type)).toEqual(['exchanged', 'refreshed']);
    expect(JSON.stringify(events)).not.toContain(TOKEN_PREFIX);
  });

  test('an expired token makes callers wait for one exchange', async () => {
    let now = 1_000_000;
    const svc = await startFakeService({ expiresIn: 300 });
    const client = makeClient(svc.baseUrl, { internals: { random: () => 0, now: () => now } });
    await client.request(ops.usersGet, { username: 'a' });
    now += 301_000;
    await Promise.all([1, 2, 3].map((i) => client.request(ops.usersGet, { username: `u${i}` })));
    expect(svc.exchanges).toHaveLength(2);
    expect(svc.calls.slice(1).map(bearer)).toEqual(Array(3).fill(`Bearer ${TOKEN_PREFIX}2`));
  });
});

describe('401 unauthenticated', () => {
  test('one new exchange and one resend', async () => {
    const events: string[] = [];
    const svc = await startFakeService({
      handle: (r) =>
        r.headers.authorization === `Bearer ${TOKEN_PREFIX}1`
          ? apiError(401, 'unauthenticated')
          : { status: 200, body: { ok: 1 } },
    });
    const client = makeClient(svc.baseUrl, { onTokenEvent: (e) => events.push(e.type) });
    await expect(client.request(ops.setPassword, { username: 'a', password: 'pw-123456' })).resolves.toEqual({ ok: 1 });
    expect(svc.exchanges).toHaveLength(2);
    expect(svc.calls).toHaveLength(2); // even class N: a 401 was not executed
    expect(events).toEqual(['exchanged', 'invalidated', 'exchanged']);
  });

  test('a second 401 fails with UnauthenticatedError', async () => {
    const svc = await startFakeService({ handle: () => apiError(401, 'unauthenticated') });
    const client = makeClient(svc.baseUrl);
    const err = await client.request(ops.usersGet, { username: 'a' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnauthenticatedError);
    expect((err as UnauthenticatedError).status).toBe(401);
    expect(svc.exchanges).toHaveLength(2);
    expect(svc.calls).toHaveLength(2);
  });

  test('50 concurrent calls refused with the old token → still one new exchange', async () => {
    const svc = await startFakeService({
      handle: (r) =>
        r.headers.authorization === `Bearer ${TOKEN_PREFIX}1`
          ? apiError(401, 'unauthenticated')
          : { status: 200, body: {} },
    });
    const client = makeClient(svc.baseUrl);
    await Promise.all(Array.from({ length: 50 }, (_, i) => client.request(ops.usersGet, { username: `u${i}` })));
    expect(svc.exchanges).toHaveLength(2);
    expect(svc.calls).toHaveLength(100);
  });
});

describe('invalid_client', () => {
  test('fails with InvalidClientError naming both possible causes, no operation sent', async () => {
    const svc = await startFakeService({ acceptSecrets: ['something-else'] });
    const client = makeClient(svc.baseUrl);
    const err = await client.request(ops.usersGet, { username: 'a' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidClientError);
    const msg = (err as Error).message;
    expect(msg).toMatch(/client id or client secret/);
    expect(msg).toMatch(/org_name\/app_name/);
    expect(msg).not.toContain(SECRET);
    expect(svc.exchanges).toHaveLength(1);
    expect(svc.calls).toHaveLength(0);
  });

  test('a function secret is re-read once after invalid_client (rotation without restart)', async () => {
    const svc = await startFakeService({ acceptSecrets: [SECRET_2] });
    const secrets = [SECRET, SECRET_2];
    let reads = 0;
    const client = makeClient(svc.baseUrl, { clientSecret: async () => secrets[Math.min(reads++, 1)] ?? '' });
    await expect(client.request(ops.usersGet, { username: 'a' })).resolves.toBeDefined();
    expect(svc.exchanges.map((e) => e.json?.client_secret)).toEqual([SECRET, SECRET_2]);
    expect(reads).toBe(2);
  });

  test('an unchanged re-read secret is not sent again', async () => {
    const svc = await startFakeService({ acceptSecrets: [SECRET_2] });
    const client = makeClient(svc.baseUrl, { clientSecret: () => SECRET });
    await expect(client.request(ops.usersGet, { username: 'a' })).rejects.toBeInstanceOf(InvalidClientError);
    expect(svc.exchanges).toHaveLength(1);
  });
});

describe('credentials revoked (app_deleted / tenant_closed)', () => {
  test('app_deleted on an operation: store cleared, hook once, later calls fail without network', async () => {
    const svc = await startFakeService({ handle: () => apiError(403, 'app_unavailable', { reason: 'app_deleted' }) });
    const store = new MemoryTokenStore();
    const revoked: CredentialsRevokedError[] = [];
    const events: string[] = [];
    const client = makeClient(svc.baseUrl, {
      tokenStore: store,
      onCredentialsRevoked: (e) => revoked.push(e),
      onTokenEvent: (e) => events.push(e.type),
    });
    const first = await client.request(ops.usersGet, { username: 'a' }).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(CredentialsRevokedError);
    expect((first as CredentialsRevokedError).reason).toBe('app_deleted');
    expect(svc.calls).toHaveLength(1); // never resent
    expect(client.credentialsRevoked).toBe(true);
    const seen = svc.requests.length;
    const later = await Promise.all([
      client.request(ops.usersGet, { username: 'b' }).catch((e: unknown) => e),
      listPages(client, ops.groupsOfUser, { username: 'b' }).catch((e: unknown) => e),
    ]);
    for (const e of later) {
      expect(e).toBeInstanceOf(CredentialsRevokedError);
      expect((e as CredentialsRevokedError).attempts).toBe(0);
    }
    expect(svc.requests).toHaveLength(seen);
    expect(revoked).toHaveLength(1);
    expect(events).toContain('revoked');
    expect(await store.get(tokenStoreKey(svc.baseUrl, 'acme', 'chat', 'client-1'))).toBeNull();
  });

  test('tenant_closed on the token exchange', async () => {
    const svc = await startFakeService({ token: () => apiError(401, 'invalid_client', { reason: 'tenant_closed' }) });
    let hook = 0;
    const client = makeClient(svc.baseUrl, { onCredentialsRevoked: () => hook++, clientSecret: () => SECRET });
    await expect(client.request(ops.usersGet, { username: 'a' })).rejects.toMatchObject({ reason: 'tenant_closed' });
    await expect(client.request(ops.usersGet, { username: 'a' })).rejects.toBeInstanceOf(CredentialsRevokedError);
    expect(svc.exchanges).toHaveLength(1);
    expect(svc.calls).toHaveLength(0);
    expect(hook).toBe(1);
  });
});

async function vitestWaitFor(cond: () => boolean, timeoutMs = 2_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('hooks and loggers never break a call', () => {
  test('a throwing logger and throwing hooks', async () => {
    const svc = await startFakeService();
    const boom = () => {
      throw new Error('hook failed');
    };
    const client = makeClient(svc.baseUrl, {
      logger: { debug: boom, info: boom, warn: boom, error: boom },
      onTokenEvent: boom,
    });
    await expect(client.request(ops.usersGet, { username: 'a' })).resolves.toEqual({ ok: true });
  });
});
