/**
 * A recording HTTP server on 127.0.0.1 for the wire tests: answers the token exchange, hands
 * every other request (raw bytes, or only a byte count for big uploads) to a handler by
 * `METHOD /path` (org/app prefix stripped) and records what arrived.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const ORG = 'wire-org';
export const APP = 'wire-app';

export interface Arrived {
  method: string;
  path: string;
  /** Raw query string without `?` (as sent). */
  query: string;
  headers: IncomingHttpHeaders;
  /** The body (empty when the route only counts). */
  body: Buffer;
  bytes: number;
}

export type WireHandler = (req: Arrived, res: ServerResponse) => void | Promise<void>;

export interface WireServer {
  baseUrl: string;
  arrived: Arrived[];
  /** Hits of one route (token exchange excluded). */
  hits(route: string): Arrived[];
  on(route: string, handler: WireHandler, options?: { countOnly?: boolean }): void;
  close(): Promise<void>;
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

export async function startWireServer(): Promise<WireServer> {
  const routes = new Map<string, { handler: WireHandler; countOnly: boolean }>();
  const arrived: Arrived[] = [];
  const prefix = `/${ORG}/${APP}`;
  const server = createServer(async (req, res) => {
    const [rawPath = '', query = ''] = (req.url ?? '/').split(/\?(.*)/s);
    const path = rawPath.startsWith(prefix) ? rawPath.slice(prefix.length) : rawPath;
    // a route may end in `/*` (any last segment)
    const route = routes.get(`${req.method} ${path}`) ?? routes.get(`${req.method} ${path.replace(/\/[^/]*$/, '/*')}`);
    const chunks: Buffer[] = [];
    let bytes = 0;
    for await (const chunk of req) {
      bytes += (chunk as Buffer).length;
      if (!route?.countOnly) chunks.push(chunk as Buffer);
    }
    const got: Arrived = { method: req.method!, path, query, headers: req.headers, body: Buffer.concat(chunks), bytes };
    if (req.method === 'POST' && path === '/token')
      return json(res, 200, { access_token: 'wire-token', expires_in: 3600 });
    arrived.push(got);
    if (!route) return json(res, 404, { error: { code: 'not_found', message: `no route ${req.method} ${path}` } });
    await route.handler(got, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    arrived,
    hits: (route) =>
      arrived.filter(
        (a) => `${a.method} ${a.path}` === route || `${a.method} ${a.path.replace(/\/[^/]*$/, '/*')}` === route,
      ),
    on: (route, handler, options) => void routes.set(route, { handler, countOnly: !!options?.countOnly }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
