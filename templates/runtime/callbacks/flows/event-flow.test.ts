import { describe, expect, it } from 'vitest';
import { flowSettings, verifiedOf } from '../../test-support/callback-flows.js';
import { MemoryDedupeStore } from '../../stores/dedupe-store.js';
import { handleEvents } from './event-flow.js';

const batch = (events: unknown[]) => verifiedOf('event', { kind: 'event', events });

describe('event flow', () => {
  it('runs onEvent once per new event id: a redelivered batch counts duplicates', async () => {
    const seen: string[] = [];
    const { settings } = flowSettings({
      onEvent: (e) => {
        seen.push(e.id);
      },
    });
    const first = await handleEvents(
      settings,
      batch([
        { id: 'a', type: 't' },
        { id: 'b', type: 't' },
      ]),
    );
    const again = await handleEvents(
      settings,
      batch([
        { id: 'a', type: 't' },
        { id: 'c', type: 't' },
      ]),
    );
    expect(JSON.parse(first.body)).toEqual({ received: 2, processed: 2, duplicates: 0 });
    expect(JSON.parse(again.body)).toEqual({ received: 2, processed: 1, duplicates: 1 });
    expect(seen).toEqual(['a', 'b', 'c']);
  });

  it('answers 500 and releases the id when onEvent throws, so the redelivery processes it', async () => {
    let fail = true;
    const { settings } = flowSettings({
      onEvent: () => {
        if (fail) throw new Error('db down');
      },
    });
    expect((await handleEvents(settings, batch([{ id: 'a', type: 't' }]))).status).toBe(500);
    fail = false;
    expect(JSON.parse((await handleEvents(settings, batch([{ id: 'a', type: 't' }]))).body)).toMatchObject({
      processed: 1,
    });
  });

  it('answers 503 with Retry-After while another delivery processes the event, 503 when the store fails, 500 without onEvent', async () => {
    const store = new MemoryDedupeStore();
    await store.begin!('event:a', 60_000);
    const { settings } = flowSettings({ onEvent: () => {}, dedupeStore: store });
    const busy = await handleEvents(settings, batch([{ id: 'a', type: 't' }]));
    expect(busy).toMatchObject({ status: 503, headers: { 'retry-after': '5' } });
    const down = {
      claim: async () => {
        throw new Error('down');
      },
      release: async () => {},
    };
    expect(
      (await handleEvents(flowSettings({ onEvent: () => {}, dedupeStore: down }).settings, batch([{ id: 'b' }])))
        .status,
    ).toBe(503);
    expect((await handleEvents(flowSettings().settings, batch([{ id: 'b' }]))).body).toBe(
      '{"error":"no_event_handler"}',
    );
  });
});
