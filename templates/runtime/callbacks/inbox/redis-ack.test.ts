/**
 * The ACK script's outcomes when one call holds several events (issue 33: the ids leave the inbox
 * set by one SREM, whose count tells whether any was missing; only then are the done sets asked).
 */
import { describe, expect, it } from 'vitest';
import { redisServerPerFile } from '../../../../test/fixtures/callbacks/redis-per-file.js';
import { fromNodeRedis } from '../../stores/redis-client.js';
import type { CallbackEvent } from '../types.js';
import { RedisInbox } from './redis-inbox.js';

const redisServer = redisServerPerFile();

const ev = (id: string): CallbackEvent => ({
  id,
  type: 'user.session_created',
  occurred_at: '2026-01-01T00:00:00.000Z',
  data: { origin: 'client' },
});

/** Runs one worker until `n` commits answered; the outcomes by event id, in the order they came. */
async function consume(inbox: RedisInbox, n: number): Promise<[string, string][]> {
  const outcomes: [string, string][] = [];
  const controller = new AbortController();
  const done = inbox.consume(async (e, ctx) => void outcomes.push([e.id, await ctx.commit([])]), {
    concurrency: 8,
    signal: controller.signal,
  });
  const end = Date.now() + 8000;
  while (outcomes.length < n && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
  controller.abort();
  await done;
  return outcomes;
}

describe('RedisInbox ACK with several events in one call', () => {
  it('an entry of a done id beside new ones: duplicate for it, applied for the others; a second entry of one id in the call is a duplicate', async () => {
    const prefix = '{ack-mixed}:';
    const inbox = new RedisInbox({ client: fromNodeRedis(redisServer.client), durability: 'off', prefix });
    await inbox.append([ev('y1')]);
    expect(await consume(inbox, 1)).toEqual([['y1', 'applied']]);
    // an entry of y1 again (as if appended after its inbox record went), then new ids and one of them twice
    await redisServer.client.sendCommand([
      'XADD',
      `${prefix}events`,
      '*',
      'id',
      'y1',
      'e',
      JSON.stringify(ev('y1')),
      'r',
      '0',
    ]);
    await inbox.append([ev('y2'), ev('y3')]);
    await redisServer.client.sendCommand([
      'XADD',
      `${prefix}events`,
      '*',
      'id',
      'y3',
      'e',
      JSON.stringify(ev('y3')),
      'r',
      '0',
    ]);
    const outcomes = await consume(inbox, 4);
    expect(outcomes.sort()).toEqual([
      ['y1', 'duplicate'],
      ['y2', 'applied'],
      ['y3', 'applied'],
      ['y3', 'duplicate'],
    ]);
    expect(await inbox.stats()).toMatchObject({ pending: 0, processed: 3 });
    expect(await inbox.append([ev('y2'), ev('y3')])).toEqual({ stored: 0, duplicates: 2 });
  });
});
