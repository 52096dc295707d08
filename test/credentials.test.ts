/**
 * Credential safety (REST seed sections 1 and 5): server only, credentials from the environment,
 * secret rotation without restart, credential loss, and nothing that shows a secret.
 */
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, CredentialsRevokedError, ImClient, MemoryTokenStore, browserLikeScope, maskUrlQuery } from '../generated/src/index.js';
import { CLIENT_ID, CLIENT_SECRET, TOKEN, clientOptions, startFakeService, type FakeService } from './helpers/fake-service.js';

let service: FakeService;
beforeEach(async () => {
  service = await startFakeService();
});
afterEach(() => service.close());

describe('server only', () => {
  const g = globalThis as Record<string, unknown>;
  function withGlobals(extra: Record<string, unknown>, fn: () => void) {
    const saved = Object.keys(extra).map((k) => [k, Object.getOwnPropertyDescriptor(g, k)] as const);
    try {
      for (const [k, v] of Object.entries(extra)) Object.defineProperty(g, k, { value: v, configurable: true, writable: true });
      fn();
    } finally {
      for (const [k, d] of saved) (d ? Object.defineProperty(g, k, d) : delete g[k]);
    }
  }

  it('refuses to start under a simulated browser global, explaining why', () => {
    withGlobals({ window: globalThis, document: { title: 'page' } }, () => {
      expect(browserLikeScope()).toBe('browser');
      const error = (() => {
        try {
          new ImClient(clientOptions(service));
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
      expect(() => new ImClient({ ...clientOptions(service), dangerouslyAllowBrowser: true })).not.toThrow();
    });
    expect(browserLikeScope()).toBeUndefined();
  });

  it('refuses to start in a simulated web worker', () => {
    function WorkerGlobalScope() {}
    withGlobals({ WorkerGlobalScope, importScripts: () => {} }, () => {
      expect(browserLikeScope()).toBe('web worker');
      expect(() => new ImClient(clientOptions(service))).toThrow(/web worker/);
    });
  });

  it('a user agent does not matter: Node with a browser-like navigator still works', () => {
    withGlobals({ navigator: { userAgent: 'Mozilla/5.0 (Windows NT 10.0) Chrome/120' } }, () => {
      expect(() => new ImClient(clientOptions(service))).not.toThrow();
    });
  });
});

describe('ImClient.fromEnv', () => {
  const env = { IM_BASE_URL: 'http://127.0.0.1:1', IM_APP_KEY: 'org#app', IM_CLIENT_ID: 'id', IM_CLIENT_SECRET: 'secret-from-env-XYZ' };
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
    const im = ImClient.fromEnv({ baseUrl: service.baseUrl }, { ...env, IM_BASE_URL: undefined });
    expect(im.baseUrl).toBe(service.baseUrl);
  });
});

describe('secret rotation without restart', () => {
  it('an invalid_client answer re-reads the secret function once and exchanges with the new secret', async () => {
    await service.close();
    service = await startFakeService();
    const seen: string[] = [];
    service.on('GET', '/users/{username}', () => ({ body: { username: 'alice' } }));
    // This service accepts only the second (rotated) secret: the first exchange is refused in front of it.
    let current = 'old-secret-ROTATED-AWAY';
    const im = new ImClient({
      ...clientOptions(service),
      clientSecret: () => {
        seen.push(current);
        const s = current;
        current = 'new-secret-AFTER-ROTATION';
        return s;
      },
      fetch: async (input, init) => {
        const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
        if (String(input).endsWith('/token') && body?.client_secret !== 'new-secret-AFTER-ROTATION') {
          return new Response(JSON.stringify({ error: { code: 'invalid_client', message: 'wrong client', request_id: 'r1' } }), { status: 401, headers: { 'content-type': 'application/json' } });
        }
        return fetch(input, init);
      },
    });
    await expect(im.users.get({ username: 'alice' })).resolves.toEqual({ username: 'alice' });
    expect(seen).toEqual(['old-secret-ROTATED-AWAY', 'new-secret-AFTER-ROTATION']);
    expect(service.requests.filter((r) => r.path === '/token')).toHaveLength(1); // only the accepted exchange reached the server
  });
});

describe('credential loss', () => {
  it('app_deleted clears the token store, calls the hook once, and fails every later call without the network', async () => {
    let calls = 0;
    service.on('GET', '/users/{username}', () => {
      calls++;
      return { status: 401, body: { error: { code: 'unauthenticated', message: 'gone', request_id: 'r', details: { reason: 'app_deleted' } } } };
    });
    const store = new MemoryTokenStore();
    const deleted: string[] = [];
    const recording = { get: (k: string) => store.get(k), set: (k: string, t: never) => store.set(k, t), delete: async (k: string) => (deleted.push(k), store.delete(k)) };
    const revoked: unknown[] = [];
    const im = new ImClient({ ...clientOptions(service), tokenStore: recording, onCredentialsRevoked: (e) => revoked.push(e) });
    await expect(im.users.get({ username: 'a' })).rejects.toBeInstanceOf(CredentialsRevokedError);
    const before = service.requests.length;
    await expect(im.users.get({ username: 'b' })).rejects.toBeInstanceOf(CredentialsRevokedError);
    await expect(im.groups.list()).rejects.toBeInstanceOf(CredentialsRevokedError);
    expect(service.requests.length).toBe(before);
    expect(calls).toBe(1);
    expect(revoked).toHaveLength(1);
    expect(im.credentialsRevoked).toBe(true);
    expect(deleted).toHaveLength(1);
    expect(await store.get(deleted[0]!)).toBeNull(); // the shared store no longer holds the token
  });
});

describe('nothing shows a secret', () => {
  it('printing the client, its namespaces, errors, pages and logs never shows the secret or the token', async () => {
    service.on('GET', '/users/{username}', () => ({ status: 403, body: { error: { code: 'permission_denied', message: `token ${TOKEN} secret ${CLIENT_SECRET}`, request_id: 'r' } } }));
    service.on('GET', '/groups', () => ({ body: { items: [{ id: 'g' }], next_cursor: null } }));
    const lines: string[] = [];
    const logger = { debug: (m: string) => lines.push(m), info: (m: string) => lines.push(m), warn: (m: string) => lines.push(m), error: (m: string) => lines.push(m) };
    const events: unknown[] = [];
    const im = new ImClient({ ...clientOptions(service), logger, onTokenEvent: (e) => events.push(e) });
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
    expect(shown).not.toContain(CLIENT_SECRET);
    expect(shown).not.toContain(TOKEN);
  });

  it('URLs with query values are shown masked, the service\'s own display rule', () => {
    expect(maskUrlQuery('https://hooks.example.com/im?token=s3cr3t&tenant=acme')).toBe('https://hooks.example.com/im?token=***&tenant=***');
    expect(maskUrlQuery('https://hooks.example.com/im')).toBe('https://hooks.example.com/im');
  });
});
