/**
 * A fault-injecting HTTP server on 127.0.0.1 for the reliability tests (issue 9). It records
 * every request it sees and answers the N-th operation request of a cell with the cell's fault.
 * The token exchange (POST /{org}/{app}/token) always succeeds and is recorded apart.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';

export const FAULTS = [
  'refused',
  'reset-before',
  'reset-after',
  'timeout',
  '500',
  '502',
  '503',
  '504',
  '429-seconds',
  '429-date',
  '401-once',
  '401-twice',
  '401-app-deleted',
  '403-app-unavailable',
  // Issue 16: garbage headers and shared-store faults.
  // Retry-After: "foo 3000" (Date.parse reads the year 3000): not a Retry-After at all.
  '429-garbage',
  // Retry-After: 99999999999 s (over 3 000 years): refused wait, pause capped at 1 hour.
  '429-huge',
  // The token store rejects every call (Redis down): the client exchanges locally.
  'store-down',
  // The token store never answers (Redis stalled): given up after tokenStoreTimeoutMs.
  'store-slow',
  // A 200 whose gzip body decompresses past maxResponseBytes (a small bomb): bounded, not resent.
  'oversized-body',
] as const;

/** maxResponseBytes of the matrix clients; the oversized body decompresses to 16× this. */
export const MATRIX_MAX_RESPONSE_BYTES = 64 * 1024;
export type Fault = (typeof FAULTS)[number];

export interface SeenRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
  /** The dedupe key sent (body client_msg_id), if any. */
  clientMsgId: string | undefined;
  /** Whether the (simulated) service executed the operation. */
  executed: boolean;
  /** What the server did: a status, "reset" or "held". */
  answer: string;
}

export interface FaultServerOptions {
  /** Prefix of the tokens that the exchange hands out. */
  tokenPrefix?: string;
  /** Echo the caller's Authorization header and body in error answers (the secret-leak test). */
  echo?: boolean;
}

export class FaultServer {
  readonly requests: SeenRequest[] = [];
  readonly exchanges: SeenRequest[] = [];
  fault: Fault | 'none' = 'none';
  /** How the token exchange answers (default: a token). */
  exchangeFault: 'none' | 'invalid_client' | '500' = 'none';
  /** Clock for Retry-After HTTP dates (set to the client's fake clock). */
  now: () => number = Date.now;
  baseUrl = '';
  readonly #o: FaultServerOptions;
  #server: Server | undefined;
  readonly #held = new Set<ServerResponse>();
  readonly #sockets = new Set<Socket>();

  constructor(options: FaultServerOptions = {}) {
    this.#o = options;
  }

  async start(): Promise<this> {
    this.#server = createServer((req, res) => this.#handle(req, res));
    this.#server.on('connection', (s: Socket) => {
      this.#sockets.add(s);
      s.once('close', () => this.#sockets.delete(s));
    });
    await new Promise<void>((r) => this.#server!.listen(0, '127.0.0.1', r));
    this.baseUrl = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  /** Starts a new cell: forgets what was seen, arms `fault`. */
  reset(fault: Fault | 'none'): void {
    for (const res of this.#held) res.destroy();
    this.#held.clear();
    this.requests.length = 0;
    this.exchanges.length = 0;
    this.fault = fault;
    this.exchangeFault = 'none';
  }

  async stop(): Promise<void> {
    this.reset('none');
    for (const s of this.#sockets) s.destroy();
    await new Promise<void>((r) => (this.#server ? this.#server.close(() => r()) : r()));
  }

  #handle(req: IncomingMessage, res: ServerResponse): void {
    const path = (req.url ?? '').split('?')[0]!;
    const seen: SeenRequest = {
      method: req.method ?? '',
      path,
      authorization: req.headers.authorization,
      body: undefined,
      clientMsgId: undefined,
      executed: false,
      answer: '',
    };
    const isExchange = req.method === 'POST' && /^\/[^/]+\/[^/]+\/token$/.test(path);
    if (!isExchange) {
      this.requests.push(seen);
    } else {
      this.exchanges.push(seen);
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        seen.body = text === '' ? undefined : JSON.parse(text);
      } catch {
        seen.body = text;
      }
      const b = seen.body as Record<string, unknown> | undefined;
      if (b && typeof b === 'object' && typeof b.client_msg_id === 'string') seen.clientMsgId = b.client_msg_id;
      if (!isExchange && this.fault === 'reset-before' && this.requests.length === 1) {
        // The connection breaks before the service got to the operation: nothing executed.
        seen.answer = 'reset';
        req.socket.destroy();
        return;
      }
      if (isExchange && this.exchangeFault !== 'none') {
        const echo = this.#o.echo ? ` (you sent ${text})` : '';
        const [status, code] = this.exchangeFault === 'invalid_client' ? [401, 'invalid_client'] : [500, 'internal'];
        return this.#json(res, seen, status, {
          error: {
            code,
            message: `${code}${echo}`,
            request_id: 'req-x',
            ...(this.#o.echo ? { details: { echo: seen.body } } : {}),
          },
        });
      }
      if (isExchange) {
        const token = `${this.#o.tokenPrefix ?? 'tok-'}${this.exchanges.length}`;
        seen.executed = true;
        return this.#json(res, seen, 200, { access_token: token, expires_in: 3600, application: 'app-id' });
      }
      this.#answer(res, seen, this.requests.length);
    });
  }

  #answer(res: ServerResponse, seen: SeenRequest, n: number): void {
    const f = this.fault;
    const first = n === 1;
    const echo = this.#o.echo
      ? ` (you sent ${seen.authorization ?? 'no authorization'} with ${JSON.stringify(seen.body)})`
      : '';
    const error = (
      status: number,
      code: string,
      details?: Record<string, unknown>,
      headers: Record<string, string> = {},
    ) => {
      for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
      const body = {
        error: {
          code,
          message: `${code}${echo}`,
          request_id: `req-${n}`,
          ...(details || this.#o.echo
            ? {
                details: {
                  ...(this.#o.echo
                    ? { authorization: seen.authorization, token: seen.authorization?.slice(7), echo: seen.body }
                    : {}),
                  ...details,
                },
              }
            : {}),
        },
      };
      this.#json(res, seen, status, body);
    };
    if (f === 'reset-after' && first) {
      seen.executed = true;
      seen.answer = 'reset';
      res.socket?.destroy();
      return;
    }
    if (f === 'timeout' && first) {
      seen.executed = true;
      seen.answer = 'held';
      this.#held.add(res);
      res.once('close', () => this.#held.delete(res));
      return;
    }
    if (first && (f === '500' || f === '502' || f === '503' || f === '504')) {
      // 500: the service failed while executing; 502/503/504: a gateway answered, nothing executed.
      seen.executed = f === '500';
      return error(Number(f), f === '500' ? 'internal' : 'unavailable');
    }
    if (first && f === '429-seconds') return error(429, 'rate_limited', undefined, { 'retry-after': '2' });
    if (first && f === '429-date') {
      const at = new Date(this.now() + 3_000).toUTCString();
      return error(429, 'rate_limited', undefined, { 'retry-after': at });
    }
    if (first && f === '429-garbage') return error(429, 'rate_limited', undefined, { 'retry-after': 'foo 3000' });
    if (first && f === '429-huge') return error(429, 'rate_limited', undefined, { 'retry-after': '99999999999' });
    if ((f === '401-once' && first) || (f === '401-twice' && n <= 2)) return error(401, 'unauthenticated');
    if (f === '401-app-deleted') return error(401, 'unauthenticated', { reason: 'app_deleted' });
    if (f === '403-app-unavailable') return error(403, 'app_unavailable');
    seen.executed = true;
    if (first && f === 'oversized-body') {
      // ~1 KiB on the wire, 1 MiB of JSON once decompressed
      seen.answer = '200-oversized';
      const json = JSON.stringify({ ok: true, padding: 'x'.repeat(16 * MATRIX_MAX_RESPONSE_BYTES) });
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gzipSync(json));
      return;
    }
    this.#json(res, seen, 200, { ok: true, path: seen.path });
  }

  #json(res: ServerResponse, seen: SeenRequest, status: number, body: unknown): void {
    seen.answer = String(status);
    res.statusCode = status;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(body));
  }
}

/** A 127.0.0.1 port with nothing listening (connection refused). */
export async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}
