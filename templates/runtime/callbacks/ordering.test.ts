import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareOrdering, isNewer, orderingMarkOf, orderingVersionFields } from './ordering.js';
import { compareCallbackTimes, parseCallbackTime } from './times.js';

describe('callback times', () => {
  it('parses ms and µs forms to exact epoch microseconds', () => {
    expect(parseCallbackTime('1970-01-01T00:00:00.000Z').epochMicros).toBe(0n);
    expect(parseCallbackTime('2026-01-01T12:34:56.789Z').epochMicros).toBe(
      BigInt(Date.UTC(2026, 0, 1, 12, 34, 56, 789)) * 1000n,
    );
    expect(parseCallbackTime('2026-01-01T12:34:56.789123Z').epochMicros).toBe(
      BigInt(Date.UTC(2026, 0, 1, 12, 34, 56, 789)) * 1000n + 123n,
    );
    expect(parseCallbackTime('2026-01-01T12:34:56.789123Z').fractionDigits).toBe(6);
    expect(parseCallbackTime('2026-01-01T13:34:56.789+01:00').epochMicros).toBe(
      parseCallbackTime('2026-01-01T12:34:56.789Z').epochMicros,
    );
    expect(parseCallbackTime('1969-12-31T23:59:59.999999Z').epochMicros).toBe(-1n);
  });

  it('compares ms and µs forms without truncation', () => {
    expect(compareCallbackTimes('2026-01-01T12:34:56.789Z', '2026-01-01T12:34:56.789000Z')).toBe(0);
    expect(compareCallbackTimes('2026-01-01T12:34:56.789Z', '2026-01-01T12:34:56.789001Z')).toBe(-1);
    expect(compareCallbackTimes('2026-01-01T12:34:56.789999Z', '2026-01-01T12:34:56.790Z')).toBe(-1);
    expect(compareCallbackTimes('2026-01-01T12:34:56.790Z', '2026-01-01T12:34:56.789999Z')).toBe(1);
    // Date would call these equal (both truncate to .789)
    expect(new Date('2026-01-01T12:34:56.789001Z').getTime()).toBe(new Date('2026-01-01T12:34:56.789999Z').getTime());
    expect(compareCallbackTimes('2026-01-01T12:34:56.789001Z', '2026-01-01T12:34:56.789999Z')).toBe(-1);
  });

  it('agrees with Date on millisecond times (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -62_000_000_000_000, max: 250_000_000_000_000 }),
        fc.integer({ min: -62_000_000_000_000, max: 250_000_000_000_000 }),
        (a, b) => {
          const sa = new Date(a).toISOString();
          const sb = new Date(b).toISOString();
          if (!/^\d{4}-/.test(sa) || !/^\d{4}-/.test(sb)) return;
          expect(parseCallbackTime(sa).epochMicros).toBe(BigInt(a) * 1000n);
          expect(compareCallbackTimes(sa, sb)).toBe(Math.sign(a - b) as -1 | 0 | 1);
        },
      ),
      { numRuns: 300 },
    );
  });

  it.each([
    '2026-02-30T00:00:00.000Z',
    '2026-01-01T24:00:00Z',
    '2026-01-01 00:00:00Z',
    '2026-01-01T00:00:00.1234567Z',
    '2026-01-01T00:00:00',
    'yesterday',
    '',
  ])('refuses %j', (s) => {
    expect(() => parseCallbackTime(s)).toThrow(RangeError);
  });
});

describe('ordering', () => {
  const ev = (type: string, data: Record<string, unknown>, occurred_at = '2026-01-01T00:00:00.000Z') => ({
    id: 'e',
    type,
    occurred_at,
    data,
  });

  it('the table holds the three version fields the seed names', () => {
    expect(orderingVersionFields).toEqual({
      'friend.added': 'version',
      'group.members_added': 'member_version',
      'presence.changed': 'version',
    });
  });

  it('group.members_added: member_version decides, not occurred_at', () => {
    const older = ev('group.members_added', { member_version: 4 }, '2026-01-01T00:00:09.000Z');
    const newer = ev('group.members_added', { member_version: 5 }, '2026-01-01T00:00:01.000Z');
    expect(isNewer(newer, older)).toBe(true);
    expect(isNewer(older, newer)).toBe(false);
    expect(isNewer(newer, newer)).toBe(false);
    expect(isNewer(newer, orderingMarkOf(older))).toBe(true);
    expect(isNewer(newer, { version: 5 })).toBe(false);
    expect(isNewer(newer, null)).toBe(true);
  });

  it('friend.added and presence.changed use data.version; big versions compare exactly', () => {
    expect(isNewer(ev('friend.added', { version: 2 }), ev('friend.added', { version: 1 }))).toBe(true);
    expect(isNewer(ev('presence.changed', { version: '9007199254740993' }), { version: '9007199254740992' })).toBe(
      true,
    );
  });

  it('types without a version fall back to occurred_at (exact to the microsecond)', () => {
    const a = ev('user.session_created', {}, '2026-01-01T00:00:00.000Z');
    const b = ev('user.session_created', {}, '2026-01-01T00:00:00.001Z');
    expect(isNewer(b, a)).toBe(true);
    expect(isNewer(a, b)).toBe(false);
    expect(
      isNewer({ type: 'x', occurred_at: '2026-01-01T00:00:00.000001Z' }, { occurred_at: '2026-01-01T00:00:00.000Z' }),
    ).toBe(true);
  });

  it('incomparable → not newer (older data never overwrites)', () => {
    expect(compareOrdering({}, { version: 1 })).toBeUndefined();
    expect(isNewer({ type: 'x' }, { version: 1 })).toBe(false);
    expect(isNewer({ type: 'x', occurred_at: 'garbage' }, { occurred_at: '2026-01-01T00:00:00.000Z' })).toBe(false);
  });

  it('a generator-filled table is honoured', () => {
    const fields = { 'group.updated': 'version' };
    expect(isNewer(ev('group.updated', { version: 3 }), ev('group.updated', { version: 2 }), fields)).toBe(true);
  });
});
