/**
 * ONE behaviour suite for both inbox engines: MemoryInbox and RedisInbox on a real redis-server
 * (a private one on 127.0.0.1, stopped at the end). Each test gets its own inbox (own key prefix).
 */
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer } from '../../../../test/fixtures/callbacks/redis-server.js';
import type { RedisServerHandle } from '../../../../test/fixtures/callbacks/redis-server.js';
import { fromNodeRedis } from '../../stores/redis-client.js';
import { createCallbackHandler } from '../node.js';
import { signCallbackRequest } from '../sign.js';
import type { CallbackEvent } from '../types.js';
import { MemoryInbox } from './memory-inbox.js';
import { RedisInbox } from './redis-inbox.js';
import { idRecord } from './redis-id-records.js';
import { InboxHandlerTimeoutError } from './inbox-base.js';
import type { CallbackInbox, ConsumeOptions, InboxContext, InboxHandler, InboxOptions } from './types.js';

const SECRET = 'whsec_inbox_suite_Q7p';

let server: RedisServerHandle;
let redis: ReturnType<typeof createClient>;
let blocking: ReturnType<typeof createClient>;
let n = 0;

beforeAll(async () => {
  server = await startRedisServer();
  redis = createClient({ url: server.url });
  blocking = createClient({ url: server.url });
  await Promise.all([redis.connect(), blocking.connect()]);
}, 20_000);
afterAll(async () => {
  await redis?.close().catch(() => undefined);
  await blocking?.close().catch(() => undefined);
  await server?.stop();
});

const engines: [string, (o?: InboxOptions) => CallbackInbox][] = [
  ['memory', (o) => new MemoryInbox(o)],
  [
    'redis',
    (o) =>
      new RedisInbox({
        durability: 'off',
        ...o,
        client: fromNodeRedis(redis),
        blockingClient: fromNodeRedis(blocking),
        blockMs: 50,
        prefix: `{t${++n}}:`,
      }),
  ],
];

function ev(id: string, extra: Partial<CallbackEvent> & { data?: Record<string, unknown> } = {}): CallbackEvent {
  return {
    id,
    type: 'user.session_created',
    occurred_at: '2026-01-01T00:00:00.000Z',
    data: { origin: 'client' },
    ...extra,
  };
}

async function waitFor(what: string, cond: () => boolean | Promise<boolean>, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A running worker; `stop()` aborts it and waits for `consume` to resolve. */
function worker(
  inbox: CallbackInbox,
  handler: InboxHandler,
  options: ConsumeOptions = {},
): { stop: () => Promise<void>; done: Promise<void> } {
  const controller = new AbortController();
  const done = inbox.consume(handler, { backoff: { baseMs: 5, maxMs: 20 }, ...options, signal: controller.signal });
  return { done, stop: () => (controller.abort(), done) };
}

describe.each(engines)('inbox behaviour (%s)', (_name, make) => {
  it('appends deduplicated by event id and hands each event to one worker once', async () => {
    const inbox = make();
    expect(await inbox.append([ev('a'), ev('b'), ev('a')])).toEqual({ stored: 2, duplicates: 1 });
    expect(await inbox.append([ev('b'), ev('c')])).toEqual({ stored: 1, duplicates: 1 });
    expect((await inbox.stats()).pending).toBe(3);
    const seen: string[] = [];
    const workers = [0, 1, 2].map((i) =>
      worker(inbox, (e) => void seen.push(e.id), { consumer: `c${i}`, concurrency: 2 }),
    );
    await waitFor('3 processed', async () => (await inbox.stats()).processed === 3);
    await Promise.all(workers.map((w) => w.stop()));
    expect(seen.sort()).toEqual(['a', 'b', 'c']);
    expect(await inbox.stats()).toMatchObject({ pending: 0, retrying: 0, deadLetters: 0, processed: 3 });
    expect(await inbox.append([ev('a')])).toEqual({ stored: 0, duplicates: 1 }); // done ids are remembered too
  });

  it('runs at most `concurrency` events at once, and a stop lets in-flight events finish', async () => {
    const inbox = make();
    await inbox.append(Array.from({ length: 12 }, (_, i) => ev(`e${i}`)));
    let running = 0;
    let most = 0;
    let finished = 0;
    const w = worker(
      inbox,
      async () => {
        most = Math.max(most, ++running);
        await new Promise((r) => setTimeout(r, 30));
        running--;
        finished++;
      },
      { concurrency: 3 },
    );
    await waitFor('some running', () => running > 0);
    await w.stop();
    expect(running).toBe(0); // nothing cut off
    expect(most).toBeLessThanOrEqual(3);
    const stats = await inbox.stats();
    expect(stats.processed).toBe(finished);
    expect(stats.pending).toBe(12 - finished); // the rest waits for the next worker
    expect(finished).toBeLessThan(12);
  });

  it('retries a failing event with backoff, dead-letters it after maxAttempts, and replays it', async () => {
    const inbox = make();
    await inbox.append([ev('bad'), ev('good')]);
    const attempts: number[] = [];
    let healed = false;
    const errors: { dead: boolean }[] = [];
    const w = worker(
      inbox,
      (e, ctx) => {
        if (e.id !== 'bad') return;
        attempts.push(ctx.attempt);
        if (!healed) throw new Error('downstream 502');
      },
      { maxAttempts: 3, onError: (_err, info) => void errors.push(info) },
    );
    await waitFor('dead letter', async () => (await inbox.stats()).deadLetters === 1);
    expect(attempts).toEqual([1, 2, 3]);
    expect(errors.map((e) => e.dead)).toEqual([false, false, true]);
    const [dead] = await inbox.deadLetters();
    expect(dead).toMatchObject({
      eventId: 'bad',
      attempts: 3,
      lastError: 'Error: downstream 502',
      event: { id: 'bad' },
    });
    expect(await inbox.stats()).toMatchObject({ pending: 0, processed: 1 });
    healed = true;
    expect(await inbox.replay('nope')).toBe(0);
    expect(await inbox.replay('bad')).toBe(1);
    await waitFor('replayed', async () => (await inbox.stats()).processed === 2);
    await w.stop();
    expect(attempts.at(-1)).toBe(1); // a replay starts counting afresh
    expect(await inbox.stats()).toMatchObject({ pending: 0, deadLetters: 0 });
  });

  it('replay() with no id puts every dead letter back', async () => {
    const inbox = make();
    await inbox.append([ev('x1'), ev('x2')]);
    let fail = true;
    const w = worker(
      inbox,
      () => {
        if (fail) throw new TypeError('nope');
      },
      {
        maxAttempts: 1,
        onError: () => {
          throw new Error('a broken onError does not stop the worker');
        },
      },
    );
    await waitFor('2 dead', async () => (await inbox.stats()).deadLetters === 2);
    fail = false;
    expect(await inbox.replay()).toBe(2);
    await waitFor('2 processed', async () => (await inbox.stats()).processed === 2);
    await w.stop();
  });

  it('a worker that stops answering loses nothing: another claims its event after the visibility timeout; its late commit is refused', async () => {
    const inbox = make({ visibilityTimeoutMs: 150 });
    await inbox.append([ev('slow')]);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let lateOutcome: string | undefined;
    // the first worker stops answering: past its handler deadline its store writes never happen
    const fail = (inbox as unknown as { fail: (consumer: string, ...rest: unknown[]) => Promise<void> }).fail.bind(
      inbox,
    );
    Object.assign(inbox, {
      fail: (consumer: string, ...rest: unknown[]) =>
        consumer === 'first' ? new Promise(() => undefined) : fail(consumer, ...rest),
    });
    const first = worker(
      inbox,
      async (_e, ctx) => {
        await held;
        lateOutcome = await ctx.commit([{ op: 'incr', key: 'effects:slow' }]);
      },
      { consumer: 'first', handlerTimeoutMs: 140, stopTimeoutMs: 50 },
    );
    await waitFor('first holds it', async () => (await inbox.stats()).pending === 1);
    await new Promise((r) => setTimeout(r, 20));
    const attempts: number[] = [];
    const second = worker(
      inbox,
      async (_e, ctx) => {
        attempts.push(ctx.attempt);
        expect(await ctx.commit([{ op: 'incr', key: 'effects:slow' }])).toBe('applied');
      },
      { consumer: 'second' },
    );
    await waitFor('second processed', async () => (await inbox.stats()).processed === 1);
    expect(attempts).toEqual([2]);
    release();
    await waitFor('late commit', () => lateOutcome !== undefined);
    expect(lateOutcome).toBe('lost');
    await Promise.all([first.stop(), second.stop()]);
    expect(await inbox.getState('effects:slow')).toBe('1');
    expect(await inbox.stats()).toMatchObject({ pending: 0, processed: 1 });
  });

  it('an event whose workers keep dying goes to the dead letters after maxAttempts', async () => {
    const inbox = make({ visibilityTimeoutMs: 60 });
    await inbox.append([ev('poison')]);
    // a dying worker never settles: its store writes never happen
    const never = (): Promise<never> => new Promise<never>(() => undefined);
    Object.assign(inbox, { fail: never, settle: never });
    const hang = new Promise<void>(() => undefined);
    const runs: number[] = [];
    const w = worker(
      inbox,
      async (_e, ctx) => {
        runs.push(ctx.attempt);
        await hang;
      },
      { maxAttempts: 2, concurrency: 4, stopTimeoutMs: 10 },
    );
    await waitFor('dead', async () => (await inbox.stats()).deadLetters === 1);
    await w.stop();
    expect(runs).toEqual([1, 2]);
    expect((await inbox.deadLetters())[0]).toMatchObject({ eventId: 'poison', attempts: 2 });
    expect((await inbox.deadLetters())[0]!.lastError).toMatch(/visibility timeout/);
  });

  it('commit writes state and acknowledges once; a second commit is refused; bad changes name the field', async () => {
    const inbox = make();
    await inbox.append([ev('c1'), ev('c2')]);
    const outcomes: unknown[] = [];
    const w = worker(inbox, async (e, ctx) => {
      if (e.id === 'c1') {
        outcomes.push(
          await ctx.commit([
            { op: 'set', key: 'user:1', value: 'v1' },
            { op: 'incr', key: 'n', by: 5 },
            { op: 'del', key: 'gone' },
          ]),
        );
        outcomes.push(await ctx.commit([]).catch((err: Error) => err.message));
      } else {
        outcomes.push(
          await ctx.commit([{ op: 'set', key: 'has space', value: 'x' } as never]).catch((err: Error) => err.message),
        );
        await ctx.commit([{ op: 'incr', key: 'n' }]);
      }
    });
    await waitFor('2 processed', async () => (await inbox.stats()).processed === 2);
    await w.stop();
    expect(outcomes).toContain('applied');
    expect(outcomes).toContain('commit() was already called for this event');
    expect(outcomes.some((o) => typeof o === 'string' && o.includes('changes[0].key'))).toBe(true);
    expect(await inbox.getState('user:1')).toBe('v1');
    expect(await inbox.getState('n')).toBe('6');
  });

  it('a commit that cannot be applied writes nothing and leaves the event unacknowledged', async () => {
    const inbox = make();
    await inbox.append([ev('k1')]);
    const errors: string[] = [];
    const w = worker(
      inbox,
      async (e, ctx) => {
        if (e.id === 'k1') await ctx.commit([{ op: 'set', key: 'word', value: 'abc' }]);
        else
          await ctx.commit([
            { op: 'set', key: 'side', value: 'written?' },
            { op: 'incr', key: 'word' },
          ]);
      },
      { maxAttempts: 1, onError: (err) => void errors.push(String(err)) },
    );
    await waitFor('k1', async () => (await inbox.stats()).processed === 1);
    await inbox.append([ev('k2')]);
    await waitFor('k2 dead', async () => (await inbox.stats()).deadLetters === 1);
    await w.stop();
    expect(errors[0]).toMatch(/incr of state key \S*word, which does not hold an integer; nothing was written/);
    expect(await inbox.getState('side')).toBeNull();
    expect(await inbox.stats()).toMatchObject({ processed: 1, pending: 0 });
    expect((await inbox.deadLetters())[0]).toMatchObject({ eventId: 'k2', attempts: 1 });
  });

  it('ordering guard: an older version never overwrites newer state, also when workers race', async () => {
    const inbox = make({ ordering: true });
    const g = (id: string, v: number, at = '2026-01-01T00:00:00.000Z'): CallbackEvent =>
      ev(id, {
        type: 'group.members_added',
        occurred_at: at,
        data: { origin: 'client', group_id: 'g1', member_version: v },
      });
    // versions 1..40 in a shuffled order, 8 at a time
    const versions = Array.from({ length: 40 }, (_, i) => i + 1).sort(() => Math.random() - 0.5);
    await inbox.append(versions.map((v) => g(`g1-${v}`, v)));
    const written: number[] = [];
    const w = worker(
      inbox,
      async (e, ctx) => {
        expect(ctx.ordering?.entity).toBe('group.members_added:g1');
        const v = (e.data as { member_version: number }).member_version;
        if ((await ctx.commit([{ op: 'set', key: 'group:g1', value: String(v) }])) === 'applied') written.push(v);
      },
      { concurrency: 8 },
    );
    await waitFor('all done', async () => (await inbox.stats()).processed === 40);
    await w.stop();
    expect(await inbox.getState('group:g1')).toBe('40');
    // what was written went up only
    expect(written).toEqual([...written].sort((a, b) => a - b));
    const stats = await inbox.stats();
    expect(stats.superseded).toBe(40 - written.length);
  });

  it('ordering guard: superseded events are skipped (or told), occurred_at breaks a version tie', async () => {
    const seen: { id: string; superseded?: boolean }[] = [];
    const handler: InboxHandler = async (e, ctx) => {
      seen.push({ id: e.id, superseded: ctx.ordering?.superseded });
      await ctx.commit([
        { op: 'set', key: 'last', value: e.id },
        { op: 'incr', key: 'runs', always: true },
      ]);
    };
    const g = (id: string, v: number, at: string): CallbackEvent =>
      ev(id, {
        type: 'group.members_added',
        occurred_at: at,
        data: { origin: 'client', group_id: 'g2', member_version: v },
      });
    for (const deliverSuperseded of [false, true]) {
      const inbox = make({ ordering: { deliverSuperseded } });
      seen.length = 0;
      for (const e of [
        g('v5', 5, '2026-01-01T00:00:05.000Z'),
        g('v3', 3, '2026-01-01T00:00:09.000Z'),
        g('v5-later', 5, '2026-01-01T00:00:05.000001Z'),
        g('v5-same', 5, '2026-01-01T00:00:05.000001Z'),
      ]) {
        await inbox.append([e]);
        const w = worker(inbox, handler);
        await waitFor(e.id, async () => (await inbox.stats()).pending === 0);
        await w.stop();
      }
      expect(await inbox.getState('last')).toBe('v5-later');
      expect(await inbox.getState('runs')).toBe(deliverSuperseded ? '4' : '2'); // `always` changes land for a superseded event it runs
      expect((await inbox.stats()).superseded).toBe(2);
      if (deliverSuperseded)
        expect(seen).toEqual([
          { id: 'v5', superseded: false },
          { id: 'v3', superseded: true },
          { id: 'v5-later', superseded: false },
          { id: 'v5-same', superseded: true },
        ]);
      else expect(seen.map((s) => s.id)).toEqual(['v5', 'v5-later']);
    }
  });

  it('ordering guard: the same newness rule in both engines (big versions, µs times, fallbacks)', async () => {
    type Mark = { v?: number | string; at?: string };
    // [stored, next, next is newer]
    const cases: [Mark, Mark, boolean][] = [
      [{ v: 9 }, { v: 10 }, true], // numeric, not string order
      [{ v: '99999999999999999999' }, { v: '100000000000000000000' }, true], // beyond 2^53
      [{ v: '100000000000000000000' }, { v: '99999999999999999999' }, false],
      [{ v: 7, at: '2026-01-01T00:00:00.000Z' }, { v: 7, at: '2026-01-01T00:00:00.000001Z' }, true], // µs tie-break
      [{ v: 7, at: '2026-01-01T00:00:00.001Z' }, { v: 7, at: '2026-01-01T00:00:00.000999Z' }, false],
      [{ v: 7, at: '2026-01-01T00:00:00.000Z' }, { v: 7, at: '2026-01-01T00:00:00.000Z' }, false], // same: not newer
      [{ at: '2026-01-01T00:00:00.000Z' }, { v: 1, at: '2026-01-01T01:00:00.000+01:00' }, false], // one version only: by time (equal)
      [{ v: 3, at: '2026-01-01T00:00:00.000Z' }, { at: '2026-01-02T00:00:00.000Z' }, true],
      [{ v: 3 }, { at: '2026-01-02T00:00:00.000Z' }, false], // nothing to compare: never over state
    ];
    for (const [i, [stored, next, newer]] of cases.entries()) {
      const inbox = make({ ordering: true });
      const g = (id: string, m: Mark): CallbackEvent =>
        ({
          id,
          type: 'group.members_added',
          ...(m.at ? { occurred_at: m.at } : {}),
          data: { origin: 'client', group_id: 'p', ...(m.v !== undefined ? { member_version: m.v } : {}) },
        }) as CallbackEvent;
      const outcomes: string[] = [];
      const w = worker(inbox, async (_e, ctx) => void outcomes.push(await ctx.commit([])), { concurrency: 1 });
      await inbox.append([g(`s${i}`, stored)]);
      await waitFor('stored', () => outcomes.length === 1);
      await inbox.append([g(`n${i}`, next)]);
      await waitFor('next', async () => (await inbox.stats()).processed === 2);
      await w.stop();
      expect([i, outcomes[0], (await inbox.stats()).superseded]).toEqual([i, 'applied', newer ? 0 : 1]);
    }
  });

  it('flags a truncated event with the REST call that fetches its data', async () => {
    const inbox = make();
    await inbox.append([
      ev('t1', {
        type: 'group.members_added',
        data: { origin: 'client', group_id: 'g9', member_version: 1, truncated: true },
      }),
      ev('t2', { type: 'chatroom.message_sent', data: { origin: 'client', truncated: true } }),
      ev('t3', {
        type: 'group.members_added',
        data: { origin: 'client', group_id: 'g9', member_version: 2, members: [] },
      }),
    ]);
    const got: Record<string, InboxContext['truncated']> = {};
    const w = worker(inbox, (e, ctx) => void (got[e.id] = ctx.truncated));
    await waitFor('3', async () => (await inbox.stats()).processed === 3);
    await w.stop();
    expect(got).toEqual({
      t1: { refetch: { operationId: 'groups.members', params: { group_id: 'g9' } } },
      t2: {},
      t3: undefined,
    });
  });

  it('createCallbackHandler({ inbox }) stores a verified batch before its 2xx; a failing or slow store gets 503 and nothing is acknowledged', async () => {
    const inbox = make();
    const post = (h: (r: Request) => Promise<Response>, ids: string[]): Promise<Response> => {
      const { headers, body } = signCallbackRequest({
        body: { kind: 'event', request_id: 'r', events: ids.map((id) => ev(id)) },
        secret: SECRET,
      });
      return h(new Request('http://127.0.0.1/cb', { method: 'POST', headers, body }));
    };
    const handler = createCallbackHandler({ secrets: SECRET, inbox });
    let res = await post(handler, ['h1', 'h2', 'h1']);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: 3, stored: 2, duplicates: 1 });
    expect((await inbox.stats()).pending).toBe(2);
    res = await post(handler, ['h2']);
    expect(await res.json()).toMatchObject({ stored: 0, duplicates: 1 });

    const broken = createCallbackHandler({
      secrets: SECRET,
      inbox: {
        append: async () => {
          throw new Error('READONLY');
        },
      },
    });
    expect((await post(broken, ['h3'])).status).toBe(503);
    const slow = createCallbackHandler({
      secrets: SECRET,
      storeTimeoutMs: 50,
      inbox: { append: () => new Promise(() => undefined) },
    });
    const started = Date.now();
    expect((await post(slow, ['h3'])).status).toBe(503);
    expect(Date.now() - started).toBeLessThan(10_000); // 50 ms budget; the bound only tells it from a hang
    expect(() => createCallbackHandler({ secrets: SECRET, inbox, onEvent: () => undefined })).toThrow(
      /inbox and onEvent/,
    );
  });
});

describe.each(engines)('issue 28 item 1: a stuck handler never stalls the inbox (%s)', (name, make) => {
  it('3 workers × concurrency 1, 200 events, one handler that never settles: the other 199 are processed, it is cut at handlerTimeoutMs each run and dead-lettered', async () => {
    // Before: 150/200 processed and no progress after 5 s (each worker in turn hung on the poison event)
    const inbox = make({ visibilityTimeoutMs: 1_000 });
    await inbox.append(Array.from({ length: 200 }, (_, i) => ev(`s${i}`)));
    const never = new Promise<void>(() => undefined);
    const infos: { timedOut?: boolean; dead: boolean; attempt: number }[] = [];
    const late: string[] = [];
    const started = Date.now();
    const workers = [0, 1, 2].map((i) =>
      worker(
        inbox,
        async (e, ctx) => {
          if (e.id === 's7') {
            await never; // ignores its signal too
            return;
          }
          if (e.id === 's8' && ctx.attempt === 1) {
            await new Promise((r) => setTimeout(r, 400)); // over the deadline, then tries to commit
            late.push(await ctx.commit([{ op: 'incr', key: 'late' }]));
            return;
          }
          await ctx.commit([{ op: 'incr', key: `done:${e.id}` }]);
        },
        {
          consumer: `k${i}`,
          concurrency: 1,
          handlerTimeoutMs: 200,
          maxAttempts: 3,
          onError: (err, info) =>
            void (info.eventId === 's7' && err instanceof InboxHandlerTimeoutError && infos.push(info)),
        },
      ),
    );
    await waitFor(
      '199 processed and the poison dead',
      async () => {
        const st = await inbox.stats();
        return st.processed === 199 && st.deadLetters === 1;
      },
      20_000,
    );
    const settledMs = Date.now() - started;
    await Promise.all(workers.map((w) => w.stop()));
    console.info(
      `[inbox ${name}] 200 events, 3 workers × 1, one handler stuck: 199 processed and the stuck one dead-lettered after ${settledMs} ms`,
    );
    expect(infos.map((i) => [i.attempt, i.timedOut, i.dead])).toEqual([
      [1, true, false],
      [2, true, false],
      [3, true, true],
    ]);
    expect((await inbox.deadLetters())[0]).toMatchObject({ eventId: 's7', attempts: 3 });
    expect((await inbox.deadLetters())[0]!.lastError).toMatch(
      /InboxHandlerTimeoutError: .*within handlerTimeoutMs \(200 ms\)/,
    );
    expect(late).toEqual(['lost']); // the cut run's late commit writes nothing
    expect(await inbox.getState('late')).toBeNull();
    expect(await inbox.getState('done:s8')).toBe('1'); // its retry did the work, once
  }, 30_000);

  it('consume() resolves within stopTimeoutMs (+1 s) of its abort even with a handler that ignores its signal; the stuck run is reported and handed to another worker', async () => {
    // Before: consume() never resolved after its signal aborted (a graceful shutdown hung)
    const inbox = make({ visibilityTimeoutMs: 5_000 });
    await inbox.append([ev('stuck')]);
    let running = false;
    const reports: { stuck?: boolean; attempt: number }[] = [];
    const first = worker(
      inbox,
      async () => {
        running = true;
        await new Promise<void>(() => undefined);
      },
      { stopTimeoutMs: 300, onError: (_err, info) => void reports.push(info) },
    );
    await waitFor('running', () => running);
    const t0 = Date.now();
    await first.stop();
    const stopMs = Date.now() - t0;
    console.info(
      `[inbox ${name}] consume() with a stuck handler resolved ${stopMs} ms after its abort (stopTimeoutMs 300)`,
    );
    expect(stopMs).toBeLessThan(1_300 + 2_000);
    expect(reports).toEqual([expect.objectContaining({ stuck: true, attempt: 1 })]);
    // handed on at once (not after the 5 s visibility timeout): another worker runs it, attempt 2
    const attempts: number[] = [];
    const second = worker(inbox, (_e, ctx) => void attempts.push(ctx.attempt));
    await waitFor('taken over', () => attempts.length === 1, 4_000);
    await second.stop();
    expect(attempts).toEqual([2]);
  });

  it('refuses a handlerTimeoutMs at or above the visibility timeout', async () => {
    const inbox = make({ visibilityTimeoutMs: 1_000 });
    await expect(inbox.consume(() => undefined, { handlerTimeoutMs: 1_000 })).rejects.toThrow(
      /handlerTimeoutMs \(1000\) must be below the inbox's visibilityTimeoutMs \(1000\)/,
    );
  });
});

/** Events of a Redis inbox read by hand for `consumer` (XREADGROUP of the `workers` group), as the worker loop claims them. */
async function claimAs(prefix: string, consumer: string, count: number) {
  const reply = (await redis.sendCommand([
    'XREADGROUP',
    'GROUP',
    'workers',
    consumer,
    'COUNT',
    String(count),
    'STREAMS',
    `${prefix}events`,
    '>',
  ])) as [string, [string, string[]][]][];
  return reply[0]![1].map(([entryId, f]) => ({ entryId, eventId: f[1]!, event: ev(f[1]!), attempt: 1 }));
}

describe('RedisInbox specifics', () => {
  it('recovers when its stream and group are deleted under it (FLUSHALL, eviction)', async () => {
    const inbox = new RedisInbox({ client: fromNodeRedis(redis), durability: 'off', blockMs: 50, prefix: '{rx}:' });
    const seen: string[] = [];
    const errors: unknown[] = [];
    const w = worker(inbox, (e) => void seen.push(e.id), { onError: (err) => void errors.push(err) });
    await inbox.append([ev('r1')]);
    await waitFor('r1', () => seen.length === 1);
    await redis.del('{rx}:events');
    await waitFor('an error seen', () => errors.length > 0);
    await inbox.append([ev('r2')]);
    await waitFor('r2', () => seen.includes('r2'));
    await w.stop();
    expect(String(errors[0])).toMatch(/NOGROUP/);
  });

  it('consume() resolves after its abort even while the store does not answer (a take under way)', async () => {
    const silent = new RedisInbox({ client: { command: () => new Promise(() => undefined) }, durability: 'off' });
    const w = worker(silent, () => undefined, { stopTimeoutMs: 100 });
    await new Promise((r) => setTimeout(r, 100));
    const t0 = Date.now();
    await w.stop();
    expect(Date.now() - t0).toBeLessThan(2_000);
  });

  it('keeps ids in a pending set, then in a done set per quarter of the retention that outlives it; an entry appended again after its record went commits as duplicate', async () => {
    const retentionMs = 24 * 60 * 60 * 1000;
    const inbox = new RedisInbox({
      client: fromNodeRedis(redis),
      blockingClient: fromNodeRedis(blocking),
      durability: 'off',
      blockMs: 50,
      prefix: '{rb}:',
      retentionMs,
    });
    await inbox.append([ev('b1')]);
    expect(await redis.sendCommand(['SMEMBERS', '{rb}:pending'])).toEqual(['b1']);
    // the record of b1 goes (evicted, lost in a crash): the same id is taken in again, a second entry
    await redis.sendCommand(['SREM', '{rb}:pending', 'b1']);
    expect(await inbox.append([ev('b1')])).toEqual({ stored: 1, duplicates: 0 });
    const outcomes: string[] = [];
    const w = worker(
      inbox,
      async (_e, ctx) => void outcomes.push(await ctx.commit([{ op: 'incr', key: 'effects:b1' }])),
    );
    await waitFor('both entries settled', () => outcomes.length === 2);
    await w.stop();
    expect(outcomes.sort()).toEqual(['applied', 'duplicate']);
    expect(await inbox.getState('effects:b1')).toBe('1');
    const done = (await redis.sendCommand(['KEYS', '{rb}:done:*'])) as string[];
    expect(done).toHaveLength(1);
    expect(await redis.sendCommand(['SMEMBERS', done[0]!])).toEqual(['b1']);
    const ttl = Number(await redis.sendCommand(['PTTL', done[0]!]));
    expect(ttl).toBeGreaterThan(retentionMs - 60_000); // at least the retention after the id was processed
    expect(ttl).toBeLessThanOrEqual(retentionMs * 1.25);
    expect(await redis.sendCommand(['EXISTS', '{rb}:pending'])).toBe(0);
    expect(await inbox.append([ev('b1')])).toEqual({ stored: 0, duplicates: 1 });
  });

  it('records a long id by its 14-character digest: deduplicated in the inbox and after processing; a near id is not', async () => {
    const inbox = new RedisInbox({
      client: fromNodeRedis(redis),
      blockingClient: fromNodeRedis(blocking),
      durability: 'off',
      blockMs: 50,
      prefix: '{rl}:',
    });
    const long = 'evt_6f1c2a4e-8b1d-4c6e-9f2a-1b3c5d7e';
    const near = 'evt_6f1c2a4e-8b1d-4c6e-9f2a-1b3c5d7f';
    expect(await inbox.append([ev(long), ev(near), ev(long)])).toEqual({ stored: 2, duplicates: 1 });
    expect(((await redis.sendCommand(['SMEMBERS', '{rl}:pending'])) as string[]).sort()).toEqual(
      [idRecord(long), idRecord(near)].sort(),
    );
    const seen: string[] = [];
    const w = worker(inbox, (e) => void seen.push(e.id));
    await waitFor('both processed', async () => (await inbox.stats()).processed === 2);
    await w.stop();
    expect(seen.sort()).toEqual([long, near]); // the handler gets the ids as they came
    const done = (await redis.sendCommand(['KEYS', '{rl}:done:*'])) as string[];
    expect(((await redis.sendCommand(['SMEMBERS', done[0]!])) as string[]).sort()).toEqual(
      [idRecord(long), idRecord(near)].sort(),
    );
    expect(await inbox.append([ev(near), ev(long)])).toEqual({ stored: 0, duplicates: 2 });
  });

  it('settles of one turn go out together, an ack-only event in ACK and one with changes in SETTLE, each with its own outcome; a consumer that does not hold the entry gets lost', async () => {
    const inbox = new RedisInbox({ client: fromNodeRedis(redis), durability: 'off', prefix: '{ra}:' });
    await inbox.append([ev('p1'), ev('p2'), ev('p3'), ev('p4')]);
    const claim = (consumer: string, count: number) => claimAs('{ra}:', consumer, count);
    const [p1, p2, p3] = await claim('x', 3);
    const [p4] = await claim('y', 1);
    const settle = (inbox as unknown as { settle: (...a: unknown[]) => Promise<string> }).settle.bind(inbox);
    const outcomes = await Promise.all([
      settle('x', p1, [], undefined),
      settle('x', p2, [{ op: 'set', key: 'k2', value: 'v' }], undefined),
      settle('x', p4, [], undefined), // held by y
      settle('y', p3, [{ op: 'set', key: 'k3', value: 'v' }], undefined), // held by x
      settle('x', p3, [], undefined),
    ]);
    expect(outcomes).toEqual(['applied', 'applied', 'lost', 'lost', 'applied']);
    expect(await settle('x', p1, [], undefined)).toBe('lost'); // acknowledged already
    expect(await settle('y', p4, [], undefined)).toBe('applied');
    expect(await inbox.getState('k2')).toBe('v');
    expect(await inbox.getState('k3')).toBeNull();
    expect(await inbox.stats()).toMatchObject({ pending: 0, processed: 4 });
    expect(await redis.sendCommand(['EXISTS', '{ra}:pending'])).toBe(0);
  });

  it('an ack trims the entries before the oldest unacknowledged one and deletes the later ones: the stream holds only events in flight or not yet read', async () => {
    const inbox = new RedisInbox({ client: fromNodeRedis(redis), durability: 'off', prefix: '{rt}:' });
    await inbox.append(['t1', 't2', 't3', 't4', 't5', 't6', 't7'].map((id) => ev(id)));
    const claim = (count: number) => claimAs('{rt}:', 'x', count);
    const settle = (inbox as unknown as { settle: (...a: unknown[]) => Promise<string> }).settle.bind(inbox);
    const xlen = async () => Number(await redis.sendCommand(['XLEN', '{rt}:events']));
    const [t1, t2, t3, t4] = await claim(4);
    // t1 stays in flight: t2 and t3, newer than it, go one by one
    expect(await Promise.all([settle('x', t2, [], undefined), settle('x', t3, [], undefined)])).toEqual([
      'applied',
      'applied',
    ]);
    expect(await xlen()).toBe(5); // t1, t4 in flight; t5, t6, t7 not read yet
    expect(await settle('x', t1, [], undefined)).toBe('applied'); // trims up to t4, the oldest in flight
    expect(await xlen()).toBe(4);
    expect(await settle('x', t4, [], undefined)).toBe('applied'); // nothing in flight: trims up to t4 itself
    expect(await xlen()).toBe(3);
    expect((await claim(10)).map((c) => c.eventId)).toEqual(['t5', 't6', 't7']); // unread events are kept
    expect(await inbox.stats()).toMatchObject({ pending: 3, processed: 4 });
  });

  it('an ack-only event whose id record went is taken in again and its second entry settles as duplicate', async () => {
    const inbox = new RedisInbox({
      client: fromNodeRedis(redis),
      blockingClient: fromNodeRedis(blocking),
      durability: 'off',
      blockMs: 50,
      prefix: '{rd}:',
    });
    await inbox.append([ev('d1')]);
    await redis.sendCommand(['SREM', '{rd}:pending', 'd1']);
    expect(await inbox.append([ev('d1')])).toEqual({ stored: 1, duplicates: 0 });
    const outcomes: string[] = [];
    const w = worker(inbox, async (_e, ctx) => void outcomes.push(await ctx.commit([])), { concurrency: 1 });
    await waitFor('both entries settled', () => outcomes.length === 2);
    await w.stop();
    expect(outcomes).toEqual(['applied', 'duplicate']);
    expect(await inbox.stats()).toMatchObject({ pending: 0, processed: 1 });
  });

  it('loads its scripts again after SCRIPT FLUSH', async () => {
    const inbox = new RedisInbox({ client: fromNodeRedis(redis), durability: 'off', prefix: '{rs}:' });
    await inbox.append([ev('s1')]);
    await redis.sendCommand(['SCRIPT', 'FLUSH']);
    expect(await inbox.append([ev('s2'), ev('s1')])).toEqual({ stored: 1, duplicates: 1 });
  });
});

describe('inbox options', () => {
  it('refuses a retention under 24 h and bad consume options, naming them', async () => {
    expect(() => new MemoryInbox({ retentionMs: 1000 })).toThrow(/retentionMs .*24 h/);
    const inbox = new MemoryInbox();
    await expect(inbox.consume(() => undefined, { concurrency: 0 })).rejects.toThrow(/concurrency/);
    await expect(inbox.consume(() => undefined, { maxAttempts: 0 })).rejects.toThrow(/maxAttempts/);
    await expect(inbox.consume(() => undefined, { consumer: 'has space' })).rejects.toThrow(/consumer/);
    expect(() => new RedisInbox({ client: fromNodeRedis(redis), prefix: 'bad prefix' })).toThrow(/prefix/);
  });
});
