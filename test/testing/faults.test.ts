/**
 * Issue 30, done-when 1 (faults): every fault kind of the fake, and the behaviour of the
 * generated client the seed requires for it (seed 000 §4 retry classes, §5 tokens and checks,
 * §7 errors, §8 limits), counted from the fake's own record of calls.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  AppUnavailableError,
  ConnectionError,
  CredentialsRevokedError,
  ImClient,
  InvalidClientError,
  IpNotAllowedError,
  RateLimitedError,
  TimeoutError,
  UnauthenticatedError,
  type ClientOptions,
} from '../../generated/src/index.js';
import { createFakeService, type FakeService, type FakeServiceOptions } from '../../generated/src/testing.js';

const open: FakeService[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((f) => f.close()));
});

/**
 * A fake with alice and bob, and a client on one virtual clock with it: the client's waits
 * (backoff, Retry-After) are recorded and move the clock instead of sleeping, so the fake's
 * quotas see the time pass.
 */
async function setup(options: FakeServiceOptions = {}, client: Partial<ClientOptions> = {}) {
  const clock = { ms: Date.now() };
  const fake = await createFakeService({
    initialState: { users: [{ username: 'alice' }, { username: 'bob' }] },
    now: () => clock.ms,
    ...options,
  });
  open.push(fake);
  const waits: number[] = [];
  const sleep = async (ms: number): Promise<void> => {
    waits.push(ms);
    clock.ms += ms;
  };
  const im = new ImClient({
    ...fake.clientOptions,
    internals: { random: () => 0, sleep, now: () => clock.ms },
    ...client,
  });
  return { fake, im, waits, clock };
}

const attempts = (fake: FakeService, op: string): number => fake.callsTo(op).length;

describe('retry classes against faults on demand', () => {
  it('429 with Retry-After: not executed; every class (N included) is resent after the wait', async () => {
    const { fake, im, waits } = await setup();
    fake.fault({ operation: 'groups.create', kind: 'rate_limited', retryAfterSeconds: 3 });
    const group = (await im.groups.create({ owner: 'alice' })) as { group_id: string };
    expect(attempts(fake, 'groups.create')).toBe(2);
    expect(waits).toContain(3000);
    expect(fake.calls.find((c) => c.fault === 'rate_limited')?.answer).toMatchObject({
      status: 429,
      headers: { 'retry-after': '3' },
    });
    expect(fake.state.groups.size).toBe(1); // the 429 created nothing
    expect(group.group_id).toBe('group-1');
  });

  it('5xx: Q, I, U and D are resent; N is not', async () => {
    const { fake, im } = await setup();
    for (const operation of ['users.get', 'users.update', 'users.create', 'messages.send', 'groups.create'])
      fake.fault({ operation, kind: 'server_error' });
    await im.users.get({ username: 'alice' });
    await im.users.update({ username: 'alice', nickname: 'A' });
    await im.users.create({ username: 'carol' });
    await im.messages.send({ from: 'alice', to: 'bob', body: 'hi' });
    await expect(im.groups.create({ owner: 'alice' })).rejects.toMatchObject({ status: 503 });
    expect(
      ['users.get', 'users.update', 'users.create', 'messages.send', 'groups.create'].map((op) => attempts(fake, op)),
    ).toEqual([2, 2, 2, 2, 1]);
  });

  it('dropped before executing: class N fails once and nothing was made; class D is resent with the same key', async () => {
    const { fake, im } = await setup();
    for (const operation of ['groups.create', 'messages.send']) fake.fault({ operation, kind: 'drop_before' });
    await expect(im.groups.create({ owner: 'alice' })).rejects.toBeInstanceOf(ConnectionError);
    expect(attempts(fake, 'groups.create')).toBe(1);
    expect(fake.state.groups.size).toBe(0);
    await im.messages.send({ from: 'alice', to: 'bob', body: 'hi' });
    const keys = fake.callsTo('messages.send').map((c) => c.params.client_msg_id);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
    expect(fake.state.messages.size).toBe(1);
  });

  it('dropped after executing (class N ambiguity): the caller sees an error, the group exists; a D resend is deduplicated', async () => {
    const { fake, im } = await setup();
    for (const operation of ['groups.create', 'messages.send']) fake.fault({ operation, kind: 'drop_after' });
    await expect(im.groups.create({ owner: 'alice' })).rejects.toBeInstanceOf(ConnectionError);
    expect(attempts(fake, 'groups.create')).toBe(1);
    expect(fake.state.groups.size).toBe(1); // executed although the caller got an error: why N is never resent
    const sent = (await im.messages.send({ from: 'alice', to: 'bob', body: 'once' })) as {
      message_id: string;
      seq: number;
    };
    expect(attempts(fake, 'messages.send')).toBe(2);
    expect(fake.state.messages.size).toBe(1); // the resend carried the same client_msg_id
    expect(sent.seq).toBe(1);
  });

  it('slow answers: a timeout; Q is resent and answered, N is not resent', async () => {
    const { fake, im } = await setup({}, { timeoutMs: 300 });
    for (const operation of ['users.get', 'groups.create']) fake.fault({ operation, kind: 'slow', delayMs: 1500 });
    await expect(im.users.get({ username: 'alice' })).resolves.toMatchObject({ username: 'alice' });
    expect(attempts(fake, 'users.get')).toBe(2);
    await expect(im.groups.create({ owner: 'alice' })).rejects.toBeInstanceOf(TimeoutError);
    expect(attempts(fake, 'groups.create')).toBe(1);
  });
});

describe('tokens and credentials', () => {
  it('an expired token (tokenTtlSeconds on the fake clock) answers 401; the client exchanges again and retries once', async () => {
    const { fake, im } = await setup({ tokenTtlSeconds: 300 });
    await im.users.get({ username: 'alice' });
    fake.advanceTime(301_000);
    await im.users.get({ username: 'alice' });
    const statuses = fake.calls.map((c) => `${c.operationId}:${'status' in c.answer ? c.answer.status : '-'}`);
    expect(statuses).toEqual(['app.token:200', 'users.get:200', 'users.get:401', 'app.token:200', 'users.get:200']);
    expect(fake.calls[0]!.answer).toMatchObject({ body: { expires_in: 300, access_token: '***' } });
  });

  it('401 twice in a row: one new exchange, then UnauthenticatedError', async () => {
    const { fake, im } = await setup();
    fake.fault({ operation: 'users.get', kind: 'unauthenticated', times: 2 });
    await expect(im.users.get({ username: 'alice' })).rejects.toBeInstanceOf(UnauthenticatedError);
    expect([attempts(fake, 'app.token'), attempts(fake, 'users.get')]).toEqual([2, 2]);
  });

  it.each(['app_deleted', 'tenant_closed'] as const)(
    'revoked (%s): CredentialsRevokedError, no retry, and later calls fail without a request',
    async (reason) => {
      const { fake, im } = await setup();
      await im.users.get({ username: 'alice' });
      fake.revokeCredentials(reason);
      const error = await im.users.get({ username: 'alice' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CredentialsRevokedError);
      expect((error as CredentialsRevokedError).reason).toBe(reason);
      const before = fake.calls.length;
      await expect(im.users.get({ username: 'bob' })).rejects.toBeInstanceOf(CredentialsRevokedError);
      expect(fake.calls.length).toBe(before);
    },
  );

  it('wrong credentials: InvalidClientError from the exchange; a suspended app: AppUnavailableError after the new exchange', async () => {
    const { fake, im } = await setup();
    const wrong = new ImClient({ ...fake.clientOptions, clientSecret: 'not-it' });
    await expect(wrong.users.get({ username: 'alice' })).rejects.toBeInstanceOf(InvalidClientError);
    await im.users.get({ username: 'alice' });
    fake.suspend('app');
    await expect(im.users.get({ username: 'alice' })).rejects.toBeInstanceOf(AppUnavailableError);
    expect(fake.calls.slice(-3).map((c) => ('status' in c.answer ? c.answer.status : 0))).toEqual([401, 200, 403]);
  });

  it('an IP allowlist without 127.0.0.1: IpNotAllowedError; another app in the path: 403 permission_denied', async () => {
    const { im } = await setup({ ipAllowlist: ['10.0.0.1'] });
    await expect(im.users.get({ username: 'alice' })).rejects.toBeInstanceOf(IpNotAllowedError);
    const other = await setup();
    const token = (await (
      await fetch(`${other.fake.baseUrl}/demo-org/demo-app/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          grant_type: 'client_credentials',
          client_id: 'fake-client-id',
          client_secret: 'fake-client-secret',
        }),
      })
    ).json()) as { access_token: string };
    const res = await fetch(`${other.fake.baseUrl}/other-org/other-app/users/alice`, {
      headers: { authorization: `Bearer ${token.access_token}` },
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('permission_denied');
    const bad = await fetch(`${other.fake.baseUrl}/demo-org/demo-app/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'password', client_id: 'x', client_secret: 'y' }),
    });
    expect([bad.status, ((await bad.json()) as { error: { code: string } }).error.code]).toEqual([
      400,
      'invalid_argument',
    ]);
  });
});

describe('limits', () => {
  it('perSecond: calls over the quota get 429 with Retry-After; the client waits and every call succeeds', async () => {
    const { fake, im, waits } = await setup({ perSecond: 3 });
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => im.users.get({ username: i % 2 ? 'alice' : 'bob' })),
    );
    expect(answers).toHaveLength(8);
    const limited = fake.calls.filter((c) => c.fault === 'quota');
    expect(limited.length).toBeGreaterThan(0);
    expect(limited.every((c) => 'headers' in c.answer && Number(c.answer.headers['retry-after']) >= 1)).toBe(true);
    expect(waits.some((w) => w >= 1000)).toBe(true);
    // no one-second window of the fake's clock saw more than 3 executed requests (the token exchange counts too)
    const executed = fake.calls.filter((c) => 'status' in c.answer && c.answer.status === 200).map((c) => c.at);
    for (const t of executed) expect(executed.filter((u) => u >= t && u < t + 1000).length).toBeLessThanOrEqual(3);
  });

  it('token exchanges over the per-IP limit get 429; the wait is on the fake clock', async () => {
    const { fake } = await setup({ tokenExchangesPerMinute: 2 });
    const clients = Array.from({ length: 3 }, () => new ImClient({ ...fake.clientOptions, maxRetries: 0 }));
    await clients[0]!.users.get({ username: 'alice' });
    await clients[1]!.users.get({ username: 'alice' });
    const error = await clients[2]!.users.get({ username: 'alice' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(fake.calls.filter((c) => c.fault === 'token_limit')).toHaveLength(1);
    fake.advanceTime(60_000);
    await expect(new ImClient({ ...fake.clientOptions }).users.get({ username: 'alice' })).resolves.toMatchObject({
      username: 'alice',
    });
  });
});

describe('random faults (seeded)', () => {
  it('the same seed gives the same faults; a Q caller with retries gets every answer', async () => {
    const run = async () => {
      const { fake, im } = await setup(
        { randomSeed: 7, randomFaults: { rate: 0.3, kinds: ['server_error', 'rate_limited', 'drop_before'] } },
        { maxRetries: 6 },
      );
      for (let i = 0; i < 20; i++) await im.users.get({ username: i % 2 ? 'alice' : 'bob' });
      return fake.calls.filter((c) => c.operationId === 'users.get').map((c) => c.fault ?? 'ok');
    };
    const a = await run();
    const b = await run();
    expect(a).toEqual(b);
    expect(a.filter((f) => f === 'ok')).toHaveLength(20);
    expect(a.length).toBeGreaterThan(20);
    console.log(
      `random faults, seed 7, rate 0.3: ${a.length - 20} faults over ${a.length} users.get attempts (${['server_error', 'rate_limited', 'drop_before'].map((k) => `${k} ${a.filter((f) => f === k).length}`).join(', ')}); 20 of 20 calls answered`,
    );
  });
});
