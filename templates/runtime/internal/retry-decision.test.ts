import { describe, expect, it } from 'vitest';
import { type AttemptResult, type Decision, type DecisionPolicy, decide, type RetryState } from './retry-decision.js';

const policy: DecisionPolicy = { resendOnFailure: true, maxRetries: 2, maxRetryAfterMs: 60_000, oneShot: false };
const classN: Partial<DecisionPolicy> = { resendOnFailure: false };
const oneShot: Partial<DecisionPolicy> = { oneShot: true };
const fresh: RetryState = { resends: 0, reauthenticated: false, mayHaveExecuted: false };
const spent: Partial<RetryState> = { resends: 2 };
const reauthenticated: Partial<RetryState> = { reauthenticated: true };

const answer = (status: number, more: Partial<Extract<AttemptResult, { kind: 'response' }>> = {}): AttemptResult => ({
  kind: 'response',
  status,
  hadToken: true,
  ...more,
});

/** A decision as a row states it: `next` only where the row checks it. */
type Expected = (Decision extends infer D ? (D extends unknown ? Omit<D, 'next'> : never) : never) & {
  next?: Partial<RetryState>;
};

/** Every exit of the attempt loop after an attempt: [what happened, outcome, policy, state, decision]. */
const rows: [string, AttemptResult, Partial<DecisionPolicy>, Partial<RetryState>, Expected][] = [
  ['scope ended during the attempt', { kind: 'ended' }, {}, {}, { do: 'end' }],
  ['success body over the bound: never resent', { kind: 'too-large' }, {}, {}, { do: 'too-large' }],
  [
    'network error, class Q: backoff resend',
    { kind: 'network' },
    {},
    {},
    { do: 'resend', reason: 'network', wait: 'backoff', next: { resends: 1, mayHaveExecuted: true } },
  ],
  [
    'timeout, class Q: backoff resend',
    { kind: 'timeout' },
    {},
    { resends: 1 },
    { do: 'resend', reason: 'timeout', wait: 'backoff', next: { resends: 2, mayHaveExecuted: true } },
  ],
  [
    'network error, class N: not resent',
    { kind: 'network' },
    classN,
    {},
    { do: 'fail', next: { mayHaveExecuted: true } },
  ],
  [
    'timeout, retries spent',
    { kind: 'timeout' },
    {},
    spent,
    { do: 'fail', next: { resends: 2, mayHaveExecuted: true } },
  ],
  ['network error, one-shot body', { kind: 'network' }, oneShot, {}, { do: 'not-replayable' }],
  [
    'network error, class N, one-shot body: the failure itself',
    { kind: 'network' },
    { ...classN, ...oneShot },
    {},
    { do: 'fail' },
  ],
  ['2xx', answer(200), {}, {}, { do: 'return' }],
  ['2xx after resends', answer(299), {}, spent, { do: 'return' }],
  ['credentials revoked', answer(403, { code: 'app_deleted', revoked: true }), {}, {}, { do: 'revoke' }],
  [
    '401 unauthenticated: re-exchange and resend once',
    answer(401, { code: 'unauthenticated' }),
    {},
    {},
    {
      do: 'resend',
      reason: 'reauthenticated',
      wait: 'none',
      invalidateToken: true,
      next: { reauthenticated: true, resends: 0 },
    },
  ],
  [
    '401 unauthenticated, one-shot body',
    answer(401, { code: 'unauthenticated' }),
    oneShot,
    {},
    { do: 'not-replayable' },
  ],
  ['401 again after the re-exchange', answer(401, { code: 'unauthenticated' }), {}, reauthenticated, { do: 'fail' }],
  [
    '401 without a token (the exchange itself)',
    answer(401, { code: 'unauthenticated', hadToken: false }),
    {},
    {},
    { do: 'fail' },
  ],
  ['401 of another code', answer(401, { code: 'invalid_token' }), {}, {}, { do: 'fail' }],
  [
    '403 permission_denied: ask about the token',
    answer(403, { code: 'permission_denied' }),
    {},
    {},
    { do: 'check-foreign-token' },
  ],
  [
    '403, a foreign token dropped: resend once',
    answer(403, { code: 'permission_denied', foreignTokenDropped: true }),
    {},
    {},
    { do: 'resend', reason: 'reauthenticated', wait: 'none', invalidateToken: false, next: { reauthenticated: true } },
  ],
  [
    '403, a foreign token dropped, one-shot body',
    answer(403, { code: 'permission_denied', foreignTokenDropped: true }),
    oneShot,
    {},
    { do: 'not-replayable' },
  ],
  [
    '403, our own token',
    answer(403, { code: 'permission_denied', foreignTokenDropped: false }),
    {},
    {},
    { do: 'fail' },
  ],
  ['403 after the re-exchange', answer(403, { code: 'permission_denied' }), {}, reauthenticated, { do: 'fail' }],
  [
    '429 with Retry-After: pause and resend',
    answer(429, { retryAfterMs: 2_000 }),
    {},
    {},
    { do: 'resend', reason: 'rate-limited', wait: 'gate', pause: true, next: { resends: 1 } },
  ],
  [
    '429 without Retry-After, class N: still resent',
    answer(429),
    classN,
    {},
    { do: 'resend', reason: 'rate-limited', wait: 'gate', pause: true, next: { resends: 1 } },
  ],
  [
    '429, Retry-After exactly maxRetryAfterMs',
    answer(429, { retryAfterMs: 60_000 }),
    {},
    {},
    { do: 'resend', reason: 'rate-limited', wait: 'gate', pause: true },
  ],
  [
    '429, Retry-After over maxRetryAfterMs',
    answer(429, { retryAfterMs: 60_001 }),
    {},
    {},
    { do: 'fail', hint: 'retry-after-too-long', pause: true },
  ],
  [
    '429, Retry-After too long also when retries are spent',
    answer(429, { retryAfterMs: 60_001 }),
    {},
    spent,
    { do: 'fail', hint: 'retry-after-too-long', pause: true },
  ],
  ['429, retries spent', answer(429), {}, spent, { do: 'fail', hint: 'rate-limit-exhausted', pause: true }],
  ['429, one-shot body', answer(429), oneShot, {}, { do: 'not-replayable', pause: true }],
  [
    '429 after the re-exchange',
    answer(429),
    {},
    reauthenticated,
    { do: 'resend', reason: 'rate-limited', wait: 'gate', pause: true },
  ],
  [
    '5xx, class Q: backoff resend',
    answer(503),
    {},
    {},
    { do: 'resend', reason: 'status', wait: 'backoff', next: { resends: 1, mayHaveExecuted: true } },
  ],
  ['5xx, one-shot body', answer(500), oneShot, {}, { do: 'not-replayable' }],
  ['5xx, class N', answer(502), classN, {}, { do: 'fail', hint: 'after-failure', next: { mayHaveExecuted: true } }],
  ['5xx, retries spent', answer(599), {}, spent, { do: 'fail', hint: 'after-failure' }],
  ['4xx other than 401/403/429', answer(400, { code: 'invalid_argument' }), {}, {}, { do: 'fail' }],
  ['404', answer(404, { code: 'not_found' }), {}, {}, { do: 'fail' }],
  ['3xx (redirects are not followed)', answer(302), {}, {}, { do: 'fail' }],
];

describe('decide: what follows one attempt', () => {
  it.each(rows)('%s', (_what, outcome, p, s, expected) => {
    const state = { ...fresh, ...s };
    const d = decide(outcome, { ...policy, ...p }, state);
    const { next: expectedNext, ...rest } = expected;
    const { next, ...got } = d;
    expect(got).toEqual(rest);
    if (expectedNext) expect(next).toMatchObject(expectedNext);
    // pure: the state passed in is never changed
    expect(state).toEqual({ ...fresh, ...s });
  });

  it('never resends more than maxRetries times, whatever keeps failing', () => {
    for (const outcome of [{ kind: 'network' }, { kind: 'timeout' }, answer(503), answer(429)] as AttemptResult[]) {
      let state = fresh;
      let resends = 0;
      for (;;) {
        const d = decide(outcome, policy, state);
        if (d.do !== 'resend') break;
        resends += 1;
        state = d.next;
      }
      expect(resends).toBe(policy.maxRetries);
    }
  });

  it('re-exchanges once only, whether after a 401 or a foreign token', () => {
    const first = decide(answer(401, { code: 'unauthenticated' }), policy, fresh);
    expect(first.do).toBe('resend');
    expect(decide(answer(403, { code: 'permission_denied', foreignTokenDropped: true }), policy, first.next).do).toBe(
      'fail',
    );
  });
});
