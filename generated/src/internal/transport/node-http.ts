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
import type { Readable } from 'node:stream';
import { NEVER_ABORTED } from '../call-scope.js';
import { idleDropAgent } from './idle-drop-agent.js';
import {
  declaredLength,
  ERROR_BODY_BYTES,
  lowLevelCode,
  type AttemptOutcome,
  type AttemptRequest,
  type Transport,
} from '../http-attempt.js';
import { builtins, type Builtins } from './node-builtins.js';
import {
  AGENT_OPTIONS,
  DEFAULT_AGENT_OPTIONS,
  IDLE_MS,
  TUNNEL_ATTEMPT,
  type NodeAgent,
  type NodeTransportOptions,
  type TunnelAttempt,
} from './node-options.js';
import { decodedBody, drained, flatHeaders, NodeResponseHeaders, utf8Text, webStream } from './node-response.js';

export { builtins, nodeTransportAvailable, type Builtins } from './node-builtins.js';
export { NodeResponseHeaders } from './node-response.js';
export { TUNNEL_ATTEMPT, type NodeAgent, type NodeTransportOptions, type TunnelAttempt } from './node-options.js';

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
  #onAbort: (() => void) | undefined;

  constructor(t: Target, a: AttemptRequest, resolve: (o: AttemptOutcome) => void) {
    this.#t = t;
    this.#a = a;
    this.#resolve = resolve;
  }

  start(): void {
    const a = this.#a;
    this.#timer = setTimeout(NodeAttempt.#timedOut, a.timeoutMs, this); // no closure per attempt
    if (a.signal !== NEVER_ABORTED) {
      this.#onAbort = () => this.#settle({ kind: 'ended', cause: a.signal.reason }, true);
      a.signal.addEventListener('abort', this.#onAbort, { once: true });
    }
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
      const source = decodedBody(this.#t.builtins, res);
      return this.#settle({ kind: 'response', status, headers, bodyText: '', stream: webStream(source) }, false);
    }
    this.#limit = success ? a.maxBytes : ERROR_BODY_BYTES;
    this.#cut = !success;
    const length = declaredLength(headers);
    if (length !== undefined && length > this.#limit && !this.#cut)
      return this.#settle({ kind: 'too-large', status, headers, limitBytes: this.#limit }, true);
    const source = decodedBody(this.#t.builtins, res);
    this.#source = source;
    source.on('data', this.#onData);
    source.on('end', this.#onEnd);
    if (source !== res) source.on('error', this.#onError);
    res.on('close', this.#onClose);
  };

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
    return {
      kind: 'response',
      status: this.#status,
      headers: this.#headers!,
      bodyText: utf8Text(this.#chunks, this.#total),
    };
  }

  readonly #onError = (err: unknown): void => {
    if (!this.#done) this.#fail(err);
  };

  static #timedOut(attempt: NodeAttempt): void {
    attempt.#settle({ kind: 'timeout' }, true);
  }

  #fail(err: unknown): void {
    if (this.#a.signal.aborted) return this.#settle({ kind: 'ended', cause: err }, true);
    this.#settle({ kind: 'network', errorCode: lowLevelCode(err), cause: err }, true);
  }

  /** Settles once; `drop` destroys what is still open (the socket is then not reused). */
  #settle(outcome: AttemptOutcome, drop: boolean): void {
    if (this.#done) return;
    this.#done = true;
    clearTimeout(this.#timer);
    if (this.#onAbort) this.#a.signal.removeEventListener('abort', this.#onAbort);
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
