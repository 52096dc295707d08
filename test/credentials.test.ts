/**
 * Credential safety (REST seed sections 1 and 5): server only, credentials from the environment,
 * secret rotation without restart, credential loss, and nothing that shows a secret.
 */
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ConfigError,
  CredentialsRevokedError,
  ImClient,
  MemoryTokenStore,
  browserLikeScope,
  maskUrlQuery,
} from '../generated/src/index.js';
import { createFakeService, type FakeService } from '../generated/src/testing.js';

const CLIENT_ID = 'client-id-for-tests';
const CLIENT_SECRET = 'client-secret-SHOULD-NEVER-APPEAR';

let fake: FakeService;
beforeEach(async () => {
  fake = await createFakeService({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    initialState: { users: [{ username: 'alice' }, { username: 'bob' }], groups: [{ group_id: 'g', owner: 'alice' }] },
  });
});
afterEach(() => fake.close());

describe('server only', () => {
  const g = globalThis as Record<string, unknown>;
  function withGlobals(extra: Record<string, unknown>, fn: () => void) {
    const saved = Object.keys(extra).map((k) => [k, Object.getOwnPropertyDescriptor(g, k)] as const);
    try {
      for (const [k, v] of Object.entries(extra))
        Object.defineProperty(g, k, { value: v, configurable: true, writable: true });
      fn();
    } finally {
      for (const [k, d] of saved) d ? Object.defineProperty(g, k, d) : delete g[k];
    }
  }

  it('refuses to start under a simulated browser global, explaining why', () => {
    withGlobals({ window: globalThis, document: { title: 'page' } }, () => {
      expect(browserLikeScope()).toBe('browser');
      const error = (() => {
        try {
          new ImClient(fake.clientOptions);
        } catch (e) {
          return e;
        }
      })() as ConfigError;
      expect(error).toBeInstanceOf(ConfigError);
      expect(error.message).toMatch(/browser/);
      expect(error.message).toMatch(/App Token/);
      expect(error.message).toMatch(/CORS/);
      expect(error.message).toMatch(/dangerouslyAllowBrowser/);
      expect(error.message).not.toContain(CLIENT_SECRET);
      expect(() => new ImClient({ ...fake.clientOptions, dangerouslyAllowBrowser: true })).not.toThrow();
    });
    expect(browserLikeScope()).toBeUndefined();
  });

  it('refuses to start in a simulated web worker', () => {
    function WorkerGlobalScope() {}
    withGlobals({ WorkerGlobalScope, importScripts: () => {} }, () => {
      expect(browserLikeScope()).toBe('web worker');
      expect(() => new ImClient(fake.clientOptions)).toThrow(/web worker/);
    });
  });

  it('a user agent does not matter: Node with a browser-like navigator still works', () => {
    withGlobals({ navigator: { userAgent: 'Mozilla/5.0 (Windows NT 10.0) Chrome/120' } }, () => {
      expect(() => new ImClient(fake.clientOptions)).not.toThrow();
    });
  });
});

describe('ImClient.fromEnv', () => {
  const env = {
    IM_BASE_URL: 'http://127.0.0.1:1',
    IM_APP_KEY: 'org#app',
    IM_CLIENT_ID: 'id',
    IM_CLIENT_SECRET: 'secret-from-env-XYZ',
  };
  it('reads the four documented variables and gives an ImClient', () => {
    const im = ImClient.fromEnv({}, env);
    expect(im).toBeInstanceOf(ImClient);
    expect(im.users).toBeDefined();
    expect(im.toJSON()).toEqual({ baseUrl: 'http://127.0.0.1:1', orgName: 'org', appName: 'app', clientId: 'id' });
  });
  it.each(Object.keys(env))('names the missing variable %s', (name) => {
    const partial = { ...env, [name]: '' };
    expect(() => ImClient.fromEnv({}, partial)).toThrow(new RegExp(name));
    expect(() => ImClient.fromEnv({}, partial)).toThrow(ConfigError);
  });
  it('overrides win over the environment', () => {
    const im = ImClient.fromEnv({ baseUrl: fake.baseUrl }, { ...env, IM_BASE_URL: undefined });
    expect(im.baseUrl).toBe(fake.baseUrl);
  });
});

describe('secret rotation without restart', () => {
  it('an invalid_client answer re-reads the secret function once and exchanges with the new secret', async () => {
    await fake.close();
    // This service accepts only the second (rotated) secret: the first exchange is refused in front of it.
    fake = await createFakeService({
      clientId: CLIENT_ID,
      clientSecret: 'new-secret-AFTER-ROTATION',
      initialState: { users: [{ username: 'alice' }] },
    });
    const seen: string[] = [];
    let current = 'old-secret-ROTATED-AWAY';
    const im = new ImClient({
      ...fake.clientOptions,
      clientSecret: () => {
        seen.push(current);
        const s = current;
        current = 'new-secret-AFTER-ROTATION';
        return s;
      },
      fetch: async (input, init) => {
        const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
        if (String(input).endsWith('/token') && body?.client_secret !== 'new-secret-AFTER-ROTATION') {
          return new Response(
            JSON.stringify({ error: { code: 'invalid_client', message: 'wrong client', request_id: 'r1' } }),
            { status: 401, headers: { 'content-type': 'application/json' } },
          );
        }
        return fetch(input, init);
      },
    });
    await expect(im.users.get({ username: 'alice' })).resolves.toMatchObject({ username: 'alice' });
    expect(seen).toEqual(['old-secret-ROTATED-AWAY', 'new-secret-AFTER-ROTATION']);
    expect(fake.callsTo('app.token')).toHaveLength(1); // only the accepted exchange reached the server
  });
});

describe('credential loss', () => {
  it('app_deleted clears the token store, calls the hook once, and fails every later call without the network', async () => {
    const store = new MemoryTokenStore();
    const deleted: string[] = [];
    const recording = {
      get: (k: string) => store.get(k),
      set: (k: string, t: never) => store.set(k, t),
      delete: async (k: string) => (deleted.push(k), store.delete(k)),
    };
    const revoked: unknown[] = [];
    const im = new ImClient({
      ...fake.clientOptions,
      tokenStore: recording,
      onCredentialsRevoked: (e) => revoked.push(e),
    });
    await im.users.get({ username: 'alice' }); // a token is stored
    fake.revokeCredentials('app_deleted');
    await expect(im.users.get({ username: 'alice' })).rejects.toBeInstanceOf(CredentialsRevokedError);
    const before = fake.calls.length;
    await expect(im.users.get({ username: 'bob' })).rejects.toBeInstanceOf(CredentialsRevokedError);
    await expect(im.groups.list()).rejects.toBeInstanceOf(CredentialsRevokedError);
    expect(fake.calls.length).toBe(before);
    expect(fake.callsTo('users.get').map((c) => ('status' in c.answer ? c.answer.status : 0))).toEqual([200, 401]);
    expect(revoked).toHaveLength(1);
    expect(im.credentialsRevoked).toBe(true);
    expect(deleted).toHaveLength(1);
    expect(await store.get(deleted[0]!)).toBeNull(); // the shared store no longer holds the token
  });
});

describe('nothing shows a secret', () => {
  it('printing the client, its namespaces, errors, pages and logs never shows the secret or the token', async () => {
    // a careless service that echoes the token and the secret in its error message
    let token = '';
    fake.override('users.get', (call) => {
      token = String(call.headers.authorization).replace(/^Bearer /, '');
      return {
        status: 403,
        body: {
          error: { code: 'permission_denied', message: `token ${token} secret ${CLIENT_SECRET}`, request_id: 'r' },
        },
      };
    });
    const lines: string[] = [];
    const logger = {
      debug: (m: string) => lines.push(m),
      info: (m: string) => lines.push(m),
      warn: (m: string) => lines.push(m),
      error: (m: string) => lines.push(m),
    };
    const events: unknown[] = [];
    const im = new ImClient({ ...fake.clientOptions, logger, onTokenEvent: (e) => events.push(e) });
    const error = (await im.users.get({ username: 'alice' }).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(Error);
    const page = await im.groups.list();
    const shown = [
      JSON.stringify(im),
      inspect(im, { depth: 10, showHidden: true }),
      inspect(im.users, { depth: 10, showHidden: true }),
      String(im),
      error.message,
      error.stack,
      JSON.stringify(error),
      inspect(error, { depth: 10, showHidden: true }),
      inspect(page, { depth: 10 }),
      JSON.stringify(page),
      JSON.stringify(events),
      ...lines,
    ].join('\n');
    expect(lines.length).toBeGreaterThan(0);
    expect(shown).toContain(CLIENT_ID); // the scan looks at real output
    expect(token.length).toBeGreaterThan(20);
    expect(shown).not.toContain(CLIENT_SECRET);
    expect(shown).not.toContain(token);
  });

  it("URLs with query values are shown masked, the service's own display rule", () => {
    expect(maskUrlQuery('https://hooks.example.com/im?token=s3cr3t&tenant=acme')).toBe(
      'https://hooks.example.com/im?token=***&tenant=***',
    );
    expect(maskUrlQuery('https://hooks.example.com/im')).toBe('https://hooks.example.com/im');
  });
});
