/**
 * One HTTP attempt (internal, unstable): the interface that both transports implement
 * (`AttemptRequest` → `AttemptOutcome`; see transport/fetch.ts and transport/node-http.ts).
 * A transport never throws for network trouble; it reports what happened so that the retry
 * loop can decide by the operation's class.
 *
 * Every body read is bounded: a success body by `maxBytes`, an error body by ERROR_BODY_BYTES
 * (cut there: an error's text is only for the message). The bound counts bytes as they come out
 * of decompression and stops pulling there, so a small gzip bomb never grows past it. A binary
 * success body is not read here: its stream goes to the caller (see core/binary-response.ts).
 */

/** Largest error body read, in bytes (the rest is dropped: an error body is only for the message). */
export const ERROR_BODY_BYTES = 64 * 1024;

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/**
 * A request body as fetch takes it: the body of `RequestInit`, which the DOM lib and @types/node
 * both declare. Named here instead of the DOM-only global `BodyInit`, so the package's
 * declarations type-check with `lib: ["ES2023"]` and @types/node, without the DOM lib.
 */
export type RequestBodyInit = NonNullable<RequestInit['body']>;

/**
 * The answer's headers as every reader uses them: a WHATWG `Headers` (fetch transport) or a
 * lighter read-only view over Node's header object (node transport). `get` takes a name in any case;
 * `forEach` gives names in lower case (as WHATWG Headers does).
 */
export interface ResponseHeaders {
  get(name: string): string | null;
  forEach(callback: (value: string, name: string) => void): void;
}

export type AttemptOutcome =
  | {
      kind: 'response';
      status: number;
      headers: ResponseHeaders;
      bodyText: string;
      stream?: ReadableStream<Uint8Array> | null;
    }
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
  body: RequestBodyInit | undefined;
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

/** Content-Length when it is the size of what is read (not with content-encoding: then it is the compressed size). */
export function declaredLength(headers: ResponseHeaders): number | undefined {
  const text = headers.get('content-encoding') ? null : headers.get('content-length');
  return text && /^\d+$/.test(text) ? Number(text) : undefined;
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
