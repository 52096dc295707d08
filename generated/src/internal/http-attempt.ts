// Copied by im-openapi from templates/runtime/internal/http-attempt.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * One HTTP attempt (internal, unstable): the attempt interface that both transports implement
 * (`AttemptRequest` → `AttemptOutcome`), and the fetch transport: fetch with a per-attempt
 * timeout that also covers reading the body. (The node:http transport is node-transport.ts.) Never throws for network trouble; it reports what happened so that the
 * retry loop can decide by the operation's class.
 *
 * Every body read is bounded: a success body by `maxBytes`, an error body by ERROR_BODY_BYTES
 * (cut there: an error's text is only for the message). The bound counts bytes as they come out
 * of decompression and stops pulling there, so a small gzip bomb never grows past it. A binary
 * success body is not read here: its stream goes to the caller (see core/binary-response.ts).
 */
import { childController } from './call-scope.js';
import { concatBytes } from './bytes.js';

/** Largest error body read, in bytes (the rest is dropped: an error body is only for the message). */
export const ERROR_BODY_BYTES = 64 * 1024;

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/**
 * The answer's headers as every reader uses them: a WHATWG `Headers` (fetch transport) or a
 * lighter read-only view over Node's header object (node transport). Names are case-insensitive.
 */
export interface ResponseHeaders {
  get(name: string): string | null;
  forEach(callback: (value: string, name: string) => void): void;
}

export type AttemptOutcome =
  | { kind: 'response'; status: number; headers: ResponseHeaders; bodyText: string; stream?: ReadableStream<Uint8Array> | null }
  /** A success body longer than maxBytes: reading stopped there. */
  | { kind: 'too-large'; status: number; headers: ResponseHeaders; limitBytes: number }
  | { kind: 'network'; errorCode: string | undefined; cause: unknown }
  | { kind: 'timeout' }
  /** The call's scope ended (caller abort or overall deadline). */
  | { kind: 'ended'; cause: unknown };

export interface AttemptRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: BodyInit | undefined;
  timeoutMs: number;
  /** Largest success body read, in bytes. */
  maxBytes: number;
  /** True for a success status whose body goes to the caller as a stream (binary responses). */
  streamsStatus?: (status: number) => boolean;
  /** The body is a stream (sent once; with fetch: half-duplex, without fetch's redirect copy). */
  stream?: boolean;
  /** The call's signal (caller abort + deadline). */
  signal: AbortSignal;
}

/** Sends one attempt: never throws for network trouble, always settles within the attempt's timeout. */
export type Transport = (req: AttemptRequest) => Promise<AttemptOutcome>;

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
    const init: RequestInit = { method: req.method, headers: req.headers, signal: controller.signal, redirect: 'manual' };
    if (req.body !== undefined) init.body = req.body;
    // A stream body goes half-duplex (fetch wants it said). And with redirect 'manual' or
    // 'follow' fetch tees a stream body so it could resend it on a redirect, and the unread
    // branch holds every byte (measured: a 200 MB upload grew memory by 200 MB); with 'error'
    // there is no copy, and a redirect fails the attempt.
    if (req.stream) Object.assign(init, { duplex: 'half', redirect: 'error' });
    const response = await fetch(req.url, init);
    const { status, headers } = response;
    const success = status >= 200 && status <= 299;
    if (success && req.streamsStatus?.(status)) return { kind: 'response', status, headers, bodyText: '', stream: response.body };
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

/** Content-Length when it is the size of what is read (not with content-encoding: then it is the compressed size). */
export function declaredLength(headers: ResponseHeaders): number | undefined {
  const text = headers.get('content-encoding') ? null : headers.get('content-length');
  return text && /^\d+$/.test(text) ? Number(text) : undefined;
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
