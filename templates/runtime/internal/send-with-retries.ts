/**
 * The attempt loop of one call (internal, unstable): quota gate → token → attempt → decide.
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
import { errorFromResponse } from '../core/error-from-response.js';
import type { CallScope, Sleep } from './call-scope.js';
import type { AttemptRequest, Transport } from './http-attempt.js';
import type { SafeLogger } from './logger.js';
import type { QuotaGate } from './quota-gate.js';
import type { CallPriority, QuotaControl } from './quota-control.js';
import { maskUrlQuery, redactHeaders, type SecretRedactor } from './redact.js';
import { wireOf, type BuiltRequest } from './request-builder.js';
import { backoffDelayMs, isRetryableStatus, parseRetryAfterMs, type RetryPolicy } from './retry.js';
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
  const { op, request, policy, scope } = call;
  const maxRetryAfterMs = call.maxRetryAfterMs ?? rt.maxRetryAfterMs;
  const observer = call.observer;
  const maxBytes = call.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const streamsStatus = op.response === 'binary' || op.responseByStatus ? (status: number) => (op.responseByStatus?.[status] ?? op.response) === 'binary' : undefined;
  // masked on first use only: a call that logs nothing and fails nothing never needs it
  let whereText: string | undefined;
  const where = (): string => (whereText ??= `${request.method} ${maskUrlQuery(request.pathAndQuery)}`);
  const debugs = rt.logger.debugEnabled?.() !== false;
  let resends = 0;
  let reauthenticated = false;
  /** True once an attempt may have been executed without us seeing its answer. */
  let mayHaveExecuted = false;

  const waitOrEnd = async (ms: number, cause: unknown): Promise<void> => {
    if (scope.wouldPassDeadline(ms)) throw scope.endError(cause);
    try {
      await rt.sleep(ms, scope.signal);
    } catch {
      throw scope.endError(cause);
    }
    if (scope.isDone()) throw scope.endError(cause);
  };

  for (;;) {
    const revoked = rt.revokedError(op.id);
    if (revoked) throw revoked;
    if (scope.isDone()) throw scope.endError();
    rt.quota?.readGate();
    const gated = rt.gate.remainingMs();
    if (gated > maxRetryAfterMs) {
      rt.quota?.count('throttled');
      throw rt.gate.notSentError(op.id, scope.attempts, maxRetryAfterMs);
    }
    if (gated > 0) {
      rt.logger.debug(`${op.id} waits ${gated} ms: the client is paused by an earlier 429`);
      try {
        const waited = await rt.gate.wait(scope.signal);
        rt.quota?.countWait(waited);
        observer?.rateLimitWait(waited, 'client');
      } catch {
        throw scope.endError();
      }
    }
    if (op.isTokenExchange) {
      await rt.quota?.readExchangeGate();
      const paused = rt.exchangeGate.remainingMs();
      if (paused > maxRetryAfterMs) {
        rt.quota?.count('throttled');
        throw rt.exchangeGate.notSentError(op.id, scope.attempts, maxRetryAfterMs);
      }
      if (paused > 0) {
        rt.logger.debug(`${op.id} waits ${paused} ms: this host's token exchanges are paused by an earlier 429 to one`);
        try {
          const waited = await rt.exchangeGate.wait(scope.signal);
          rt.quota?.countWait(waited);
          observer?.rateLimitWait(waited, 'exchange');
        } catch {
          throw scope.endError();
        }
        continue;
      }
      await rt.quota?.paceExchange(op.id, scope);
    }
    let token: string | undefined;
    if (op.auth) {
      try {
        token = await rt.getToken(scope.signal);
      } catch (err) {
        if (scope.signal.aborted) throw scope.endError(err);
        throw err;
      }
      rt.redactor.add(token);
    }
    // The slot last, right before sending: slots held while a token is exchanged went out in one clump.
    if (rt.quota?.limited) {
      await rt.quota.acquire(op.id, call.priority, scope);
      // A 429 closed the gate while this call waited for its slot: wait it out, then take a new one.
      if (rt.gate.remainingMs() > 0) continue;
    }
    // what the operation answers on success (image/png, text/csv…): a strict server refuses a call
    // that accepts only JSON with 406
    const headers: Record<string, string> = { accept: op.accept ?? 'application/json', ...rt.baseHeaders, ...call.headers };
    if (request.headers) Object.assign(headers, request.headers);
    if (request.body !== undefined) headers['content-type'] = request.contentType ?? 'application/json';
    if (token !== undefined) headers.authorization = `Bearer ${token}`;

    scope.attempts += 1;
    rt.quota?.count('sent');
    const attempt = scope.attempts;
    const started = rt.now();
    const timeoutMs = Math.max(1, Math.min(call.timeoutMs, scope.remainingMs() ?? Infinity));
    const attemptRequest: AttemptRequest = { method: request.method, url: request.url, headers, body: request.body, timeoutMs, signal: scope.signal, maxBytes };
    if (streamsStatus) attemptRequest.streamsStatus = streamsStatus;
    if (request.oneShot) attemptRequest.stream = true;
    observer?.attemptStart(attempt, request.method, request.url, policy.retryClass);
    const outcome = await rt.send(attemptRequest);
    const tookMs = rt.now() - started;
    if (observer) observer.attemptEnd(outcome.kind, outcome.kind === 'response' || outcome.kind === 'too-large' ? outcome.status : undefined, outcome.kind === 'response' ? (outcome.headers.get('x-request-id') ?? undefined) : undefined, tookMs);

    if (outcome.kind === 'ended') throw scope.endError(outcome.cause);

    if (outcome.kind === 'network' || outcome.kind === 'timeout') {
      mayHaveExecuted = true;
      const what = outcome.kind === 'timeout' ? `no answer within ${timeoutMs} ms` : `connection failed (${outcome.errorCode ?? 'network error'})`;
      rt.logger.debug(`${op.id} ${where()} attempt ${attempt}: ${what} after ${tookMs} ms`);
      const canResend = policy.resendOnFailure && resends < call.maxRetries;
      const failure = outcome.kind === 'timeout'
        ? new TimeoutError(`${op.id} (${where()}): ${what}. ${afterFailure(op, policy, attempt, canResend)}`, { operationId: op.id, kind: 'attempt', timeoutMs, attempts: attempt })
        : new ConnectionError(`${op.id} (${where()}): ${what}. ${afterFailure(op, policy, attempt, canResend)}`, { operationId: op.id, attempts: attempt, ...(outcome.errorCode ? { errorCode: outcome.errorCode } : {}), cause: outcome.cause });
      if (!canResend) throw failure;
      if (request.oneShot) throw wireOf(op).notReplayable(failure);
      resends += 1;
      const wait = backoffDelayMs(resends, rt.random);
      rt.logger.debug(`${op.id} resend ${resends}/${call.maxRetries} (class ${policy.retryClass}) in ${wait} ms`);
      observer?.retry(outcome.kind, wait, undefined);
      await waitOrEnd(wait, failure);
      continue;
    }

    // never resent: the service answered, and asking again would bring the same answer
    if (outcome.kind === 'too-large') throw new ResponseTooLargeError({ operationId: op.id, status: outcome.status, limitBytes: outcome.limitBytes, attempts: attempt });
    const { status, headers: resHeaders, bodyText } = outcome;
    if (debugs) rt.logger.debug(`${op.id} ${where()} attempt ${attempt} -> ${status} in ${tookMs} ms`);
    const response: ResponseInfo = { status, headers: redactHeaders(resHeaders), requestId: resHeaders.get('x-request-id') ?? undefined };

    if (status >= 200 && status <= 299) {
      const kind = op.responseByStatus?.[status] ?? op.response;
      let data: unknown;
      if (kind === undefined || kind === 'json') {
        const parsed = parseSuccessBody(bodyText, op.int64Response === true);
        if (!parsed.ok) {
          throw errorFromResponse(status, bodyText, resHeaders, {
            operationId: op.id, attempts: attempt, resent: mayHaveExecuted, retryClass: policy.retryClass, redactor: rt.redactor,
            hint: 'The service answered success with a body that is not JSON (a proxy may have answered): check baseUrl.',
          });
        }
        data = parsed.value;
      } else {
        data = wireOf(op).responseData(kind, { operationId: op.id, status, headers: resHeaders, bodyText, stream: outcome.stream, limitBytes: maxBytes, attempts: attempt });
      }
      return { data: op.responseByStatus ? { status, data } : data, response };
    }

    const retryAfterMs = status === 429 ? parseRetryAfterMs(resHeaders.get('retry-after'), rt.now()) : undefined;
    const ctx = { operationId: op.id, attempts: attempt, resent: mayHaveExecuted, retryClass: policy.retryClass, redactor: rt.redactor, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
    const error: ApiError = errorFromResponse(status, bodyText, resHeaders, ctx);

    if (error instanceof CredentialsRevokedError) {
      await rt.revoke(error);
      throw error;
    }
    if (status === 401 && error.code === 'unauthenticated' && token !== undefined && !reauthenticated) {
      reauthenticated = true;
      if (request.oneShot) throw wireOf(op).notReplayable(error);
      rt.logger.info(`${op.id}: the App Token was refused (401 unauthenticated); exchanging a new one and resending once`);
      await rt.invalidateToken(token);
      observer?.retry('reauthenticated', 0, status);
      continue;
    }
    if (status === 403 && error.code === 'permission_denied' && token !== undefined && !reauthenticated && (await rt.dropForeignToken?.(token))) {
      // The shared store handed us another application's token: exchange our own, resend once.
      reauthenticated = true;
      if (request.oneShot) throw wireOf(op).notReplayable(error);
      observer?.retry('reauthenticated', 0, status);
      continue;
    }
    if (status === 429) {
      // No (usable) Retry-After: back off as after a failure, but never less than half a second.
      const wait = retryAfterMs ?? Math.max(500, backoffDelayMs(resends + 1, rt.random));
      // The token exchange is limited per source IP (REST seed section 8): its 429 pauses this
      // host's exchanges only; calls holding a valid App Token go on. (Were it the application's
      // quota instead, the next REST call's own 429 closes the application's gate.)
      const gate = op.isTokenExchange ? rt.exchangeGate : rt.gate;
      if (op.isTokenExchange) rt.quota?.exchangeRateLimited(retryAfterMs ?? wait);
      else rt.quota?.rateLimited(retryAfterMs ?? wait);
      if (retryAfterMs !== undefined && retryAfterMs > maxRetryAfterMs) {
        gate.pauseUntil(rt.now() + retryAfterMs);
        throw errorFromResponse(status, bodyText, resHeaders, { ...ctx, hint: `Retry-After asks for ${retryAfterMs} ms, more than maxRetryAfterMs (${maxRetryAfterMs} ms); not waiting. Retry after retryAfterMs, or raise maxRetryAfterMs (a client option, or a request option of this call).` });
      }
      gate.pauseUntil(rt.now() + wait);
      if (resends >= call.maxRetries) {
        throw errorFromResponse(status, bodyText, resHeaders, { ...ctx, hint: `Rate limited; gave up after ${attempt} attempt(s) (maxRetries ${call.maxRetries}). Retry after retryAfterMs, or lower the call rate.` });
      }
      if (request.oneShot) throw wireOf(op).notReplayable(error);
      resends += 1;
      rt.logger.debug(`${op.id} rate limited; ${op.isTokenExchange ? "this host's token exchanges wait" : 'every call of this client waits'} ${wait} ms (resend ${resends}/${call.maxRetries})`);
      if (scope.wouldPassDeadline(wait)) throw scope.endError(error);
      observer?.retry('rate-limited', wait, status);
      continue;
    }
    if (isRetryableStatus(status)) {
      mayHaveExecuted = true;
      if (policy.resendOnFailure && resends < call.maxRetries) {
        if (request.oneShot) throw wireOf(op).notReplayable(error);
        resends += 1;
        const wait = backoffDelayMs(resends, rt.random);
        rt.logger.debug(`${op.id} resend ${resends}/${call.maxRetries} (class ${policy.retryClass}) in ${wait} ms after ${status}`);
        observer?.retry('status', wait, status);
        await waitOrEnd(wait, error);
        continue;
      }
      throw errorFromResponse(status, bodyText, resHeaders, { ...ctx, hint: afterFailure(op, policy, attempt, false) });
    }
    throw error;
  }
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
