// Copied by im-openapi from templates/runtime/callbacks/node.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * node:http / Express-style adapter: `(req, res) => Promise<void>`.
 *
 * It reads the raw body stream itself (the signature covers the bytes as received). When a body
 * parser already consumed the stream (express.json(), express.text(), …) it fails at once with
 * 500 and a logged hint instead of waiting for a stream that will never emit. A Buffer left in
 * `req.body` by express.raw() is used as the raw body.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  createCallbackHandlerWith,
  defaultLogger,
  DEFAULT_BODY_TIMEOUT_MS,
  DEFAULT_MAX_BODY_BYTES,
  HANDLER_INTERNALS,
} from './handler.js';
import type {
  CallbackCoreResult,
  CallbackHandler,
  CallbackHandlerOptions,
  CallbackHandlerWithInternals,
  HandlerInternals,
} from './handler.js';
import { imSignatureV1 } from './signature-node.js';
import type { CallbackEvent, CallbackLogger, HookCallbackRequest } from './types.js';

export interface NodeHandlerOptions {
  /** Default: the handler's own limit, else 1 MB. */
  maxBodyBytes?: number;
  /** Default: the handler's own `bodyTimeoutMs`, else 10 000 ms (the longest the service waits). */
  bodyTimeoutMs?: number;
  logger?: CallbackLogger;
}

/** A request as Express and friends hand it over (node's IncomingMessage plus `body`). */
export type NodeCallbackRequest = IncomingMessage & {
  body?: unknown;
  /** Set by Google Cloud Functions / Firebase: the raw bytes. */
  rawBody?: unknown;
  /** Set to true by body-parser once it read the stream. */
  _body?: unknown;
  originalUrl?: string;
};

export type NodeCallbackHandler = (
  req: NodeCallbackRequest,
  res: ServerResponse,
  next?: (err?: unknown) => void,
) => Promise<void>;

/** Names the fix for each framework (the failure is the same everywhere: a body parser ran first). */
export const BODY_CONSUMED_HINT =
  'The request body was already consumed by a body parser before the callback handler ran, so the raw bytes needed ' +
  'for the signature are gone. Give the callback route the raw bytes: Express: mount it before express.json() or use ' +
  'express.raw({ type: "*/*", limit: "1mb" }); Fastify: register fastifyCallbackPlugin (or a Buffer content-type parser); ' +
  'Koa: mount it before koa-bodyparser; NestJS: NestFactory.create(AppModule, { rawBody: true }); fetch-style frameworks ' +
  '(Hono, Next.js) use createCallbackHandler with the Request. See "Callbacks" in the README.';

export function toNodeHandler(handler: CallbackHandler, options: NodeHandlerOptions = {}): NodeCallbackHandler {
  const internals = (handler as Partial<Record<typeof HANDLER_INTERNALS, HandlerInternals>>)[HANDLER_INTERNALS];
  const logger = options.logger ?? internals?.logger ?? defaultLogger;
  const limit = options.maxBodyBytes ?? internals?.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const bodyTimeoutMs = options.bodyTimeoutMs ?? internals?.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;

  return async (req, res) => {
    const startedAt = Date.now();
    try {
      if ((req.method ?? 'GET').toUpperCase() !== 'POST') {
        return send(res, {
          status: 405,
          headers: { 'content-type': 'application/json; charset=utf-8', allow: 'POST' },
          body: '{"error":"method_not_allowed"}',
        });
      }
      const body = await takeRawBody(req, limit, startedAt + bodyTimeoutMs - Date.now());
      if (body === 'consumed') {
        logger.error?.('callback body already consumed by a body parser; answering 500', { hint: BODY_CONSUMED_HINT });
        return send(res, {
          status: 500,
          headers: { 'content-type': 'application/json; charset=utf-8' },
          body: JSON.stringify({ error: 'body_already_consumed', hint: BODY_CONSUMED_HINT }),
        });
      }
      if (body === 'too_large') {
        logger.warn?.('callback body over the size limit refused with 413', { maxBodyBytes: limit });
        return sendAndClose(req, res, 413, '{"error":"body_too_large"}');
      }
      if (body === 'timeout') {
        logger.warn?.('callback body did not arrive in time; answering 408 and closing the connection', {
          bodyTimeoutMs,
        });
        return sendAndClose(req, res, 408, '{"error":"body_timeout"}');
      }
      if (internals) {
        return send(res, await internals.handleBytes(req.method ?? 'POST', req.headers, body, startedAt));
      }
      const response = await handler(toWebRequest(req, body));
      const headers: Record<string, string> = {};
      response.headers.forEach((v, k) => (headers[k] = v));
      return send(res, { status: response.status, headers, body: await response.text() });
    } catch (err) {
      logger.error?.('callback handler failed', { error: err instanceof Error ? err.message : String(err) });
      if (!res.headersSent) {
        send(res, {
          status: 500,
          headers: { 'content-type': 'application/json; charset=utf-8' },
          body: '{"error":"internal"}',
        });
      } else {
        res.destroy();
      }
    }
  };
}

/**
 * Express/Connect middleware that bounds the body read of whatever body parser comes after it on
 * the callback route (`express.raw(…)`, NestJS's `rawBody: true` parsers), which read without a
 * time limit: the body must have arrived `bodyTimeoutMs` after the request (default 10 s, the
 * longest the service waits), else `408` and the connection closed; a declared length over
 * `maxBodyBytes` (default 1 MB) is `413` and closed at once. Mount it BEFORE the parser:
 * `app.post('/im/callbacks', callbackBodyDeadline(), express.raw({ type: () => true, limit: '1mb' }), handler)`,
 * or in NestJS `app.use('/im/callbacks', callbackBodyDeadline())` before `app.listen()`.
 */
export function callbackBodyDeadline(
  options: NodeHandlerOptions = {},
): (req: NodeCallbackRequest, res: ServerResponse, next: (err?: unknown) => void) => void {
  const logger = options.logger ?? defaultLogger;
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const bodyTimeoutMs = options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  if (!(bodyTimeoutMs > 0 && bodyTimeoutMs <= 2_147_483_647))
    throw new TypeError('bodyTimeoutMs must be a positive number of ms, at most 2147483647');
  return (req, res, next) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      logger.warn?.('callback body over the size limit refused with 413', { maxBodyBytes: limit });
      return sendAndClose(req, res, 413, '{"error":"body_too_large"}');
    }
    if (req.complete) return next();
    const timer = setTimeout(() => {
      if (req.complete) return;
      logger.warn?.('callback body did not arrive in time; answering 408 and closing the connection', {
        bodyTimeoutMs,
      });
      if (!res.headersSent) sendAndClose(req, res, 408, '{"error":"body_timeout"}');
      else req.socket?.destroy();
    }, bodyTimeoutMs);
    const done = (): void => clearTimeout(timer);
    req.once('end', done);
    req.once('close', done);
    next();
  };
}

/**
 * A Web-standard receiver, `(request: Request) => Promise<Response>`, verifying with node:crypto
 * (see `handler.ts` for what it answers). The edge entry has the same function over WebCrypto.
 * Default scheme `imSignatureV1` (ASSUMED: seed 001 §5 does not show the algorithm);
 * `signature: standardWebhooksSignature` or your own scheme to switch.
 */
export function createCallbackHandler<
  E extends CallbackEvent = CallbackEvent,
  H extends HookCallbackRequest = HookCallbackRequest,
>(options: CallbackHandlerOptions<E, H>): CallbackHandlerWithInternals {
  return createCallbackHandlerWith(imSignatureV1, options);
}

/** `toNodeHandler(createCallbackHandler(options))`: node:http, Express, Koa, NestJS. Default scheme `imSignatureV1` (ASSUMED); `signature` switches it. */
export function createNodeCallbackHandler<
  E extends CallbackEvent = CallbackEvent,
  H extends HookCallbackRequest = HookCallbackRequest,
>(options: CallbackHandlerOptions<E, H>): NodeCallbackHandler {
  return toNodeHandler(createCallbackHandler(options));
}

function send(res: ServerResponse, result: CallbackCoreResult): void {
  res.writeHead(result.status, { ...result.headers, 'content-length': String(Buffer.byteLength(result.body)) });
  res.end(result.body);
}

/**
 * Answers and closes the connection once the answer is written: the rest of the body is not
 * read (an unauthenticated sender could otherwise keep the socket busy for as long as it likes).
 */
function sendAndClose(req: NodeCallbackRequest, res: ServerResponse, status: number, body: string): void {
  req.pause(); // nothing more is read: TCP back-pressure stops the sender
  res.once('finish', () => {
    const socket = req.socket;
    if (!socket) return;
    // FIN first, so the answer is not lost to a reset over unread bytes; then the socket goes.
    socket.end();
    setTimeout(() => socket.destroy(), 1_000).unref();
  });
  send(res, { status, headers: { 'content-type': 'application/json; charset=utf-8', connection: 'close' }, body });
}

function toWebRequest(req: NodeCallbackRequest, body: Uint8Array): Request {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      headers.append(raw[i]!, raw[i + 1]!);
    } catch {
      // a header name or value the Fetch API refuses: leave it out
    }
  }
  const url = new URL(req.originalUrl ?? req.url ?? '/', 'http://localhost');
  return new Request(url, { method: req.method ?? 'POST', headers, body: new Uint8Array(body) });
}

/**
 * The raw body: a Buffer already in req.body (express.raw), else read from the stream;
 * 'consumed' when something else read it; 'too_large' past `limit`; 'timeout' when it has not
 * fully arrived within `timeoutMs`.
 */
export async function takeRawBody(
  req: NodeCallbackRequest,
  limit: number,
  timeoutMs = DEFAULT_BODY_TIMEOUT_MS,
): Promise<Uint8Array | 'consumed' | 'too_large' | 'timeout'> {
  const pre = req.body;
  if (pre instanceof Uint8Array) return pre.byteLength > limit ? 'too_large' : pre;
  if (req.rawBody instanceof Uint8Array) return req.rawBody.byteLength > limit ? 'too_large' : req.rawBody;
  const streamTouched = req.readableEnded || req.readableDidRead === true || req._body === true;
  if (streamTouched) return 'consumed';
  if (pre !== undefined && typeof pre !== 'object') return 'consumed'; // express.text() left a string
  // An untouched stream: a `{}` placed by a parser that skipped this content type is ignored.

  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return 'too_large';
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const timer = setTimeout(
      () => {
        cleanup();
        chunks.length = 0; // let go of what arrived
        resolve('timeout');
      },
      Math.max(0, timeoutMs),
    );
    const cleanup = (): void => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
    };
    const onData = (chunk: Buffer | string): void => {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      total += buf.byteLength;
      if (total > limit) {
        cleanup();
        chunks.length = 0;
        resolve('too_large'); // the caller answers 413 and closes the socket: the rest is never read
        return;
      }
      chunks.push(buf);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(Buffer.concat(chunks, total));
    };
    const onError = (err: Error): void => {
      cleanup();
      reject(err);
    };
    const onAborted = (): void => {
      cleanup();
      reject(new Error('request aborted by the client'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
  });
}
