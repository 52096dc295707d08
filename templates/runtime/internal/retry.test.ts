import { describe, expect, test } from 'vitest';
import { ops } from '../test-support/fake-service.js';
import { backoffDelayMs, parseRetryAfterMs, retryClassFor, retryPolicyFor } from './retry.js';

describe('retryClassFor: conditional classes evaluated on the actual params', () => {
  test.each([
    ['messages.send without online_only', ops.messagesSend, {}, 'D'],
    ['messages.send online_only false', ops.messagesSend, { online_only: false }, 'D'],
    ['messages.send online_only true', ops.messagesSend, { online_only: true }, 'N'],
    ['messages.send online_only "true" (not strictly equal)', ops.messagesSend, { online_only: 'true' }, 'D'],
    ['chatrooms.send priority low', ops.chatroomsSend, { priority: 'low' }, 'N'],
    ['chatrooms.send priority high', ops.chatroomsSend, { priority: 'high' }, 'D'],
    ['moderation.decide actions without version', ops.moderationDecide, { actions: ['ban'] }, 'N'],
    ['moderation.decide actions with version null', ops.moderationDecide, { actions: ['ban'], version: null }, 'N'],
    ['moderation.decide actions with version', ops.moderationDecide, { actions: ['ban'], version: 3 }, 'I'],
    ['moderation.decide version 0 counts as present', ops.moderationDecide, { actions: [], version: 0 }, 'I'],
    ['moderation.decide no actions', ops.moderationDecide, { decision: 'no_violation' }, 'I'],
    ['moderation.decide actions null is absent', ops.moderationDecide, { actions: null }, 'I'],
  ] as const)('%s → %s', (_name, op, params, want) => {
    expect(retryClassFor(op, params as Record<string, unknown>)).toBe(want);
  });

  test('N never resends on failure, the other classes do', () => {
    expect(retryPolicyFor(ops.setPassword, {}).resendOnFailure).toBe(false);
    for (const op of [ops.usersGet, ops.usersUpdate, ops.usersCreate, ops.messagesSend]) {
      expect(retryPolicyFor(op, {}).resendOnFailure).toBe(true);
    }
    // The class decides, never the method: a POST of class Q is resent, a PUT of class N is not.
    expect(retryPolicyFor({ ...ops.usersGet, method: 'POST' }, {}).resendOnFailure).toBe(true);
  });
});

describe('backoffDelayMs: exponential, full jitter, capped', () => {
  test.each([
    [1, 0.999999, 499],
    [2, 0.999999, 999],
    [3, 0.5, 1000],
    [5, 0.999999, 7999],
    [9, 0.999999, 7999],
    [4, 0, 0],
  ])('retry %i with random %f → %i ms', (n, r, want) => {
    expect(backoffDelayMs(n, () => r)).toBe(want);
  });
});

describe('parseRetryAfterMs', () => {
  const now = Date.parse('2030-01-01T00:00:00Z');
  test.each([
    ['3', 3000],
    ['0', 0],
    [' 2 ', 2000],
    ['Tue, 01 Jan 2030 00:00:05 GMT', 5000],
    ['Mon, 31 Dec 2029 23:59:00 GMT', 0],
    // The two obsolete HTTP-date forms RFC 9110 still requires a recipient to accept.
    ['Tuesday, 01-Jan-30 00:00:07 GMT', 7000],
    ['Tue Jan  1 00:00:09 2030', 9000],
    // Not delay-seconds and not an HTTP-date: ignored (issue 16 item 3), never read leniently.
    ['1.5', undefined],
    ['-4', undefined],
    ['foo 3000', undefined],
    ['3000', 3_000_000],
    ['2030', 2_030_000],
    ['Tue, 01 Jan 3000 00:00:00', undefined],
    ['Tue, 31 Feb 2030 00:00:00 GMT', undefined],
    ['Tue, 01 Jan 2030 00:00:05 GMT garbage', undefined],
    ['January 1, 3000', undefined],
    ['0x10', undefined],
    ['1e3', undefined],
    ['soon', undefined],
    ['', undefined],
  ] as const)('%j → %j', (value, want) => {
    expect(parseRetryAfterMs(value, now)).toBe(want);
  });
  test('a huge delay-seconds stays a finite number (clamped to a year; the gate caps further)', () => {
    expect(parseRetryAfterMs('9'.repeat(400), now)).toBe(365 * 24 * 3600 * 1000);
  });
  test('absent header', () => {
    expect(parseRetryAfterMs(null, now)).toBeUndefined();
  });
});
