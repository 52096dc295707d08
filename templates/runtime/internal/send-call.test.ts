import { describe, expect, it } from 'vitest';
import { ImCore } from '../core/im-core.js';
import { ConfigError, TimeoutError, ValidationError } from '../core/errors.js';
import { ops } from '../test-support/fake-service.js';
import { CallScope } from './call-scope.js';

function stubClient(reply: (path: string, signal: AbortSignal | null | undefined) => Promise<Response> | Response) {
  const sent: string[] = [];
  const im = new ImCore({
    baseUrl: 'http://127.0.0.1:9',
    appKey: 'acme#chat',
    clientId: 'client-1',
    clientSecret: 'secret-value',
    fetch: async (url: string, init?: RequestInit) => {
      const path = new URL(url).pathname;
      sent.push(path);
      if (path.endsWith('/token'))
        return new Response(JSON.stringify({ access_token: 'tok-1', expires_in: 3600 }), { status: 200 });
      return reply(path, init?.signal);
    },
  });
  return { im, sent };
}

describe('sendCall: one call of the core', () => {
  it('refusals before sending come as rejections, never thrown from request(), and send nothing', async () => {
    const { im, sent } = stubClient(() => new Response('{}'));
    let returned: Promise<unknown> | undefined;
    expect(() => {
      returned = im.request(ops.usersGet, { username: 'a' }, { maxRetries: -1 } as never);
    }).not.toThrow();
    await expect(returned).rejects.toBeInstanceOf(ConfigError);
    await expect(im.request(ops.usersGet, { usernme: 'a' })).rejects.toBeInstanceOf(ValidationError);
    expect(sent).toEqual([]);
  });

  it('a call with a deadline still ends at its deadline (its scope is kept and released)', async () => {
    // an answer that never comes: only the abort of the attempt's signal (as fetch does it) ends it
    const { im } = stubClient(
      (_, signal) =>
        new Promise<Response>((_r, reject) => signal?.addEventListener('abort', () => reject(signal.reason))),
    );
    const err = await im.request(ops.usersGet, { username: 'a' }, { deadlineMs: 50 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
  });

  it('a scope holds something to release only with a deadline or a caller signal', () => {
    const plain = new CallScope({ operationId: 'x', now: Date.now });
    expect(plain.holdsResources()).toBe(false);
    const deadline = new CallScope({ operationId: 'x', deadlineMs: 1_000, now: Date.now });
    expect(deadline.holdsResources()).toBe(true);
    deadline.dispose();
    const signal = new CallScope({ operationId: 'x', signal: new AbortController().signal, now: Date.now });
    expect(signal.holdsResources()).toBe(true);
    signal.dispose();
  });
});
