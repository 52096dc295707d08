// Copied by im-openapi from templates/runtime/internal/http-attempt.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * One HTTP attempt (internal, unstable): fetch with a per-attempt timeout that also covers
 * reading the body. Never throws for network trouble; it reports what happened so that the
 * retry loop can decide by the operation's class.
 */
import { childController } from './call-scope.js';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export type AttemptOutcome =
  | { kind: 'response'; status: number; headers: Headers; bodyText: string }
  | { kind: 'network'; errorCode: string | undefined; cause: unknown }
  | { kind: 'timeout' }
  /** The call's scope ended (caller abort or overall deadline). */
  | { kind: 'ended'; cause: unknown };

export interface AttemptRequest {
  fetch: FetchLike;
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
  timeoutMs: number;
  /** The call's signal (caller abort + deadline). */
  signal: AbortSignal;
}

const ATTEMPT_TIMEOUT = Symbol('im-openapi.attempt-timeout');

export async function sendAttempt(req: AttemptRequest): Promise<AttemptOutcome> {
  if (req.signal.aborted) return { kind: 'ended', cause: req.signal.reason };
  const { controller, dispose } = childController(req.signal);
  const timer = setTimeout(() => controller.abort(ATTEMPT_TIMEOUT), req.timeoutMs);
  try {
    const init: RequestInit = { method: req.method, headers: req.headers, signal: controller.signal, redirect: 'manual' };
    if (req.body !== undefined) init.body = req.body;
    const response = await req.fetch(req.url, init);
    const bodyText = await response.text();
    return { kind: 'response', status: response.status, headers: response.headers, bodyText };
  } catch (err) {
    if (req.signal.aborted) return { kind: 'ended', cause: err };
    if (controller.signal.aborted && controller.signal.reason === ATTEMPT_TIMEOUT) return { kind: 'timeout' };
    return { kind: 'network', errorCode: lowLevelCode(err), cause: err };
  } finally {
    clearTimeout(timer);
    dispose();
  }
}

/** Finds a code like ECONNRESET / ECONNREFUSED / UND_ERR_SOCKET in an error's cause chain. */
export function lowLevelCode(err: unknown): string | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
