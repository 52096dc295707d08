/**
 * Opt-in response validation is lenient: the response comes back as the service sent it, and
 * what differs from the spec (a new field on a documented shape, a new enum value, a changed
 * type) is reported to a hook, never thrown.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ImClient, type ResponseDrift } from '../generated/src/index.js';
import { createFakeService, type FakeService } from '../generated/src/testing.js';

let fake: FakeService;
beforeEach(async () => {
  fake = await createFakeService();
});
afterEach(() => fake.close());

describe('validateResponses', () => {
  it('reports drift to the hook and returns the response unchanged', async () => {
    const page = {
      items: [{ id: 'i1', status: 'escalated', scene: 'message', note: 'kept' }],
      next_cursor: null,
      total: 1,
    };
    fake.override('moderation.items', () => ({ body: page }));
    const drift: ResponseDrift[] = [];
    const im = new ImClient({ ...fake.clientOptions, validateResponses: true, onResponseDrift: (d) => drift.push(d) });
    const first = await im.moderation.items();
    expect(first.body).toEqual(page); // unknown fields and the new status value are kept
    expect(drift).toHaveLength(1);
    expect(drift[0]!.operationId).toBe('moderation.items');
    const found = drift[0]!.issues.map((i) => `${i.pointer} ${i.rule}`);
    expect(found).toEqual(expect.arrayContaining(['/total additionalProperties', '/items/0/status enum']));
    // x-not-documented shapes stay open: the undocumented `note` of an item is not drift.
    expect(found.some((f) => f.startsWith('/items/0/note'))).toBe(false);
  });

  it('a changed type is reported, not thrown; a matching response reports nothing', async () => {
    let body: unknown = { items: [], next_cursor: 42 };
    fake.override('groups.list', () => ({ body }));
    const drift: ResponseDrift[] = [];
    const im = new ImClient({ ...fake.clientOptions, validateResponses: true, onResponseDrift: (d) => drift.push(d) });
    await expect(im.groups.list()).resolves.toBeDefined();
    expect(drift.flatMap((d) => d.issues.map((i) => `${i.pointer} ${i.rule}`))).toEqual(['/next_cursor type']);
    body = { items: [{ anything: 1 }], next_cursor: null };
    drift.length = 0;
    await im.groups.list();
    expect(drift).toEqual([]);
  });

  it('is off by default and per call', async () => {
    fake.override('groups.list', () => ({ body: { items: [], next_cursor: 42 } }));
    const drift: ResponseDrift[] = [];
    const off = new ImClient({ ...fake.clientOptions, onResponseDrift: (d) => drift.push(d) });
    await off.groups.list();
    await off.groups.list({}, { validateResponse: true });
    expect(drift).toHaveLength(1);
  });
});
