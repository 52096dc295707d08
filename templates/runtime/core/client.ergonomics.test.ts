/**
 * Issue 17 (client ergonomics): User-Agent, defaultHeaders, withOptions, a permissive
 * ApiPromise.catch. Real client against the fake service on 127.0.0.1.
 */
import { describe, expect, test } from 'vitest';
import { ConfigError, NotFoundError } from './errors.js';
import { ImCore } from './im-core.js';
import { SDK_NAME, SDK_VERSION } from '../sdk-version.js';
import { apiError, makeClient, ops, startFakeService } from '../test-support/fake-service.js';

describe('User-Agent and defaultHeaders', () => {
  test('every request (the token exchange too) names the SDK, its version and the runtime', async () => {
    const svc = await startFakeService();
    await makeClient(svc.baseUrl).request(ops.usersGet, { username: 'a' });
    expect(svc.requests).toHaveLength(2);
    for (const r of svc.requests)
      expect(r.headers['user-agent']).toBe(`${SDK_NAME}/${SDK_VERSION} node/${process.versions.node}`);
  });

  test("defaultHeaders go with every call; a call's own headers win, names case-insensitive", async () => {
    const svc = await startFakeService();
    const client = makeClient(svc.baseUrl, { defaultHeaders: { 'X-Tenant-Tag': 'blue', 'X-Trace': 'client' } });
    await client.request(ops.usersGet, { username: 'a' }, { headers: { 'x-trace': 'call' } });
    const call = svc.calls[0]!;
    expect(call.headers['x-tenant-tag']).toBe('blue');
    expect(call.headers['x-trace']).toBe('call');
    expect(svc.exchanges[0]!.headers['x-tenant-tag']).toBe('blue');
  });

  test('defaultHeaders may replace the User-Agent, never the Authorization', async () => {
    const svc = await startFakeService();
    await makeClient(svc.baseUrl, {
      defaultHeaders: { 'User-Agent': 'my-app/1', Authorization: 'Bearer nope' },
    }).request(ops.usersGet, { username: 'a' });
    expect(svc.calls[0]!.headers['user-agent']).toBe('my-app/1');
    expect(svc.calls[0]!.headers.authorization).toMatch(/^Bearer tok-/);
  });

  test('a bad defaultHeaders value is a ConfigError naming the option', () => {
    expect(() => makeClient('http://127.0.0.1:1', { defaultHeaders: { 'x-a': 'line\r\nbreak' } })).toThrow(ConfigError);
    expect(() => makeClient('http://127.0.0.1:1', { defaultHeaders: { 'x-a': 'line\r\nbreak' } })).toThrow(
      /defaultHeaders/,
    );
    expect(() => makeClient('http://127.0.0.1:1', { defaultHeaders: { 'bad name': 'v' } })).toThrow(/defaultHeaders/);
  });
});

describe('withOptions', () => {
  test('a derived client shares the token cache (one exchange) and applies its overrides', async () => {
    const svc = await startFakeService();
    const base = makeClient(svc.baseUrl);
    const tagged = base.withOptions({ defaultHeaders: { 'x-job': 'nightly' }, maxRetries: 0 });
    expect(tagged).toBeInstanceOf(ImCore);
    expect(tagged).not.toBe(base);
    await base.request(ops.usersGet, { username: 'a' });
    await tagged.request(ops.usersGet, { username: 'b' });
    expect(svc.exchanges).toHaveLength(1);
    expect(svc.calls[0]!.headers['x-job']).toBeUndefined();
    expect(svc.calls[1]!.headers['x-job']).toBe('nightly');
    expect(tagged.baseUrl).toBe(base.baseUrl);
  });

  test('undefined in the overrides changes nothing (exactOptionalPropertyTypes callers)', async () => {
    const svc = await startFakeService();
    const derived = makeClient(svc.baseUrl, { defaultHeaders: { 'x-keep': '1' } }).withOptions({
      defaultHeaders: undefined,
      timeoutMs: undefined,
    });
    await derived.request(ops.usersGet, { username: 'a' });
    expect(svc.calls[0]!.headers['x-keep']).toBe('1');
  });

  test('overriding the credentials gives a token cache of its own', async () => {
    const svc = await startFakeService();
    const base = makeClient(svc.baseUrl);
    await base.request(ops.usersGet, { username: 'a' });
    const other = base.withOptions({ clientId: 'client-2' });
    await other.request(ops.usersGet, { username: 'a' });
    expect(svc.exchanges).toHaveLength(2);
    expect(svc.exchanges[1]!.json?.client_id).toBe('client-2');
    expect(other.clientId).toBe('client-2');
  });

  test('appKey in the overrides replaces orgName/appName of the original', () => {
    const base = new ImCore({
      baseUrl: 'http://127.0.0.1:1',
      orgName: 'acme',
      appName: 'chat',
      clientId: 'c',
      clientSecret: 's',
    });
    const moved = base.withOptions({ appKey: 'other#app' });
    expect([moved.orgName, moved.appName]).toEqual(['other', 'app']);
  });

  test('a subclass stays a subclass', () => {
    class MyClient extends ImCore {
      readonly extra = 'kept';
    }
    const derived = new MyClient({
      baseUrl: 'http://127.0.0.1:1',
      appKey: 'a#b',
      clientId: 'c',
      clientSecret: 's',
    }).withOptions({ timeoutMs: 5 });
    expect(derived).toBeInstanceOf(MyClient);
    expect(derived.extra).toBe('kept');
  });
});

describe('ApiPromise', () => {
  test('catch takes a handler typed like Promise.catch handlers are (reason: any)', async () => {
    const svc = await startFakeService({ handle: () => apiError(404, 'not_found') });
    // `(err: Error) => …` must compile, as with Promise.catch (it did not with `reason: unknown`)
    const code = await makeClient(svc.baseUrl)
      .request<{ ok: boolean }>(ops.usersGet, { username: 'a' })
      .catch((err: Error) => err.name);
    expect(code).toBe(NotFoundError.name);
  });
});
