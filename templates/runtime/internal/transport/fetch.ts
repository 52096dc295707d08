/**
 * The fetch transport (internal, unstable): fetch with a per-attempt timeout that also covers
 * reading the body (an AbortController per attempt, following the call's signal). Used when a
 * `fetch` option is given, with `transport: 'fetch'`, and off Node (Bun, Deno, workers).
 */
import { childController } from '../call-scope.js';
import { concatBytes } from '../bytes.js';
import {
  declaredLength,
  ERROR_BODY_BYTES,
  lowLevelCode,
  type AttemptOutcome,
  type AttemptRequest,
  type FetchLike,
  type Transport,
} from '../http-attempt.js';

const ATTEMPT_TIMEOUT = Symbol('im-openapi.attempt-timeout');

/** The fetch transport: every attempt through `fetch` (the given one, or the global one). */
export function fetchTransport(fetch: FetchLike): Transport {
  return (req) => sendAttempt(fetch, req);
}

export async function sendAttempt(fetch: FetchLike, req: AttemptRequest): Promise<AttemptOutcome> {
  if (req.signal.aborted) return { kind: 'ended', cause: req.signal.reason };
  const { controller, dispose } = childController(req.signal);
  const timer = setTimeout(() => controller.abort(ATTEMPT_TIMEOUT), req.timeoutMs);
  try {
    const init: RequestInit = {
      method: req.method,
      headers: req.headers,
      signal: controller.signal,
      redirect: 'manual',
    };
    if (req.body !== undefined) init.body = req.body;
    // A stream body goes half-duplex (fetch wants it said). And with redirect 'manual' or
    // 'follow' fetch tees a stream body so it could resend it on a redirect, and the unread
    // branch holds every byte (measured: a 200 MB upload grew memory by 200 MB); with 'error'
    // there is no copy, and a redirect fails the attempt.
    if (req.stream) Object.assign(init, { duplex: 'half', redirect: 'error' });
    const response = await fetch(req.url, init);
    const { status, headers } = response;
    const success = status >= 200 && status <= 299;
    if (success && req.streamsStatus?.(status))
      return { kind: 'response', status, headers, bodyText: '', stream: response.body };
    const read = await readBounded(response, success ? req.maxBytes : ERROR_BODY_BYTES, !success);
    if (read === undefined) return { kind: 'too-large', status, headers, limitBytes: req.maxBytes };
    return { kind: 'response', status, headers, bodyText: read };
  } catch (err) {
    if (req.signal.aborted) return { kind: 'ended', cause: err };
    if (controller.signal.aborted && controller.signal.reason === ATTEMPT_TIMEOUT) return { kind: 'timeout' };
    return { kind: 'network', errorCode: lowLevelCode(err), cause: err };
  } finally {
    clearTimeout(timer);
    dispose();
  }
}

/**
 * The body as text, at most `limit` bytes. Over the limit: undefined, or (cut) the first `limit`
 * bytes. Stops pulling (and so decompressing) as soon as the limit is passed.
 */
export async function readBounded(response: Response, limit: number, cut: boolean): Promise<string | undefined> {
  const length = declaredLength(response.headers);
  // Fast path (most answers): the size is known and within the bound; fetch enforces Content-Length.
  if (length !== undefined && length <= limit) return response.text();
  if (length !== undefined && !cut) return void response.body?.cancel().catch(() => undefined);
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      // cancelling stops the stream and the decompression behind it
      void reader.cancel().catch(() => undefined);
      if (!cut) return undefined;
      chunks.push(value.subarray(0, value.byteLength - (total - limit)));
      total = limit;
      break;
    }
    chunks.push(value);
  }
  return UTF8.decode(concatBytes(chunks, total));
}

const UTF8 = new TextDecoder();
