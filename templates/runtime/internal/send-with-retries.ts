/**
 * The attempt loop of one call (internal, unstable): quota gate → token → attempt → decide
 * (`retry-decision.ts`, pure: every rule of what follows an attempt) → carry the decision out.
 * Resends follow the operation's retry class (see `retry.ts`); a 401 unauthenticated gets one
 * re-exchange and one resend; a 429 closes the client-wide quota gate for its Retry-After wait,
 * except a 429 to the token exchange, which pauses only this host's exchanges (their own gate and,
 * with a quota store, the host's exchange pacing shared by its processes).
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
import type { CallScope, Sleep } from './call-scope.js';
import type { AttemptOutcome, AttemptRequest, Transport } from './http-attempt.js';
import type { SafeLogger } from './logger.js';
import type { QuotaGate } from './quota-gate.js';
import type { QuotaControl } from './quota-control.js';
import type { CallPriority } from './rate-limit-options.js';
import { maskUrlQuery, redactHeaders, type SecretRedactor } from './redact.js';
import { wireOf, type BuiltRequest } from './request-builder.js';
import { backoffDelayMs, parseRetryAfterMs, type RetryPolicy } from './retry.js';
import { AGAIN, beforeAttempt } from './before-attempt.js';
import { decide, type AttemptResult, type DecisionPolicy, type FailHint, type RetryState } from './retry-decision.js';
import { jsonParseLossless } from './lossless-json.js';
import type { CallObserver, ObserverFactory } from './observe.js';

/** Status, headers (secret values masked) and request id of the answer. */
export interface ResponseInfo {
  status: number;
  headers: Record<string, string>;
  requestId: string | undefined;
}

export interface WithResponse<T> {
  data: T;
  response: ResponseInfo;
}

/** What the loop needs from the client. */
export interface RuntimeContext {
  /** Sends one attempt (node:http or fetch transport). */
  send: Transport;
  logger: SafeLogger;
  gate: QuotaGate;
  /**
   * The pause of token exchanges after a 429 to one: the service limits exchanges per source IP
   * (REST seed section 8), so such a 429 pauses this host's exchanges, never the calls.
   */
  exchangeGate: QuotaGate;
  /** The fleet side of the quota: shared gate, rate limit, exchange pacing, counters. */
  quota?: QuotaControl | undefined;
  redactor: SecretRedactor;
  now: () => number;
  sleep: Sleep;
  random: () => number;
  maxRetryAfterMs: number;
  /** Headers of every request (lower-case names): User-Agent and the client's defaultHeaders. */
  baseHeaders?: Record<string, string>;
  getToken(signal: AbortSignal): Promise<string>;
  invalidateToken(token: string): Promise<void>;
  /** After 403 permission_denied: drops `token` when it came from the token store (true), else false. */
  dropForeignToken?(token: string): Promise<boolean>;
  /** The revocation error when the credentials were revoked earlier. */
  revokedError(operationId: string): CredentialsRevokedError | undefined;
  /** Called with the first answer that says app_deleted / tenant_closed. */
  revoke(error: CredentialsRevokedError): Promise<void>;
  /** Observers of calls (hooks, diagnostics channels); absent when nothing can listen. */
  observe?: ObserverFactory | undefined;
}

export interface CallSettings {
  op: OperationSpec;
  request: BuiltRequest;
  policy: RetryPolicy;
  headers: Record<string, string>;
  maxRetries: number;
  timeoutMs: number;
  scope: CallScope;
  /** Largest success body read, in bytes (default DEFAULT_MAX_RESPONSE_BYTES). */
  maxResponseBytes?: number;
  /** Who goes first for a rate limit slot (default interactive). */
  priority?: CallPriority | undefined;
  /** Longest Retry-After wait this call honours (default: the client's maxRetryAfterMs). */
  maxRetryAfterMs?: number | undefined;
  /** Reports the call's attempts, retries and waits (absent: nobody listens). */
  observer?: CallObserver | undefined;
}

/** Default bound of a success body (JSON, text or binary), in bytes: 64 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

export async function sendWithRetries(rt: RuntimeContext, call: CallSettings): Promise<WithResponse<unknown>> {
  const maxRetryAfterMs = call.maxRetryAfterMs ?? rt.maxRetryAfterMs;
  // masked on first use only: a call that logs nothing and fails nothing never needs it
  let whereText: string | undefined;
  const where = (): string => (whereText ??= `${call.request.method} ${maskUrlQuery(call.request.pathAndQuery)}`);
  const policy: DecisionPolicy = {
    resendOnFailure: call.policy.resendOnFailure,
    maxRetries: call.maxRetries,
    maxRetryAfterMs,
    oneShot: call.request.oneShot === true,
  };
  const loop: Loop = { rt, call, policy, where, debugs: rt.logger.debugEnabled?.() !== false };
  let state: RetryState = { resends: 0, reauthenticated: false, mayHaveExecuted: false };
  for (;;) {
    const token = await beforeAttempt(rt, call, maxRetryAfterMs);
    if (token === AGAIN) continue;
    const attempt = await sendAttempt(rt, call, token);
    const { outcome } = attempt;
    if (outcome.kind === 'response') {
      const result = await afterAnswer(loop, attempt, outcome, token, state);
      if ('data' in result) return result;
      state = result;
    } else {
      state = await afterNoAnswer(loop, attempt, outcome, state);
    }
  }
}

/** One call's fixed parts, as the steps after an attempt need them. */
interface Loop {
  rt: RuntimeContext;
  call: CallSettings;
  policy: DecisionPolicy;
  where: () => string;
  debugs: boolean;
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
async function afterNoAnswer(
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

/** An answer: the data of a 2xx, or what its error decides (re-exchange, 429 pause, resend, throw). */
async function afterAnswer(
  loop: Loop,
  attempt: SentAttempt,
  outcome: Answer,
  token: string | undefined,
  state: RetryState,
): Promise<WithResponse<unknown> | RetryState> {
  const { rt, call, where } = loop;
  const { op, scope } = call;
  const { status, headers, bodyText } = outcome;
  if (loop.debugs)
    rt.logger.debug(`${op.id} ${where()} attempt ${attempt.number} -> ${status} in ${attempt.tookMs} ms`);
  const retryAfterMs = status === 429 ? parseRetryAfterMs(headers.get('retry-after'), rt.now()) : undefined;
  const ctx = {
    operationId: op.id,
    attempts: attempt.number,
    resent: state.mayHaveExecuted,
    retryClass: call.policy.retryClass,
    redactor: rt.redactor,
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  };
  if (status >= 200 && status <= 299) return successOf(loop, attempt, outcome, ctx);
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
  let wait = 0;
  if (d.pause) {
    // No (usable) Retry-After: back off as after a failure, but never less than half a second.
    wait = retryAfterMs ?? Math.max(500, backoffDelayMs(state.resends + 1, rt.random));
    // The token exchange is limited per source IP (REST seed section 8): its 429 pauses this
    // host's exchanges only; calls holding a valid App Token go on. (Were it the application's
    // quota instead, the next REST call's own 429 closes the application's gate.)
    if (op.isTokenExchange) rt.quota?.exchangeRateLimited(wait);
    else rt.quota?.rateLimited(wait);
    (op.isTokenExchange ? rt.exchangeGate : rt.gate).pauseUntil(rt.now() + wait);
  }
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
  const { resends } = d.next;
  if (d.wait === 'none') {
    if (d.invalidateToken) {
      rt.logger.info(
        `${op.id}: the App Token was refused (401 unauthenticated); exchanging a new one and resending once`,
      );
      await rt.invalidateToken(token as string);
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
  return d.next;
}

function failHint({ call, policy }: Loop, hint: FailHint, attempts: number, retryAfterMs: number | undefined): string {
  if (hint === 'after-failure') return afterFailure(call.op, call.policy, attempts, false);
  if (hint === 'rate-limit-exhausted')
    return `Rate limited; gave up after ${attempts} attempt(s) (maxRetries ${call.maxRetries}). Retry after retryAfterMs, or lower the call rate.`;
  return `Retry-After asks for ${retryAfterMs} ms, more than maxRetryAfterMs (${policy.maxRetryAfterMs} ms); not waiting. Retry after retryAfterMs, or raise maxRetryAfterMs (a client option, or a request option of this call).`;
}

interface SentAttempt {
  number: number;
  timeoutMs: number;
  maxBytes: number;
  tookMs: number;
  outcome: AttemptOutcome;
}

/** Sends one attempt: its headers, its timeout (within the call's deadline), the observer's attempt events. */
async function sendAttempt(rt: RuntimeContext, call: CallSettings, token: string | undefined): Promise<SentAttempt> {
  const { op, request, scope, observer } = call;
  // what the operation answers on success (image/png, text/csv…): a strict server refuses a call
  // that accepts only JSON with 406
  const headers: Record<string, string> = {
    accept: op.accept ?? 'application/json',
    ...rt.baseHeaders,
    ...call.headers,
  };
  if (request.headers) Object.assign(headers, request.headers);
  if (request.body !== undefined) headers['content-type'] = request.contentType ?? 'application/json';
  if (token !== undefined) headers.authorization = `Bearer ${token}`;

  scope.attempts += 1;
  rt.quota?.count('sent');
  const number = scope.attempts;
  const started = rt.now();
  const timeoutMs = Math.max(1, Math.min(call.timeoutMs, scope.remainingMs() ?? Infinity));
  const maxBytes = call.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const attemptRequest: AttemptRequest = {
    method: request.method,
    url: request.url,
    headers,
    body: request.body,
    timeoutMs,
    signal: scope.signal,
    maxBytes,
  };
  if (op.response === 'binary' || op.responseByStatus)
    attemptRequest.streamsStatus = (status: number) => (op.responseByStatus?.[status] ?? op.response) === 'binary';
  if (request.oneShot) attemptRequest.stream = true;
  observer?.attemptStart(number, request.method, request.url, call.policy.retryClass);
  const outcome = await rt.send(attemptRequest);
  const tookMs = rt.now() - started;
  if (observer)
    observer.attemptEnd(
      outcome.kind,
      outcome.kind === 'response' || outcome.kind === 'too-large' ? outcome.status : undefined,
      outcome.kind === 'response' ? (outcome.headers.get('x-request-id') ?? undefined) : undefined,
      tookMs,
    );
  return { number, timeoutMs, maxBytes, tookMs, outcome };
}

type Answer = Extract<AttemptOutcome, { kind: 'response' }>;

/** A 2xx: its body as the operation answers it (JSON, lossless int64 JSON, text, binary). */
function successOf({ call }: Loop, attempt: SentAttempt, outcome: Answer, ctx: ErrorContext): WithResponse<unknown> {
  const { op } = call;
  const { status, headers, bodyText } = outcome;
  const response: ResponseInfo = {
    status,
    headers: redactHeaders(headers),
    requestId: headers.get('x-request-id') ?? undefined,
  };
  const kind = op.responseByStatus?.[status] ?? op.response;
  let data: unknown;
  if (kind === undefined || kind === 'json') {
    const parsed = parseSuccessBody(bodyText, op.int64Response === true);
    if (!parsed.ok) {
      const hint =
        'The service answered success with a body that is not JSON (a proxy may have answered): check baseUrl.';
      throw errorFromResponse(status, bodyText, headers, { ...ctx, hint });
    }
    data = parsed.value;
  } else {
    data = wireOf(op).responseData(kind, {
      operationId: op.id,
      status,
      headers,
      bodyText,
      stream: outcome.stream,
      limitBytes: attempt.maxBytes,
      attempts: attempt.number,
    });
  }
  return { data: op.responseByStatus ? { status, data } : data, response };
}

function afterFailure(op: OperationSpec, policy: RetryPolicy, attempts: number, willResend: boolean): string {
  if (willResend) return `Resending (class ${policy.retryClass}).`;
  if (!policy.resendOnFailure) {
    return `Not resent: ${op.id} is class N here (the request may already have been executed); check its effect before repeating it.`;
  }
  return `Gave up after ${attempts} attempt(s) (class ${policy.retryClass}); raise maxRetries or timeoutMs, or check the service's health.`;
}

function parseSuccessBody(text: string, int64: boolean): { ok: true; value: unknown } | { ok: false } {
  // a JSON body starts with `{` or `[` nearly always: then it is not blank, no trim() copy needed
  const first = text.charCodeAt(0);
  if (first !== 0x7b && first !== 0x5b && text.trim() === '') return { ok: true, value: undefined };
  try {
    // where the spec has int64 fields, values beyond 2^53 stay exact (bigint) instead of rounded
    return { ok: true, value: int64 ? jsonParseLossless(text) : JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}
