import { describe, expect, it } from 'vitest';
import { flowSettings, verifiedOf } from '../../test-support/callback-flows.js';
import type { CallbackEvent } from '../types.js';
import { appendToInbox } from './inbox-flow.js';

const batch = (events: unknown[]) => verifiedOf('event', { kind: 'event', events });

describe('inbox flow', () => {
  it('appends the events that have an id, skips the others, and answers what the inbox stored', async () => {
    const appended: CallbackEvent[][] = [];
    const inbox = {
      append: async (events: CallbackEvent[]) => (appended.push(events), { stored: events.length - 1, duplicates: 1 }),
    };
    const { settings, logged } = flowSettings();
    const result = await appendToInbox(
      settings,
      inbox,
      batch([{ id: 'e1', type: 't' }, { type: 'no id' }, null, { id: 'e2', type: 't' }]),
    );
    expect(appended).toEqual([
      [
        { id: 'e1', type: 't' },
        { id: 'e2', type: 't' },
      ],
    ]);
    expect(JSON.parse(result.body)).toEqual({ received: 4, stored: 1, duplicates: 1 });
    expect(logged.filter((l) => l.level === 'warn')).toHaveLength(2);
  });

  it('answers 503 when the inbox fails or overruns the store budget, so the service resends', async () => {
    const { settings } = flowSettings({ storeTimeoutMs: 30 });
    const failing = {
      append: async () => {
        throw new Error('down');
      },
    };
    const hanging = { append: () => new Promise<never>(() => {}) };
    expect(await appendToInbox(settings, failing, batch([{ id: 'e1' }]))).toMatchObject({
      status: 503,
      body: '{"error":"inbox_unavailable"}',
    });
    expect((await appendToInbox(settings, hanging, batch([{ id: 'e1' }]))).status).toBe(503);
  });
});
