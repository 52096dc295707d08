/**
 * Issue 30: the fake sends the callbacks its state changes cause, signed with the callbacks kit's
 * scheme, to a receiver built with the kit (node handler + durable inbox): URL verification first,
 * subscriptions, retries on the seed's schedule, and with `delivery: 'simulated'` the delivery
 * simulator's rules (out of order, duplicates, jittered retries) that the receiver must absorb.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeCallbackHandler, MemoryInbox, type CallbackEventItem } from '../../generated/src/callbacks.js';
import { ImClient } from '../../generated/src/index.js';
import { createFakeService, type CallbackAddressOptions, type FakeService } from '../../generated/src/testing.js';

const SECRET = 'whsec_fake_test_secret';
const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

/** A receiver made with the kit: verifies signatures, stores into a MemoryInbox, a worker collects. */
async function receiver(options: { secret?: string; failFirst?: number } = {}) {
  const inbox = new MemoryInbox();
  const handle = createNodeCallbackHandler({ secrets: [options.secret ?? SECRET], inbox });
  let requests = 0;
  const arrivals: string[] = [];
  const server: Server = createServer((req, res) => {
    requests++;
    if (req.headers['x-im-kind'] === 'event' && requests <= (options.failFirst ?? 0) + 1) {
      req.resume();
      res.writeHead(503).end();
      return;
    }
    void handle(req, res);
  });
  server.on('request', (req) => {
    if (req.headers['x-im-kind'] === 'event') arrivals.push(String(req.headers['x-im-request-id']));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const processed: CallbackEventItem[] = [];
  const stop = new AbortController();
  const worker = inbox.consume(async (event) => void processed.push(event), { signal: stop.signal });
  cleanup.push(async () => {
    stop.abort();
    await worker;
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/im/callbacks`;
  return { url, processed, arrivals };
}

async function fakeWith(
  address: Omit<CallbackAddressOptions, 'secret'> & { secret?: string },
): Promise<{ fake: FakeService; im: ImClient }> {
  const fake = await createFakeService({
    initialState: { users: ['alice', 'bob', 'carol'].map((username) => ({ username })) },
    callbacks: { secret: SECRET, ...address },
    randomSeed: 3,
  });
  cleanup.push(() => fake.close());
  return { fake, im: new ImClient(fake.clientOptions) };
}

async function until(what: string, check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('callbacks from state changes', () => {
  it('verifies the URL first, then a sent message, members added and a friend added reach the inbox, signed', async () => {
    const rx = await receiver();
    const { fake, im } = await fakeWith({ url: rx.url });
    expect(fake.callbacks.deliveries[0]).toMatchObject({ kind: 'verify', outcome: 'ok', status: 200 });
    expect(fake.callbacks.addresses[0]!.state).toBe('normal');
    const message = (await im.messages.send({ from: 'alice', to: 'bob', body: 'hi' })) as { message_id: string };
    const group = (await im.groups.create({ owner: 'alice', members: ['bob'] })) as { group_id: string };
    await im.groups.addMembers({ group_id: group.group_id, usernames: ['carol'] });
    await im.friends.add({ username: 'alice', friend: 'bob' });
    await fake.callbacks.settled();
    await until('4 events processed', () => rx.processed.length === 4);
    const byType = Object.fromEntries(
      rx.processed.map((e) => [
        e.type === 'group.members_added' ? `${e.type}:${(e.data as { members?: unknown[] }).members?.length}` : e.type,
        e,
      ]),
    );
    expect(Object.keys(byType).sort()).toEqual([
      'friend.added',
      'group.members_added:1',
      'group.members_added:2',
      'message.sent',
    ]);
    expect(byType['message.sent']!.data).toMatchObject({
      origin: 'server',
      message_id: message.message_id,
      from: 'alice',
      to: 'bob',
      seq: 1,
    });
    expect(byType['group.members_added:2']!.data).toMatchObject({
      origin: 'server',
      group_id: group.group_id,
      member_count: 2,
      members: [
        { username: 'alice', joined_via: 'create' },
        { username: 'bob', joined_via: 'create' },
      ],
    });
    const v1 = (byType['group.members_added:2']!.data as { member_version: number }).member_version;
    expect((byType['group.members_added:1']!.data as { member_version: number }).member_version).toBeGreaterThan(v1);
    expect(byType['friend.added']!.data).toMatchObject({
      origin: 'server',
      username: 'alice',
      friend: 'bob',
      version: expect.any(Number),
    });
    expect(fake.callbacks.events.every((e) => Object.values(e.deliveries).every((d) => d === 'delivered'))).toBe(true);
  });

  it('a receiver with another secret refuses the verification: the address stays pending and gets no event', async () => {
    const rx = await receiver({ secret: 'another-secret' });
    const { fake, im } = await fakeWith({ url: rx.url });
    expect(fake.callbacks.deliveries[0]).toMatchObject({ kind: 'verify', outcome: 'failed', status: 401 });
    await im.messages.send({ from: 'alice', to: 'bob', body: 'hi' });
    await fake.callbacks.settled();
    expect(fake.callbacks.events[0]!.deliveries).toEqual({ ep_fake_1: 'address pending verification' });
    expect(fake.callbacks.deliveries.filter((d) => d.kind === 'event')).toEqual([]);
  });

  it('subscriptions: an address subscribed to group.* gets no message events', async () => {
    const rx = await receiver();
    const { fake, im } = await fakeWith({ url: rx.url, events: ['group.*'] });
    await im.messages.send({ from: 'alice', to: 'bob', body: 'hi' });
    await im.groups.create({ owner: 'alice' });
    await fake.callbacks.settled();
    await until('1 event processed', () => rx.processed.length === 1);
    expect(rx.processed.map((e) => e.type)).toEqual(['group.members_added']);
    expect(fake.callbacks.events.map((e) => e.deliveries.ep_fake_1)).toEqual(['not subscribed', 'delivered']);
  });

  it('a failing receiver gets the event again on the seed schedule (compressed), with attempt counting up', async () => {
    const rx = await receiver({ failFirst: 2 });
    const { fake, im } = await fakeWith({ url: rx.url, timeScale: 100_000 });
    await im.messages.send({ from: 'alice', to: 'bob', body: 'hi' });
    await fake.callbacks.settled();
    await until('the event processed', () => rx.processed.length === 1);
    const sends = fake.callbacks.deliveries.filter((d) => d.kind === 'event');
    expect(sends.map((d) => [d.send, d.outcome, d.status])).toEqual([
      [1, 'failed', 503],
      [2, 'failed', 503],
      [3, 'ok', 200],
    ]);
    expect(rx.processed[0]!.attempt).toBe(3);
  });

  it("delivery: 'simulated': out of order and duplicated, the inbox processes each event exactly once", async () => {
    const rx = await receiver();
    const { fake, im } = await fakeWith({ url: rx.url, delivery: 'simulated', duplicateRate: 0.5, timeScale: 10_000 });
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => im.messages.send({ from: 'alice', to: 'bob', body: `m${i + 1}` })),
    );
    await fake.callbacks.settled({ timeoutMs: 20_000 });
    await until('20 events processed', () => rx.processed.length >= 20);
    const events = fake.callbacks.events;
    const duplicates = fake.callbacks.deliveries.filter((d) => d.duplicate);
    expect(duplicates.length).toBeGreaterThan(0);
    expect(new Set(rx.processed.map((e) => e.id)).size).toBe(20);
    expect(rx.processed).toHaveLength(20);
    // the first sends did not go in the order the changes happened
    const firstSends = fake.callbacks.deliveries
      .filter((d) => d.kind === 'event' && !d.duplicate)
      .map((d) => events.findIndex((e) => e.id === d.eventIds[0]));
    const inversions = firstSends.filter((v, i) => i > 0 && v < firstSends[i - 1]!).length;
    expect(inversions).toBeGreaterThan(0);
    console.log(
      `simulated delivery, 20 messages: ${fake.callbacks.deliveries.filter((d) => d.kind === 'event').length} event requests, ${duplicates.length} duplicates, ${inversions} out-of-order first sends; the inbox processed 20`,
    );
  });

  it('an address registered later is verified at once and gets only later events', async () => {
    const rx = await receiver();
    const fake = await createFakeService({ initialState: { users: [{ username: 'alice' }, { username: 'bob' }] } });
    cleanup.push(() => fake.close());
    const im = new ImClient(fake.clientOptions);
    await im.messages.send({ from: 'alice', to: 'bob', body: 'before' });
    const address = await fake.callbacks.register({ url: rx.url, secret: SECRET });
    expect(address).toMatchObject({ endpointId: 'ep_fake_1', state: 'normal' });
    await im.messages.send({ from: 'alice', to: 'bob', body: 'after' });
    await fake.callbacks.settled();
    await until('1 event processed', () => rx.processed.length === 1);
    expect((rx.processed[0]!.data as { body: string }).body).toBe('after');
  });
});
