// Copied by im-openapi from templates/runtime/testing/exchange.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * One request to the fake and its answer: the record in `fake.calls` (made on arrival, its answer
 * filled in later, secrets masked) and what is written to the socket (an answer, an error body, a
 * fault, a script reply, a drop).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorBody, FakeApiError } from './errors.js';
import { maskedHeaders, maskSecrets, queryObject, type RouteMatch } from './routes.js';
import type { FakeCall, FakeRequest, FaultKind, FaultRule, ScriptReply } from './types.js';

/** What answering needs of the fake: the call log and its timers. */
export interface AnswerEnv {
  calls: FakeCall[];
  /** Timers of late answers, cleared when the fake closes. */
  delay(ms: number): Promise<void>;
}

export interface Exchange {
  /** This request's entry in `fake.calls` (recorded on arrival, its answer filled in later). */
  call: FakeCall | undefined;
  req: IncomingMessage;
  res: ServerResponse;
  request: FakeRequest;
  n: number;
  match: RouteMatch | undefined;
  params: Record<string, unknown>;
  bodyBytes: number;
}

/** The answer of a fault rule: its error body, or a dropped connection. */
export function writeFault(env: AnswerEnv, x: Exchange, fault: FaultRule): void {
  switch (fault.kind) {
    case 'rate_limited':
      return writeError(
        env,
        x,
        new FakeApiError(429, 'rate_limited', 'too many requests', undefined, {
          'retry-after': String(fault.retryAfterSeconds ?? 1),
        }),
        fault.kind,
      );
    case 'server_error':
      return writeError(
        env,
        x,
        new FakeApiError(fault.status ?? 503, 'unavailable', 'the service failed to answer (a fault of the fake)'),
        fault.kind,
      );
    case 'unauthenticated':
      return writeError(
        env,
        x,
        new FakeApiError(401, 'unauthenticated', 'App Token invalid or expired', fault.details),
        fault.kind,
      );
    case 'error':
      return writeError(
        env,
        x,
        new FakeApiError(
          fault.status ?? 400,
          fault.code ?? 'invalid_argument',
          fault.message ?? `${fault.code ?? 'invalid_argument'} (a fault of the fake)`,
          fault.details,
        ),
        fault.kind,
      );
    default:
      return drop(env, x, 'before', fault.kind);
  }
}

/** Closes the connection without an answer (before or after the change took effect). */
export function drop(env: AnswerEnv, x: Exchange, when: 'before' | 'after', fault: FaultKind): void {
  record(env, x, { dropped: when }, fault);
  x.req.socket.destroy();
}

/** A scripted reply: an answer (maybe late), a drop, or no answer at all (hang). */
export function writeReply(env: AnswerEnv, x: Exchange, reply: ScriptReply): void {
  if ('drop' in reply) return drop(env, x, 'before', 'drop_before');
  if ('hang' in reply) {
    record(env, x, { hung: true });
    return;
  }
  const send = (): void => write(env, x, reply.status ?? 200, reply.body, reply.headers ?? {});
  if (reply.delayMs) void env.delay(reply.delayMs).then(send);
  else send();
}

/** A FakeApiError as the service's error body; anything else as a 500 naming the fake. */
export function writeError(env: AnswerEnv, x: Exchange, e: unknown, fault?: FakeCall['fault']): void {
  const requestId = `fake-req-${x.n}`;
  if (e instanceof FakeApiError) {
    const kind =
      fault ??
      (e.code === 'rate_limited'
        ? x.match?.op.isTokenExchange && /token exchanges/.test(e.message)
          ? 'token_limit'
          : 'quota'
        : undefined);
    return write(env, x, e.status, errorBody(e.code, e.message, requestId, e.details), e.headers ?? {}, kind);
  }
  write(
    env,
    x,
    500,
    errorBody('internal', `the fake failed: ${e instanceof Error ? e.message : String(e)}`, requestId),
    {},
  );
}

/** Writes a JSON answer with its x-request-id and records it (secrets masked). */
export function write(
  env: AnswerEnv,
  x: Exchange,
  status: number,
  body: unknown,
  headers: Record<string, string>,
  fault?: FakeCall['fault'],
): void {
  const requestId = `fake-req-${x.n}`;
  const all = { 'content-type': 'application/json', 'x-request-id': requestId, ...headers };
  record(env, x, { status, body: maskSecrets(body), headers: all }, fault);
  if (x.res.destroyed || x.res.writableEnded) return;
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  x.res.writeHead(status, all);
  x.res.end(text);
}

/** Records the call on arrival; later calls fill in its answer (and the fault that hit it). */
export function record(env: AnswerEnv, x: Exchange, answer: FakeCall['answer'], fault?: FakeCall['fault']): void {
  if (x.call) {
    x.call.answer = answer;
    if (fault) x.call.fault = fault;
    return;
  }
  const url = new URL(x.request.url, 'http://fake.invalid');
  x.call = {
    n: x.n,
    operationId: x.request.operationId,
    method: x.request.method,
    path: url.pathname,
    query: maskSecrets(queryObject(x.request.query)) as Record<string, string | string[]>,
    params: maskSecrets(x.params) as Record<string, unknown>,
    headers: maskedHeaders(x.request.headers),
    bodyBytes: x.bodyBytes,
    answer,
    ...(fault ? { fault } : {}),
    requestId: `fake-req-${x.n}`,
    at: x.request.at,
  };
  env.calls.push(x.call);
}
