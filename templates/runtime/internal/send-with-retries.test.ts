import { describe, expect, it } from 'vitest';
import { ImCore } from '../core/im-core.js';
import { ops } from '../test-support/fake-service.js';
import { MemoryQuotaStore } from '../stores/quota-store.js';
import type { ClientOptions } from '../core/options.js';

/**
 * A client whose fetch records, per request, whether it was called while `im.request(...)` itself
 * was still running: the hot path (nothing to wait for before the attempt) sends with no promise
 * in between, so the request goes out before the call returns.
 */
function recordingClient(overrides: Partial<ClientOptions> = {}) {
  const sent: { path: string; inCall: boolean }[] = [];
  let inCall = false;
  const fetch = async (url: string): Promise<Response> => {
    const path = new URL(url).pathname;
    sent.push({ path, inCall });
    const body = path.endsWith('/token') ? { access_token: 'tok-1', expires_in: 3600 } : { username: 'a' };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  const im = new ImCore({
    baseUrl: 'http://127.0.0.1:9',
    appKey: 'acme#chat',
    clientId: 'client-1',
    clientSecret: 'secret-value',
    validateRequests: false,
    fetch,
    ...overrides,
  });
  const call = () => {
    inCall = true;
    try {
      return im.request(ops.usersGet, { username: 'a' });
    } finally {
      inCall = false;
    }
  };
  return { im, sent, call };
}

describe('sendWithRetries: the hot path of a call with nothing to wait for', () => {
  it('an ImCore (it has a quota for its counters, no rate limit) sends a call with a cached token before the call returns', async () => {
    const { im, sent, call } = recordingClient();
    await call(); // exchanges the token
    await call();
    expect(sent.map((s) => s.path)).toEqual(['/acme/chat/token', '/acme/chat/users/a', '/acme/chat/users/a']);
    expect(sent[2]!.inCall).toBe(true);
    expect(im.rateLimit.metrics.sent).toBe(3);
  });

  it('with a quota store it still reads the fleet gate before the attempt (the background read starts)', async () => {
    const store = new MemoryQuotaStore();
    let syncs = 0;
    const sync = store.sync.bind(store);
    store.sync = (...args: Parameters<typeof store.sync>) => {
      syncs += 1;
      return sync(...args);
    };
    const { sent, call } = recordingClient({ quotaStore: store });
    await call();
    const before = syncs;
    await new Promise((r) => setTimeout(r, 150)); // past GATE_CACHE_MS: the next call reads again
    await call();
    expect(sent[2]!.inCall).toBe(true);
    expect(syncs).toBe(before + 1);
  });

  it('a rate limit (send slots) is not the hot path: the call waits for its slot first', async () => {
    const { sent, call } = recordingClient({ rateLimit: { perSecond: 1000 } });
    await call();
    await call();
    expect(sent[2]!.inCall).toBe(false);
  });
});
