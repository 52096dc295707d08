// Copied by im-openapi from templates/runtime/internal/transport/node-http.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The node:http / node:https transport (internal, unstable): the default on Node (issue 18).
 * undici's fetch costs tens of µs more per call once it carries an AbortSignal, and the
 * per-attempt timeout needs one; a keep-alive `http.request` with one timer does not.
 *
 * It keeps the fetch transport's contract (../http-attempt.ts): the timeout covers connecting,
 * sending and reading the body; the call's signal ends the attempt; a success body is read up
 * to maxBytes (else 'too-large'), an error body is cut at ERROR_BODY_BYTES; gzip/deflate/br
 * are decoded and counted after decoding, so a small bomb stops at the bound; a binary success
 * body goes to the caller as a web ReadableStream; redirects are answers, never followed.
 *
 * No static import of a node: module: the builtins come from `process.getBuiltinModule`
 * (Node ≥ 20.16), so bundles for workers and browsers never pull node:http in, and runtimes
 * without it (Bun, Deno, workers, older Node) get the fetch transport instead.
 */
import type * as Http from 'node:http';
import type * as Https from 'node:https';
import type * as Tls from 'node:tls';
import type * as Zlib from 'node:zlib';
import type * as Stream from 'node:stream';
import type { Readable, Transform } from 'node:stream';
import { NEVER_ABORTED } from '../call-scope.js';
import { idleDropAgent } from './idle-drop-agent.js';
import { concatBytes } from '../bytes.js';
import {
  declaredLength,
  ERROR_BODY_BYTES,
  lowLevelCode,
  type AttemptOutcome,
  type AttemptRequest,
  type ResponseHeaders,
  type Transport,
} from '../http-attempt.js';

export type Builtins = {
  http: typeof Http;
  https: typeof Https;
  tls: typeof Tls;
  zlib: typeof Zlib;
  stream: typeof Stream;
};

interface NodeProcess {
  getBuiltinModule?: (id: string) => unknown;
  release?: { name?: string };
  versions?: { node?: string };
}

/**
 * True on Node itself with `process.getBuiltinModule` (Node ≥ 20.16). False on Bun and Deno
 * (they mimic `process` but have their own fetch), edge runtimes and workers, and browsers.
 */
export function nodeTransportAvailable(): boolean {
  const g = globalThis as {
    process?: NodeProcess;
    Bun?: unknown;
    Deno?: unknown;
    EdgeRuntime?: unknown;
    navigator?: { userAgent?: string };
  };
  const p = g.process;
  if (
    !p ||
    typeof p.getBuiltinModule !== 'function' ||
    p.release?.name !== 'node' ||
    typeof p.versions?.node !== 'string'
  )
    return false;
  if (g.Bun !== undefined || g.Deno !== undefined || g.EdgeRuntime !== undefined) return false;
  return g.navigator?.userAgent !== 'Cloudflare-Workers';
}

/** The builtins, each loaded on first use: an http client never loads tls, and zlib waits for a compressed answer (cold start). */
export function builtins(): Builtins {
  const get = (globalThis as { process?: NodeProcess }).process!.getBuiltinModule!;
  const loaded: Partial<Builtins> = {};
  return {
    get http() {
      return (loaded.http ??= get('node:http') as typeof Http);
    },
    get https() {
      return (loaded.https ??= get('node:https') as typeof Https);
    },
    get tls() {
      return (loaded.tls ??= get('node:tls') as typeof Tls);
    },
    get zlib() {
      return (loaded.zlib ??= get('node:zlib') as typeof Zlib);
    },
    get stream() {
      return (loaded.stream ??= get('node:stream') as typeof Stream);
    },
  };
}

/**
 * What a proxy tunnel's `createConnection` learns of the attempt it opens a tunnel for, handed in
 * the request options under this symbol (Node copies them through the agent): the CONNECT gets
 * no longer than the attempt's timeout and is destroyed when the attempt ends first.
 */
export const TUNNEL_ATTEMPT: unique symbol = Symbol('im-openapi.tunnel-attempt');
export interface TunnelAttempt {
  /** The attempt's timeout in ms. */
  timeoutMs: number;
  /** Calls `onEnd` once when the attempt settles (at once if it has). */
  onEnd(onEnd: () => void): void;
}

/** An agent as the node transport takes it: an `http.Agent` or `https.Agent` (or a subclass, e.g. a proxy agent). */
export type NodeAgent = Http.Agent;

export interface NodeTransportOptions {
  /** The base URL's origin: every request goes there. */
  origin: string;
  /** The user's agent; default: one keep-alive agent of this client. */
  agent?: NodeAgent | undefined;
  /** Builds the default agent instead (the proxy tunnel does) from these agent options. */
  makeAgent?: ((b: Builtins, secure: boolean, agentOptions: Http.AgentOptions) => NodeAgent) | undefined;
  /** Idle time after which the default agent drops a pooled socket (default IDLE_MS; tests shorten it). */
  idleMs?: number | undefined;
}

/**
 * The default agent's options: keep-alive, idle sockets dropped after 4 s (under the 5 s that
 * Node servers keep them, so a reused socket is rarely one the server is closing), most
 * recently used socket first (the others may idle out).
 */
const AGENT_OPTIONS: Http.AgentOptions = { keepAlive: true, timeout: 4_000, scheduling: 'lifo' };
const IDLE_MS = 4_000;
/** The same for the default agent, whose idle drop is its own (idle-drop-agent.ts: no per-request timeout work). */
const DEFAULT_AGENT_OPTIONS: Http.AgentOptions = { keepAlive: true, scheduling: 'lifo' };

/** One transport = one agent (one pool of keep-alive connections) for the client's origin. */
export function nodeTransport(options: NodeTransportOptions): Transport {
  const b = builtins();
  const origin = new URL(options.origin);
  const secure = origin.protocol === 'https:';
  const agent =
    options.agent ??
    options.makeAgent?.(b, secure, AGENT_OPTIONS) ??
    idleDropAgent(secure ? b.https.Agent : b.http.Agent, DEFAULT_AGENT_OPTIONS, options.idleMs ?? IDLE_MS);
  const target: Target = {
    request: secure ? b.https.request : b.http.request,
    builtins: b,
    agent,
    prefix: origin.origin,
    hostname: origin.hostname.replace(/^\[|\]$/g, ''),
    port: origin.port === '' ? (secure ? 443 : 80) : Number(origin.port),
    protocol: origin.protocol,
    // Our own agent only: a user's agent may still set headers on the request (an http proxy agent does)
    hostHeader: options.agent || options.makeAgent ? undefined : origin.host,
    tunnel: options.agent === undefined && options.makeAgent !== undefined,
  };
  return (req) => {
    if (req.signal.aborted) return Promise.resolve({ kind: 'ended', cause: req.signal.reason });
    return new Promise<AttemptOutcome>((resolve) => new NodeAttempt(target, req, resolve).start());
  };
}

interface Target {
  request: typeof Http.request;
  builtins: Builtins;
  agent: NodeAgent;
  prefix: string;
  hostname: string;
  port: number;
  protocol: string;
  /**
   * Set (the Host header as Node would write it) when the headers may go to Node as a flat array:
   * Node then writes them as given, with no setHeader per header (~2 µs of CPU per call).
   */
  hostHeader: string | undefined;
  /** The agent opens CONNECT tunnels: each request tells it its attempt (TUNNEL_ATTEMPT). */
  tunnel: boolean;
}

/** Read-only, case-insensitive view of Node's (already lower-cased) header object. */
export class NodeResponseHeaders implements ResponseHeaders {
  readonly #raw: Http.IncomingHttpHeaders;
  constructor(raw: Http.IncomingHttpHeaders) {
    this.#raw = raw;
  }
  get(name: string): string | null {
    const value = this.#raw[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  }
  forEach(callback: (value: string, name: string) => void): void {
    // Node's names are lower-case already: read each value directly (no get() per name)
    const raw = this.#raw;
    for (const name of Object.keys(raw).sort()) {
      const value = raw[name];
      if (value !== undefined) callback(Array.isArray(value) ? value.join(', ') : value, name);
    }
  }
}

const BOM = 0xfeff;
const ACCEPT_ENCODING = 'gzip, deflate, br';

/** One attempt: one state object (its handlers are its fields), settled exactly once by `#settle`. */
class NodeAttempt {
  readonly #t: Target;
  readonly #a: AttemptRequest;
  readonly #resolve: (o: AttemptOutcome) => void;
  #done = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #req: Http.ClientRequest | undefined;
  #res: Http.IncomingMessage | undefined;
  #source: Readable | undefined;
  /** The reader of a stream body while it is being sent (undefined once sent). */
  #uploading: ReadableStreamDefaultReader<Uint8Array> | undefined;
  #dropped = false;
  #chunks: Buffer[] = [];
  #total = 0;
  #limit = 0;
  #cut = false;
  #status = 0;
  #headers: NodeResponseHeaders | undefined;
  /** Called once when the attempt settles (a proxy tunnel still being opened gives up). */
  #onSettled: (() => void) | undefined;

  constructor(t: Target, a: AttemptRequest, resolve: (o: AttemptOutcome) => void) {
    this.#t = t;
    this.#a = a;
    this.#resolve = resolve;
  }

  start(): void {
    const a = this.#a;
    this.#timer = setTimeout(this.#onTimeout, a.timeoutMs);
    if (a.signal !== NEVER_ABORTED) a.signal.addEventListener('abort', this.#onAbort, { once: true });
    const body = a.body;
    if (body === undefined || typeof body === 'string' || body instanceof Uint8Array || body instanceof ArrayBuffer)
      this.#send(body);
    else if (typeof Blob !== 'undefined' && body instanceof Blob) this.#send(body);
    else if (typeof ReadableStream !== 'undefined' && body instanceof ReadableStream) this.#send(body);
    else {
      // Rare kinds (FormData, URLSearchParams, ...): let the platform encode them, as fetch would.
      const encoded = new Response(body);
      const type = encoded.headers.get('content-type');
      if (type !== null && a.headers['content-type'] === undefined) a.headers['content-type'] = type;
      encoded.arrayBuffer().then(
        (bytes) => this.#done || this.#send(bytes),
        (err: unknown) => this.#fail(err),
      );
    }
  }

  #send(body: string | Uint8Array | ArrayBuffer | Blob | ReadableStream<Uint8Array> | undefined): void {
    const a = this.#a;
    const t = this.#t;
    const headers = a.headers;
    if (headers['accept-encoding'] === undefined) headers['accept-encoding'] = ACCEPT_ENCODING;
    let bytes: string | Uint8Array | undefined;
    if (typeof body === 'string') {
      bytes = body;
      headers['content-length'] = String(Buffer.byteLength(body));
    } else if (body instanceof Uint8Array || body instanceof ArrayBuffer) {
      bytes = body instanceof ArrayBuffer ? new Uint8Array(body) : body;
      headers['content-length'] = String(bytes.byteLength);
    } else if (body instanceof Blob) {
      headers['content-length'] = String(body.size);
    }
    const path =
      a.url.startsWith(t.prefix) && (a.url[t.prefix.length] === '/' || a.url.length === t.prefix.length)
        ? a.url.slice(t.prefix.length) || '/'
        : undefined;
    if (path === undefined)
      return this.#fail(
        Object.assign(new Error(`the node transport of ${t.prefix} was asked for another origin`), {
          code: 'ERR_INVALID_URL',
        }),
      );
    let req: Http.ClientRequest;
    try {
      const options: Http.RequestOptions & { [TUNNEL_ATTEMPT]?: TunnelAttempt } = {
        protocol: t.protocol,
        hostname: t.hostname,
        port: t.port,
        path,
        method: a.method,
        headers: t.hostHeader === undefined ? headers : flatHeaders(headers, t.hostHeader),
        agent: t.agent,
      };
      if (t.tunnel)
        options[TUNNEL_ATTEMPT] = {
          timeoutMs: a.timeoutMs,
          onEnd: (onEnd) => (this.#done ? onEnd() : (this.#onSettled = onEnd)),
        };
      req = t.request(options);
    } catch (err) {
      // e.g. a header value Node refuses: reported as any failure to send, never thrown
      return this.#fail(err);
    }
    this.#req = req;
    req.on('error', this.#onError);
    req.on('response', this.#onResponse);
    if (body === undefined || bytes !== undefined) req.end(bytes);
    else this.#pump(body instanceof Blob ? body.stream() : (body as ReadableStream<Uint8Array>));
  }

  /** Writes a stream body with backpressure (a Blob is streamed too: never copied whole). */
  async #pump(stream: ReadableStream<Uint8Array>): Promise<void> {
    const reader = stream.getReader();
    this.#uploading = reader;
    const req = this.#req!;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (this.#dropped) return;
        if (done) break;
        if (!req.write(value)) await drained(req);
        if (this.#dropped) return;
      }
      this.#uploading = undefined;
      req.end();
    } catch (err) {
      if (this.#done) req.destroy();
      else this.#fail(err);
    }
  }

  readonly #onResponse = (res: Http.IncomingMessage): void => {
    if (this.#done) return void res.destroy();
    this.#res = res;
    const a = this.#a;
    const status = res.statusCode ?? 0;
    const headers = new NodeResponseHeaders(res.headers);
    this.#status = status;
    this.#headers = headers;
    const success = status >= 200 && status <= 299;
    res.on('error', this.#onError);
    if (success && a.streamsStatus?.(status)) {
      // Coverage by the timer and the signal ends here, as with fetch: the body is the caller's.
      const source = this.#decoded(res);
      return this.#settle({ kind: 'response', status, headers, bodyText: '', stream: webStream(source) }, false);
    }
    this.#limit = success ? a.maxBytes : ERROR_BODY_BYTES;
    this.#cut = !success;
    const length = declaredLength(headers);
    if (length !== undefined && length > this.#limit && !this.#cut)
      return this.#settle({ kind: 'too-large', status, headers, limitBytes: this.#limit }, true);
    const source = this.#decoded(res);
    this.#source = source;
    source.on('data', this.#onData);
    source.on('end', this.#onEnd);
    if (source !== res) source.on('error', this.#onError);
    res.on('close', this.#onClose);
  };

  /** The body as it comes out of decoding: res itself, or res piped through one zlib decoder. */
  #decoded(res: Http.IncomingMessage): Readable {
    const coding = (res.headers['content-encoding'] ?? '').trim().toLowerCase();
    if (coding === '' || coding === 'identity') return res;
    const z = this.#t.builtins.zlib;
    // the same leniency as undici: a truncated stream ends what was decoded instead of failing
    const flush = { flush: z.constants.Z_SYNC_FLUSH, finishFlush: z.constants.Z_SYNC_FLUSH };
    let decoder: Transform;
    if (coding === 'gzip' || coding === 'x-gzip') decoder = z.createGunzip(flush);
    else if (coding === 'deflate') return this.#inflate(res, flush);
    else if (coding === 'br')
      decoder = z.createBrotliDecompress({
        flush: z.constants.BROTLI_OPERATION_FLUSH,
        finishFlush: z.constants.BROTLI_OPERATION_FLUSH,
      });
    else return res; // a coding fetch does not decode either: the bytes as they came
    res.on('error', (err) => decoder.destroy(err));
    res.pipe(decoder);
    return decoder;
  }

  /**
   * `deflate` is zlib-wrapped (RFC 1950) by the RFC, raw (RFC 1951) from some servers; fetch
   * decodes both, so the first byte picks the decoder here too.
   */
  #inflate(res: Http.IncomingMessage, flush: Zlib.ZlibOptions): Readable {
    const z = this.#t.builtins.zlib;
    const out = new this.#t.builtins.stream.PassThrough();
    const onEmptyEnd = (): void => void out.end();
    res.once('end', onEmptyEnd);
    res.once('data', (first: Buffer) => {
      res.off('end', onEmptyEnd);
      const decoder = (first[0]! & 0x0f) === 0x08 ? z.createInflate(flush) : z.createInflateRaw(flush);
      decoder.on('error', (err) => out.destroy(err));
      out.once('close', () => decoder.destroy());
      decoder.write(first);
      res.pipe(decoder).pipe(out);
    });
    res.on('error', (err) => out.destroy(err));
    return out;
  }

  readonly #onData = (chunk: Buffer): void => {
    if (this.#done) return;
    this.#total += chunk.byteLength;
    if (this.#total <= this.#limit) {
      this.#chunks.push(chunk);
      return;
    }
    // over the bound: stop reading (and so decoding) at once
    if (!this.#cut)
      return this.#settle(
        { kind: 'too-large', status: this.#status, headers: this.#headers!, limitBytes: this.#limit },
        true,
      );
    this.#chunks.push(chunk.subarray(0, chunk.byteLength - (this.#total - this.#limit)));
    this.#total = this.#limit;
    this.#settle(this.#answer(), true);
  };

  readonly #onEnd = (): void => {
    if (!this.#done) this.#settle(this.#answer(), false);
  };

  /** The connection closed before the body ended (a reset mid-answer). */
  readonly #onClose = (): void => {
    if (this.#done || this.#res?.complete) return;
    this.#fail(Object.assign(new Error('the connection closed before the answer ended'), { code: 'ECONNRESET' }));
  };

  #answer(): AttemptOutcome {
    const chunks = this.#chunks;
    const bytes = chunks.length === 1 ? chunks[0]! : concatBytes(chunks, this.#total);
    let text = Buffer.isBuffer(bytes)
      ? bytes.toString('utf8')
      : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
    if (text.charCodeAt(0) === BOM) text = text.slice(1); // as fetch's text() does
    return { kind: 'response', status: this.#status, headers: this.#headers!, bodyText: text };
  }

  readonly #onError = (err: unknown): void => {
    if (!this.#done) this.#fail(err);
  };

  readonly #onTimeout = (): void => {
    this.#settle({ kind: 'timeout' }, true);
  };

  readonly #onAbort = (): void => {
    this.#settle({ kind: 'ended', cause: this.#a.signal.reason }, true);
  };

  #fail(err: unknown): void {
    if (this.#a.signal.aborted) return this.#settle({ kind: 'ended', cause: err }, true);
    this.#settle({ kind: 'network', errorCode: lowLevelCode(err), cause: err }, true);
  }

  /** Settles once; `drop` destroys what is still open (the socket is then not reused). */
  #settle(outcome: AttemptOutcome, drop: boolean): void {
    if (this.#done) return;
    this.#done = true;
    clearTimeout(this.#timer);
    if (this.#a.signal !== NEVER_ABORTED) this.#a.signal.removeEventListener('abort', this.#onAbort);
    if (drop) {
      this.#source?.destroy();
      this.#res?.destroy();
    }
    // An answer that came while a stream body was still going out (e.g. an early 413) ends the
    // upload too, unless the answer is itself a stream the caller still reads on this socket:
    // a request left half-sent would hold its socket forever.
    if (drop || (this.#uploading && !(outcome.kind === 'response' && outcome.stream))) {
      this.#dropped = true;
      this.#req?.destroy();
      void this.#uploading?.cancel().catch(() => undefined);
    }
    this.#onSettled?.();
    this.#resolve(outcome);
  }
}

/** Resolves when the request can take more (or is gone); removes both listeners either way. */
function drained(req: Http.ClientRequest): Promise<void> {
  return new Promise<void>((resume) => {
    const go = (): void => {
      req.off('drain', go).off('close', go);
      resume();
    };
    req.on('drain', go).on('close', go);
  });
}

/**
 * `[name, value, name, value, …]` with the Host header Node would add. Names are lower-case
 * already; Node still checks every name and value of the array (a bad one throws at request()).
 */
function flatHeaders(headers: Record<string, string>, host: string): string[] {
  const flat: string[] = [];
  for (const name in headers) flat.push(name, headers[name]!);
  if (headers.host === undefined) flat.push('host', host);
  return flat;
}

/** A web stream over a Node stream, one chunk per pull (no read-ahead); cancel destroys the source. */
function webStream(source: Readable): ReadableStream<Uint8Array> {
  const chunks = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(new Uint8Array(next.value.buffer, next.value.byteOffset, next.value.byteLength));
      },
      async cancel() {
        source.destroy();
        await chunks.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}
