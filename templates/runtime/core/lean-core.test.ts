/**
 * ImLeanCore (issue 18, the one-operation bundle): the core without the features only some apps
 * use. It must still do what every call needs — token exchange, retries, the 429 pause,
 * validation — over fetch, and refuse the options of what it leaves out with an error that names
 * the option and the class that has it. Real HTTP on 127.0.0.1 (the fake service).
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, RateLimitedError, ValidationError } from './errors.js';
import { ImLeanCore } from './lean-core.js';
import { ImCore } from './im-core.js';
import { MemoryQuotaStore } from '../stores/quota-store.js';
import { SECRET, apiError, ops, startFakeService } from '../test-support/fake-service.js';
import type { ClientOptions } from './options.js';

const base = (baseUrl: string, more: Partial<ClientOptions> = {}): ClientOptions => ({
  baseUrl,
  appKey: 'acme#chat',
  clientId: 'client-1',
  clientSecret: SECRET,
  timeoutMs: 2_000,
  internals: { random: () => 0 },
  ...more,
});

describe('ImLeanCore', () => {
  it('calls an operation over fetch: one token exchange, retries by class, validation before sending', async () => {
    const svc = await startFakeService({
      handle: (req, n) =>
        n === 1
          ? { status: 503, body: {} }
          : { status: 200, body: { entities: [{ username: req.path.split('/').pop() }] } },
    });
    const core = new ImLeanCore(base(svc.baseUrl));
    expect(core.transport).toBe('fetch');
    const user = await core.request<{ entities: { username: string }[] }>(ops.usersGet, { username: 'alice' });
    expect(user.entities[0]!.username).toBe('alice');
    await core.request(ops.usersGet, { username: 'bob' });
    expect(svc.exchanges).toHaveLength(1);
    expect(svc.calls.map((c) => c.path.split('/').pop())).toEqual(['alice', 'alice', 'bob']); // the 503 was resent
    await expect(core.request(ops.usersGet, { username: '..' })).rejects.toBeInstanceOf(ValidationError);
    expect(svc.calls).toHaveLength(3);
  });

  it('pauses every call after a 429 for its Retry-After; rateLimit has the pause but no fleet metrics', async () => {
    const svc = await startFakeService({
      handle: (req) =>
        req.path.endsWith('/limited')
          ? apiError(429, 'rate_limited', undefined, { 'retry-after': '5' })
          : { status: 200, body: {} },
    });
    const core = new ImLeanCore(base(svc.baseUrl));
    await expect(core.request(ops.usersGet, { username: 'limited' }, { maxRetries: 0 })).rejects.toBeInstanceOf(
      RateLimitedError,
    );
    expect(core.rateLimit.remainingMs).toBeGreaterThan(4_000);
    expect('metrics' in core.rateLimit).toBe(false);
    core.rateLimit.clear();
    expect(core.rateLimit.remainingMs).toBe(0);
  });

  it.each([
    ['transport', { transport: 'node' }, /`transport`: needs the node:http transport.*use ImCore/],
    ['agent', { agent: {} }, /`agent`: needs the node:http transport/],
    ['proxy', { proxy: 'http://127.0.0.1:3128' }, /`proxy`: needs the node:http transport \(proxy support\)/],
    ['rateLimit', { rateLimit: { perSecond: 10 } }, /`rateLimit`: needs the fleet quota.*ImCore/],
    ['quotaStore', { quotaStore: new MemoryQuotaStore() }, /`quotaStore`: needs the fleet quota/],
  ] as const)('refuses %s (a feature it leaves out) with a ConfigError naming ImCore', (_name, option, message) => {
    const make = () => new ImLeanCore(base('http://127.0.0.1:1', option as Partial<ClientOptions>));
    expect(make).toThrow(ConfigError);
    expect(make).toThrow(message);
  });

  it('accepts proxy: false and transport: fetch, and withOptions keeps the lean class and its token', async () => {
    const svc = await startFakeService();
    const core = new ImLeanCore(base(svc.baseUrl, { proxy: false, transport: 'fetch' }));
    const slower = core.withOptions({ timeoutMs: 5_000 });
    expect(slower).toBeInstanceOf(ImLeanCore);
    expect(slower).not.toBeInstanceOf(ImCore);
    await core.request(ops.usersGet, { username: 'a' });
    await slower.request(ops.usersGet, { username: 'b' });
    expect(svc.exchanges).toHaveLength(1);
  });

  it('ImCore, built on it, has every feature: node:http by default, rateLimit, fleet metrics', async () => {
    const svc = await startFakeService();
    const core = new ImCore(base(svc.baseUrl, { rateLimit: { perSecond: 100 } }));
    expect(core).toBeInstanceOf(ImLeanCore);
    expect(core.transport).toBe('node');
    await core.request(ops.usersGet, { username: 'a' });
    expect(core.rateLimit.metrics.sent).toBe(2); // the exchange and the call
    expect(core.withOptions({ timeoutMs: 5_000 })).toBeInstanceOf(ImCore);
  });
});
