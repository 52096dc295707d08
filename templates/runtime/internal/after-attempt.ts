/**
 * After an attempt that brought no 2xx (internal, unstable): the error it makes, what
 * `decide` (retry-decision.ts) says follows, and carrying that out: the 429 pause, the 401
 * re-exchange, the backoff before a resend, or the error thrown with a hint that names cause and
 * fix. Part of the attempt loop (`send-with-retries.ts`); a call that succeeds first time never
 * runs it.
 */
import type { OperationSpec } from '../operation.js';
import {
  ConnectionError,
  CredentialsRevokedError,
  ResponseTooLargeError,
  TimeoutError,
  type ApiError,
} from '../core/errors.js';
import { errorFromResponse, type ErrorContext } from '../core/error-from-response.js';
import type { Answer, Loop, SentAttempt } from './attempt-types.js';
import type { AttemptOutcome } from './http-attempt.js';
import { wireOf } from './request-builder.js';
import { backoffDelayMs, parseRetryAfterMs, type RetryPolicy } from './retry.js';
import { decide, type AttemptResult, type Decision, type FailHint, type RetryState } from './retry-decision.js';

/** What every error of one answer carries: operation, attempts, whether it was resent, the retry class. */
export function errorContext(
  { rt, call }: Loop,
  attempt: SentAttempt,
  state: RetryState,
  retryAfterMs?: number | undefined,
): ErrorContext {
  return {
    operationId: call.op.id,
    attempts: attempt.number,
    resent: state.mayHaveExecuted,
    retryClass: call.policy.retryClass,
    redactor: rt.redactor,
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  };
}

/** The error of a 2xx whose body is not JSON although the operation answers JSON. */
export function notJsonError(loop: Loop, attempt: SentAttempt, outcome: Answer, state: RetryState): ApiError {
  const hint = 'The service answered success with a body that is not JSON (a proxy may have answered): check baseUrl.';
  return errorFromResponse(outcome.status, outcome.bodyText, outcome.headers, {
    ...errorContext(loop, attempt, state),
    hint,
  });
}

/** Sleeps a backoff before the next attempt, or ends the call with the scope's error when it cannot. */
async function waitOrEnd({ rt, call }: Loop, ms: number, cause: unknown): Promise<void> {
  const { scope } = call;
  if (scope.wouldPassDeadline(ms)) throw scope.endError(cause);
  try {
    await rt.sleep(ms, scope.signal);
  } catch {
    throw scope.endError(cause);
  }
  if (scope.isDone()) throw scope.endError(cause);
}

/** No answer: the scope ended, the body was too large, or the connection failed or timed out. */
export async function afterNoAnswer(
  loop: Loop,
  attempt: SentAttempt,
  outcome: Exclude<AttemptOutcome, Answer>,
  state: RetryState,
): Promise<RetryState> {
  const { rt, call, where } = loop;
  const { op, scope } = call;
  if (outcome.kind === 'ended') throw scope.endError(outcome.cause);
  // never resent: the service answered, and asking again would bring the same answer
  if (outcome.kind === 'too-large')
    throw new ResponseTooLargeError({
      operationId: op.id,
      status: outcome.status,
      limitBytes: outcome.limitBytes,
      attempts: attempt.number,
    });
  const what =
    outcome.kind === 'timeout'
      ? `no answer within ${attempt.timeoutMs} ms`
      : `connection failed (${outcome.errorCode ?? 'network error'})`;
  rt.logger.debug(`${op.id} ${where()} attempt ${attempt.number}: ${what} after ${attempt.tookMs} ms`);
  const d = decide(outcome, loop.policy, state);
  const text = `${op.id} (${where()}): ${what}. ${afterFailure(op, call.policy, attempt.number, d.do !== 'fail')}`;
  const failure =
    outcome.kind === 'timeout'
      ? new TimeoutError(text, {
          operationId: op.id,
          kind: 'attempt',
          timeoutMs: attempt.timeoutMs,
          attempts: attempt.number,
        })
      : new ConnectionError(text, {
          operationId: op.id,
          attempts: attempt.number,
          ...(outcome.errorCode ? { errorCode: outcome.errorCode } : {}),
          cause: outcome.cause,
        });
  if (d.do === 'not-replayable') throw wireOf(op).notReplayable(failure);
  if (d.do !== 'resend') throw failure;
  const wait = backoffDelayMs(d.next.resends, rt.random);
  rt.logger.debug(
    `${op.id} resend ${d.next.resends}/${call.maxRetries} (class ${call.policy.retryClass}) in ${wait} ms`,
  );
  call.observer?.retry(d.reason, wait, undefined);
  await waitOrEnd(loop, wait, failure);
  return d.next;
}

/** An answer that is not a 2xx: what its error decides (re-exchange, 429 pause, resend, throw). */
export async function afterAnswer(
  loop: Loop,
  attempt: SentAttempt,
  outcome: Answer,
  token: string | undefined,
  state: RetryState,
): Promise<RetryState> {
  const { rt, call } = loop;
  const { op } = call;
  const { status, headers, bodyText } = outcome;
  const retryAfterMs = status === 429 ? parseRetryAfterMs(headers.get('retry-after'), rt.now()) : undefined;
  const ctx = errorContext(loop, attempt, state, retryAfterMs);
  const error: ApiError = errorFromResponse(status, bodyText, headers, ctx);
  const result: AttemptResult = {
    kind: 'response',
    status,
    code: error.code,
    revoked: error instanceof CredentialsRevokedError,
    retryAfterMs,
    hadToken: token !== undefined,
  };
  let d = decide(result, loop.policy, state);
  if (d.do === 'check-foreign-token') {
    // The shared store may have handed us another application's token: then exchange our own, resend once.
    d = decide(
      { ...result, foreignTokenDropped: Boolean(await rt.dropForeignToken?.(token as string)) },
      loop.policy,
      state,
    );
  }
  const wait = d.pause ? pauseAfter429(loop, retryAfterMs, state) : 0;
  switch (d.do) {
    case 'revoke':
      await rt.revoke(error as CredentialsRevokedError);
      throw error;
    case 'not-replayable':
      throw wireOf(op).notReplayable(error);
    case 'fail':
      if (d.hint === undefined) throw error;
      throw errorFromResponse(status, bodyText, headers, {
        ...ctx,
        hint: failHint(loop, d.hint, attempt.number, retryAfterMs),
      });
    case 'resend':
      break;
    default:
      throw error;
  }
  await beforeResend(loop, d, { status, error, token, wait });
  return d.next;
}

/**
 * Closes the gate a 429 closes for its wait (Retry-After, else a backoff of at least half a
 * second); returns the wait. The token exchange is limited per source IP (REST seed section 8):
 * its 429 pauses this host's exchanges only; calls holding a valid App Token go on. (Were it the
 * application's quota instead, the next REST call's own 429 closes the application's gate.)
 */
function pauseAfter429({ rt, call }: Loop, retryAfterMs: number | undefined, state: RetryState): number {
  const wait = retryAfterMs ?? Math.max(500, backoffDelayMs(state.resends + 1, rt.random));
  if (call.op.isTokenExchange) rt.quota?.exchangeRateLimited(wait);
  else rt.quota?.rateLimited(wait);
  (call.op.isTokenExchange ? rt.exchangeGate : rt.gate).pauseUntil(rt.now() + wait);
  return wait;
}

/**
 * Before resending after an answer: the 401 re-exchange, the check of the 429 wait against the
 * deadline, or a backoff.
 */
async function beforeResend(
  loop: Loop,
  d: Extract<Decision, { do: 'resend' }>,
  answer: { status: number; error: ApiError; token: string | undefined; wait: number },
): Promise<void> {
  const { rt, call } = loop;
  const { op, scope } = call;
  const { status, error, wait } = answer;
  const { resends } = d.next;
  if (d.wait === 'none') {
    if (d.invalidateToken) {
      rt.logger.info(
        `${op.id}: the App Token was refused (401 unauthenticated); exchanging a new one and resending once`,
      );
      await rt.invalidateToken(answer.token as string);
    }
    call.observer?.retry(d.reason, 0, status);
  } else if (d.wait === 'gate') {
    rt.logger.debug(
      `${op.id} rate limited; ${op.isTokenExchange ? "this host's token exchanges wait" : 'every call of this client waits'} ${wait} ms (resend ${resends}/${call.maxRetries})`,
    );
    if (scope.wouldPassDeadline(wait)) throw scope.endError(error);
    call.observer?.retry(d.reason, wait, status);
  } else {
    const backoff = backoffDelayMs(resends, rt.random);
    rt.logger.debug(
      `${op.id} resend ${resends}/${call.maxRetries} (class ${call.policy.retryClass}) in ${backoff} ms after ${status}`,
    );
    call.observer?.retry(d.reason, backoff, status);
    await waitOrEnd(loop, backoff, error);
  }
}

function failHint({ call, policy }: Loop, hint: FailHint, attempts: number, retryAfterMs: number | undefined): string {
  if (hint === 'after-failure') return afterFailure(call.op, call.policy, attempts, false);
  if (hint === 'rate-limit-exhausted')
    return `Rate limited; gave up after ${attempts} attempt(s) (maxRetries ${call.maxRetries}). Retry after retryAfterMs, or lower the call rate.`;
  return `Retry-After asks for ${retryAfterMs} ms, more than maxRetryAfterMs (${policy.maxRetryAfterMs} ms); not waiting. Retry after retryAfterMs, or raise maxRetryAfterMs (a client option, or a request option of this call).`;
}

function afterFailure(op: OperationSpec, policy: RetryPolicy, attempts: number, willResend: boolean): string {
  if (willResend) return `Resending (class ${policy.retryClass}).`;
  if (!policy.resendOnFailure) {
    return `Not resent: ${op.id} is class N here (the request may already have been executed); check its effect before repeating it.`;
  }
  return `Gave up after ${attempts} attempt(s) (class ${policy.retryClass}); raise maxRetries or timeoutMs, or check the service's health.`;
}
