/**
 * The attempt loop of one call (internal, unstable): quota gate → token → attempt → decide
 * (`retry-decision.ts`, pure: every rule of what follows an attempt) → carry the decision out.
 * Resends follow the operation's retry class (see `retry.ts`); a 401 unauthenticated gets one
 * re-exchange and one resend; a 429 closes the client-wide quota gate for its Retry-After wait,
 * except a 429 to the token exchange, which pauses only this host's exchanges (their own gate and,
 * with a quota store, the host's exchange pacing shared by its processes).
 *
 * The path of a call that succeeds first time is kept short: when nothing can make it wait (no
 * pause, no fleet quota, a cached token) the steps before the attempt run without a promise
 * (`readyToken`), and a 2xx is read here. Everything after another answer (`after-attempt.ts`: the
 * error classes per code, their hints, the retry decision, Retry-After) is loaded by a dynamic
 * import on the first attempt that needs it, so an app whose calls succeed never loads it, and a
 * bundler puts it in a chunk of its own.
 */
import {
  DEFAULT_MAX_RESPONSE_BYTES,
  type Answer,
  type CallSettings,
  type Loop,
  type ResponseInfo,
  type RuntimeContext,
  type SentAttempt,
  type WithResponse,
} from './attempt-types.js';
import { AGAIN, beforeAttempt } from './before-attempt.js';
import type { AttemptOutcome, AttemptRequest } from './http-attempt.js';
import { jsonParseLossless } from './lossless-json.js';
import { maskUrlQuery, redactHeaders } from './redact.js';
import { wireOf } from './request-builder.js';
import type { RetryState } from './retry-decision.js';

export {
  DEFAULT_MAX_RESPONSE_BYTES,
  type CallSettings,
  type ResponseInfo,
  type RuntimeContext,
  type WithResponse,
} from './attempt-types.js';

type AfterAttempt = typeof import('./after-attempt.js');
let afterAttempt: AfterAttempt | undefined;

/** The steps after an attempt that brought no 2xx: loaded once, on first need. */
function afterAttemptSteps(): AfterAttempt | Promise<AfterAttempt> {
  return afterAttempt ?? import('./after-attempt.js').then((m) => (afterAttempt = m));
}

/** `readyToken`'s answer when something before the attempt may wait or throw: take `beforeAttempt`. */
const NOT_READY = Symbol('not-ready');

export async function sendWithRetries(rt: RuntimeContext, call: CallSettings): Promise<WithResponse<unknown>> {
  const maxRetryAfterMs = call.maxRetryAfterMs ?? rt.maxRetryAfterMs;
  const debugs = rt.logger.debugEnabled?.() !== false;
  // The loop's record (what the steps after a failed attempt read) and the retry state are made
  // on first need: a call whose first attempt succeeds never makes them.
  let loop: Loop | undefined;
  let state: RetryState | undefined;
  for (;;) {
    let token = readyToken(rt, call);
    if (token === NOT_READY) {
      const passed = await beforeAttempt(rt, call, maxRetryAfterMs);
      if (passed === AGAIN) continue;
      token = passed;
    }
    const attempt = startAttempt(rt, call, token);
    settleAttempt(rt, call, attempt, await rt.send(attempt.request));
    const { outcome } = attempt;
    if (outcome.kind === 'response') {
      if (debugs) {
        loop ??= loopOf(rt, call, maxRetryAfterMs, debugs);
        rt.logger.debug(
          `${call.op.id} ${loop.where()} attempt ${attempt.number} -> ${outcome.status} in ${attempt.tookMs} ms`,
        );
      }
      if (outcome.status >= 200 && outcome.status <= 299) {
        const success = successOf(call, attempt, outcome);
        if (success !== NOT_JSON) return success;
        loop ??= loopOf(rt, call, maxRetryAfterMs, debugs);
        throw (await afterAttemptSteps()).notJsonError(loop, attempt, outcome, (state ??= FIRST_STATE()));
      }
      loop ??= loopOf(rt, call, maxRetryAfterMs, debugs);
      state = await (await afterAttemptSteps()).afterAnswer(loop, attempt, outcome, token, (state ??= FIRST_STATE()));
    } else {
      loop ??= loopOf(rt, call, maxRetryAfterMs, debugs);
      state = await (await afterAttemptSteps()).afterNoAnswer(loop, attempt, outcome, (state ??= FIRST_STATE()));
    }
  }
}

/** The retry state before a call's first failure. */
const FIRST_STATE = (): RetryState => ({ resends: 0, reauthenticated: false, mayHaveExecuted: false });

/** What the steps after an attempt read of the call: its retry policy, its masked `METHOD path`. */
function loopOf(rt: RuntimeContext, call: CallSettings, maxRetryAfterMs: number, debugs: boolean): Loop {
  // masked on first use only: a call that logs nothing and fails nothing never needs it
  let whereText: string | undefined;
  return {
    rt,
    call,
    policy: {
      resendOnFailure: call.policy.resendOnFailure,
      maxRetries: call.maxRetries,
      maxRetryAfterMs,
      oneShot: call.request.oneShot === true,
    },
    where: () => (whereText ??= `${call.request.method} ${maskUrlQuery(call.request.pathAndQuery)}`),
    debugs,
  };
}

/**
 * The App Token (or undefined for an operation without auth) when `beforeAttempt` would wait for
 * nothing and throw nothing: not revoked, scope open, no rate limit (send slots), no 429 pause,
 * not the token exchange, a cached token with no refresh due. Else NOT_READY. A quota without a
 * rate limit (every `ImClient` has one, for its counters) waits for nothing: its only step before
 * an attempt is the background read of the fleet gate, done here as `beforeAttempt` does it.
 */
function readyToken(rt: RuntimeContext, call: CallSettings): string | undefined | typeof NOT_READY {
  const { op, scope } = call;
  const quota = rt.quota;
  if (quota?.limited || op.isTokenExchange || scope.isDone() || rt.gate.remainingMs() > 0) return NOT_READY;
  if (rt.revokedError(op.id) !== undefined) return NOT_READY;
  let token: string | undefined;
  if (op.auth) {
    token = rt.readyToken?.();
    if (token === undefined) return NOT_READY;
    rt.redactor.add(token);
  }
  quota?.readGate();
  return token;
}

/** The attempt's request (its headers, its timeout within the call's deadline); counts it and tells the observer. */
function startAttempt(rt: RuntimeContext, call: CallSettings, token: string | undefined): SentAttempt {
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
  return { number, timeoutMs, maxBytes, started, tookMs: 0, request: attemptRequest, outcome: NOT_SETTLED };
}

const NOT_SETTLED: AttemptOutcome = { kind: 'timeout' };

/** Records what came of the attempt and how long it took; tells the observer. */
function settleAttempt(rt: RuntimeContext, call: CallSettings, attempt: SentAttempt, outcome: AttemptOutcome): void {
  attempt.outcome = outcome;
  attempt.tookMs = rt.now() - attempt.started;
  if (call.observer)
    call.observer.attemptEnd(
      outcome.kind,
      outcome.kind === 'response' || outcome.kind === 'too-large' ? outcome.status : undefined,
      outcome.kind === 'response' ? (outcome.headers.get('x-request-id') ?? undefined) : undefined,
      attempt.tookMs,
    );
}

/** `successOf`'s answer when a JSON operation's 2xx body is not JSON. */
const NOT_JSON = Symbol('not-json');

/** A 2xx: its body as the operation answers it (JSON, lossless int64 JSON, text, binary). */
function successOf(call: CallSettings, attempt: SentAttempt, outcome: Answer): WithResponse<unknown> | typeof NOT_JSON {
  const { op } = call;
  const { status, headers, bodyText } = outcome;
  const response = responseInfo(status, headers);
  const kind = op.responseByStatus?.[status] ?? op.response;
  let data: unknown;
  if (kind === undefined || kind === 'json') {
    const parsed = parseSuccessBody(bodyText, op.int64Response === true);
    if (!parsed.ok) return NOT_JSON;
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

/** Status, headers (secret values masked) and request id of a 2xx. */
function responseInfo(status: number, headers: Answer['headers']): ResponseInfo {
  return { status, headers: redactHeaders(headers), requestId: headers.get('x-request-id') ?? undefined };
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
