/**
 * What follows one attempt (internal, unstable): a pure function of the attempt's outcome, the
 * call's retry policy and what earlier attempts used up. `send-with-retries.ts` carries the
 * decision out (sleeps, gates, logs, errors); every rule of the loop lives here, tested as a table.
 */
import type { RetryReason } from '../core/hooks.js';
import { isRetryableStatus } from './retry.js';

/** One attempt's outcome, reduced to what the decision depends on. */
export type AttemptResult =
  | { kind: 'ended' | 'too-large' | 'network' | 'timeout' }
  | {
      kind: 'response';
      status: number;
      /** The error code of a non-2xx answer. */
      code?: string | undefined;
      /** The answer says app_deleted / tenant_closed. */
      revoked?: boolean;
      /** A 429's usable Retry-After, in ms. */
      retryAfterMs?: number | undefined;
      /** The attempt carried an App Token. */
      hadToken: boolean;
      /** After a `check-foreign-token` decision: the token came from the store and was dropped. */
      foreignTokenDropped?: boolean;
    };

export interface DecisionPolicy {
  /** Resend after a network error, a per-attempt timeout or a 5xx (classes Q, I, U, D). */
  resendOnFailure: boolean;
  maxRetries: number;
  maxRetryAfterMs: number;
  /** The body is a stream sent once: whatever would be resent fails as not replayable instead. */
  oneShot: boolean;
}

/** What earlier attempts of the call used up. */
export interface RetryState {
  resends: number;
  /** The one re-exchange after 401 / a foreign token is spent. */
  reauthenticated: boolean;
  /** An attempt may have been executed without us seeing its answer. */
  mayHaveExecuted: boolean;
}

/** Why a failing call is rethrown with its own hint. */
export type FailHint = 'after-failure' | 'retry-after-too-long' | 'rate-limit-exhausted';

export type Decision = (
  | { do: 'end' } // the scope ended: its end error
  | { do: 'too-large' } // a success body over the bound: never resent
  | { do: 'return' } // a 2xx: the data
  | { do: 'revoke' } // credentials revoked: remember it, then throw
  | { do: 'check-foreign-token' } // ask whether the token was another app's, then decide again
  | { do: 'fail'; hint?: FailHint } // throw the attempt's error (rebuilt with `hint`)
  | { do: 'not-replayable' } // would be resent, but the body was a one-shot stream
  | { do: 'resend'; reason: RetryReason; wait: 'backoff' | 'gate' | 'none'; invalidateToken?: boolean }
) & {
  next: RetryState;
  /** A 429: pause the gate (the client's, or the host's token exchanges) for Retry-After or a backoff. */
  pause?: true;
};

export function decide(outcome: AttemptResult, policy: DecisionPolicy, state: RetryState): Decision {
  const next = { ...state };
  const resendOr = (resend: Decision): Decision => (policy.oneShot ? { do: 'not-replayable', next } : resend);
  switch (outcome.kind) {
    case 'ended':
      return { do: 'end', next };
    case 'too-large':
      return { do: 'too-large', next };
    case 'network':
    case 'timeout':
      next.mayHaveExecuted = true;
      if (!policy.resendOnFailure || state.resends >= policy.maxRetries) return { do: 'fail', next };
      next.resends += 1;
      return resendOr({ do: 'resend', reason: outcome.kind, wait: 'backoff', next });
  }
  const { status } = outcome;
  if (status >= 200 && status <= 299) return { do: 'return', next };
  if (outcome.revoked) return { do: 'revoke', next };
  if (outcome.hadToken && !state.reauthenticated) {
    const reauth = (invalidateToken: boolean): Decision => {
      next.reauthenticated = true;
      return resendOr({ do: 'resend', reason: 'reauthenticated', wait: 'none', invalidateToken, next });
    };
    if (status === 401 && outcome.code === 'unauthenticated') return reauth(true);
    if (status === 403 && outcome.code === 'permission_denied') {
      if (outcome.foreignTokenDropped === undefined) return { do: 'check-foreign-token', next };
      if (outcome.foreignTokenDropped) return reauth(false);
    }
  }
  if (status === 429) {
    if (outcome.retryAfterMs !== undefined && outcome.retryAfterMs > policy.maxRetryAfterMs) {
      return { do: 'fail', hint: 'retry-after-too-long', pause: true, next };
    }
    if (state.resends >= policy.maxRetries) return { do: 'fail', hint: 'rate-limit-exhausted', pause: true, next };
    if (policy.oneShot) return { do: 'not-replayable', pause: true, next };
    next.resends += 1;
    return { do: 'resend', reason: 'rate-limited', wait: 'gate', pause: true, next };
  }
  if (isRetryableStatus(status)) {
    next.mayHaveExecuted = true;
    if (!policy.resendOnFailure || state.resends >= policy.maxRetries)
      return { do: 'fail', hint: 'after-failure', next };
    next.resends += 1;
    return resendOr({ do: 'resend', reason: 'status', wait: 'backoff', next });
  }
  return { do: 'fail', next };
}
