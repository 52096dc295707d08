/**
 * A small stand-in for the messaging service on 127.0.0.1: answers the token exchange, routes
 * other requests to handlers by method and path pattern, and records every request it got.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** Path without the /{org}/{app} prefix, query stripped. */
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: any;
  rawBytes: number;
}

export interface Reply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Handler = (req: RecordedRequest, match: Record<string, string>) => Reply | Promise<Reply>;

export interface FakeService {
  baseUrl: string;
  requests: RecordedRequest[];
  /** Requests other than the token exchange. */
  calls(): RecordedRequest[];
  on(method: string, pattern: string, handler: Handler): void;
  /** A raw route outside the API prefix (e.g. part upload addresses). */
  onRaw(method: string, path: string, handler: (req: IncomingMessage, res: ServerResponse, body: Buffer) => void): void;
  close(): Promise<void>;
}

export const ORG = 'test-org';
export const APP = 'test-app';
export const CLIENT_ID = 'client-id-for-tests';
export const CLIENT_SECRET = 'client-secret-SHOULD-NEVER-APPEAR';
export const TOKEN = 'app-token-SHOULD-NEVER-APPEAR';

export function clientOptions(service: FakeService) {
  return { baseUrl: service.baseUrl, orgName: ORG, appName: APP, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET };
}

export async function startFakeService(options: { rawBody?: boolean } = {}): Promise<FakeService> {
  const routes: { method: string; regex: RegExp; names: string[]; handler: Handler }[] = [];
  const raw = new Map<string, (req: IncomingMessage, res: ServerResponse, body: Buffer) => void>();
  const requests: RecordedRequest[] = [];
  const prefix = `/${ORG}/${APP}`;

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const rawHandler = raw.get(`${req.method} ${url.pathname}`);
    // rawBody: part uploads are counted, not kept, so the server's memory does not blur the client's.
    const keep = !(rawHandler && options.rawBody);
    const chunks: Buffer[] = [];
    let rawBytes = 0;
    for await (const chunk of req) {
      rawBytes += (chunk as Buffer).length;
      if (keep) chunks.push(chunk as Buffer);
    }
    if (rawHandler) {
      requests.push({ method: req.method!, path: url.pathname, query: url.searchParams, headers: req.headers, body: undefined, rawBytes });
      return rawHandler(req, res, Buffer.concat(chunks));
    }
    const text = Buffer.concat(chunks).toString('utf8');
    const body = text ? JSON.parse(text) : undefined;
    const path = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : url.pathname;
    const recorded: RecordedRequest = { method: req.method!, path, query: url.searchParams, headers: req.headers, body, rawBytes };
    requests.push(recorded);
    let reply: Reply = { status: 404, body: { error: { code: 'not_found', message: `no route ${req.method} ${path}`, request_id: 'r-404' } } };
    if (req.method === 'POST' && path === '/token') {
      reply = { body: { access_token: TOKEN, expires_in: 604800, application: 'app-1' } };
    } else {
      for (const route of routes) {
        const m = route.method === req.method ? path.match(route.regex) : null;
        if (!m) continue;
        const match = Object.fromEntries(route.names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)]));
        reply = await route.handler(recorded, match);
        break;
      }
    }
    const payload = reply.body === undefined ? '' : JSON.stringify(reply.body);
    res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', 'x-request-id': `req-${requests.length}`, ...reply.headers });
    res.end(payload);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    calls: () => requests.filter((r) => r.path !== '/token'),
    on(method, pattern, handler) {
      const names: string[] = [];
      const regex = new RegExp(`^${pattern.replace(/\{(\w+)\}/g, (_m, n: string) => (names.push(n), '([^/]+)'))}$`);
      routes.push({ method, regex, names, handler });
    },
    onRaw(method, path, handler) {
      raw.set(`${method} ${path}`, handler);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
