/**
 * Deterministic regression tests for the runtime bugs that the issue 9 suites found
 * (property-based bad input, the fleet):
 *  1. a validly signed callback body whose `hook` is an object like {"toString": 0} made
 *     verifyCallback throw a TypeError; the handler answered 503 "unexpectedly (nonce store?)";
 *  2. batch helpers read `params[field]` of undefined → untyped TypeError;
 *  3. the set-mute-all toggle threw a TypeError synchronously for missing params;
 *  4. a batch D call with a non-string client_msg_id was stringified ("0:0") and SENT,
 *     although the request validator refuses it;
 *  5. a `signal` request option that is not an AbortSignal → untyped TypeError;
 *  6. after a 401, the token store's compare-and-delete (`deleteIf`) is used when present, so a
 *     process that learns late about the 401 never deletes the token another one exchanged.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allow, createCallbackHandler, signCallbackRequest } from '../../generated/src/callbacks/index.js';
import {
  ConfigError,
  ImClient,
  MemoryTokenStore,
  ValidationError,
  type StoredToken,
  type TokenStore,
} from '../../generated/src/index.js';

let server: Server;
let baseUrl = '';
const seen: string[] = [];
let refuseToken: string | undefined;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push(`${req.method} ${req.url}`);
      res.setHeader('content-type', 'application/json');
      if (req.url?.endsWith('/token'))
        return res.end(JSON.stringify({ access_token: `tok-${seen.length}`, expires_in: 3600 }));
      if (refuseToken && req.headers.authorization === `Bearer ${refuseToken}`) {
        res.statusCode = 401;
        return res.end(JSON.stringify({ error: { code: 'unauthenticated', message: 'expired', request_id: 'r' } }));
      }
      res.end(JSON.stringify({ ok: true }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((r) => server.close(() => r()));
});

const client = (extra: object = {}) =>
  new ImClient({
    baseUrl,
    appKey: 'org#app',
    clientId: 'cid',
    clientSecret: 'regression-secret',
    maxRetries: 0,
    ...extra,
  });

describe('regressions found by the reliability suites', () => {
  it('1. a signed hook body with an object `hook` is decided, not answered 503', async () => {
    const handler = createCallbackHandler({ secrets: ['whsec_regression_1'], logger: {}, onHook: () => allow() });
    const signed = signCallbackRequest({
      body: JSON.stringify({ kind: 'hook', hook: { toString: 0 }, data: {} }),
      secret: 'whsec_regression_1',
    });
    const res = await handler(
      new Request('https://r.example/im', { method: 'POST', headers: signed.headers as never, body: signed.body }),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ decision: 'allow' });
  });

  it('2. batch helpers refuse missing or non-object params with a ValidationError', async () => {
    const im = client();
    await expect(im.users.batchCreate(undefined as never)).rejects.toBeInstanceOf(ValidationError);
    await expect(im.messages.batchSend(7 as never)).rejects.toBeInstanceOf(ValidationError);
  });

  it('3. the toggle rejects (never throws synchronously) for missing params', async () => {
    const im = client();
    let promise: Promise<unknown> | undefined;
    expect(() => (promise = im.chatrooms.setMuteAll(undefined as never))).not.toThrow();
    await expect(promise).rejects.toBeInstanceOf(ValidationError);
  });

  it('4. a batch D call with a non-string client_msg_id is refused and nothing is sent', async () => {
    seen.length = 0;
    // The batch key is checked before chunk keys are derived from it (issue 16 item 7): the batch rejects as a whole.
    await expect(client().messages.batchSend({ usernames: ['a'], client_msg_id: 0 } as never)).rejects.toBeInstanceOf(
      ValidationError,
    );
    expect(seen).toEqual([]);
  });

  it('5. a signal option that is not an AbortSignal is a ConfigError', async () => {
    await expect(client().users.get({ username: 'a' }, { signal: 'soon' as never })).rejects.toBeInstanceOf(
      ConfigError,
    );
  });

  it('6. after a 401 the store compare-and-deletes the refused token (deleteIf), never a newer one', async () => {
    const inner = new MemoryTokenStore();
    const calls: string[] = [];
    const store: TokenStore & { deleteIf(key: string, token: string): Promise<void> } = {
      get: (k) => (calls.push('get'), inner.get(k)),
      set: (k, t: StoredToken) => (calls.push(`set ${t.accessToken}`), inner.set(k, t)),
      delete: (k) => (calls.push('delete'), inner.delete(k)),
      deleteIf: async (k, token) => {
        calls.push(`deleteIf ${token}`);
        if ((await inner.get(k))?.accessToken === token) await inner.delete(k);
      },
    };
    seen.length = 0;
    const im = client({ tokenStore: store });
    await im.users.get({ username: 'a' });
    const first = calls.find((c) => c.startsWith('set '))!.slice(4);
    refuseToken = first;
    calls.length = 0;
    await im.users.get({ username: 'b' });
    refuseToken = undefined;
    expect(calls[0]).toBe(`deleteIf ${first}`);
    expect(calls).not.toContain('delete');
    expect(calls.filter((c) => c.startsWith('set '))).toHaveLength(1);
  });
});
