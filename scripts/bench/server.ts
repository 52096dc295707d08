/**
 * The loopback stand-in for the service used by the benchmarks, run in its own process so that
 * it never shares the event loop with the client being measured. Keep-alive HTTP/1.1 on
 * 127.0.0.1, a free port printed as `LISTENING <port>`; exits when its stdin closes.
 *
 * Routes (below /bench-org/bench-app): POST /token, GET /users/{username}, the resumable-upload
 * operations (media.create_upload, part_urls, uploaded_parts, complete). Part uploads
 * (PUT /upload/{file_id}/{n}) are counted and discarded. GET /__stats returns the counters.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const PREFIX = '/bench-org/bench-app';
const TOKEN_BODY = JSON.stringify({ access_token: 'bench-app-token', expires_in: 604800, application: 'app-1' });
const USER_BODY = (username: string) =>
  JSON.stringify({
    username,
    nickname: 'Alice',
    activated: true,
    created_at: '2025-01-31T12:00:00Z',
    modified_at: '2025-01-31T12:00:00Z',
  });

let partBytes = 0;
let parts = 0;

function json(res: import('node:http').ServerResponse, status: number, body: string) {
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'x-request-id': 'req-bench',
  });
  res.end(body);
}

const server = createServer((req, res) => {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  if (req.method === 'PUT' && path.startsWith('/upload/')) {
    let n = 0;
    req.on('data', (chunk: Buffer) => (n += chunk.length));
    req.on('end', () => {
      partBytes += n;
      parts++;
      res.writeHead(200, { 'content-length': 0 });
      res.end();
    });
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    if (path === '/__stats') return json(res, 200, JSON.stringify({ partBytes, parts }));
    if (!path.startsWith(PREFIX)) return json(res, 404, '{}');
    const rest = path.slice(PREFIX.length);
    if (req.method === 'GET' && rest.startsWith('/users/'))
      return json(res, 200, USER_BODY(decodeURIComponent(rest.slice(7))));
    if (req.method === 'POST' && rest === '/token') return json(res, 200, TOKEN_BODY);
    if (req.method === 'POST' && rest === '/media/uploads')
      return json(res, 200, JSON.stringify({ file_id: 'file-bench' }));
    const m = /^\/media\/uploads\/([^/]+)\/(parts|complete)$/.exec(rest);
    if (m) {
      const fileId = m[1]!;
      if (m[2] === 'complete') return json(res, 200, JSON.stringify({ file_id: fileId, parts, bytes: partBytes }));
      if (req.method === 'GET') return json(res, 200, JSON.stringify({ items: [] }));
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      const host = req.headers.host ?? '127.0.0.1';
      const items = (body.part_numbers ?? []).map((n: number) => ({
        part_number: n,
        url: `http://${host}/upload/${fileId}/${n}`,
      }));
      return json(res, 200, JSON.stringify({ items }));
    }
    json(
      res,
      404,
      JSON.stringify({ error: { code: 'not_found', message: `no route ${req.method} ${rest}`, request_id: 'r' } }),
    );
  });
});
server.keepAliveTimeout = 60_000;
server.headersTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`LISTENING ${(server.address() as AddressInfo).port}\n`);
});
process.stdin.resume();
process.stdin.on('end', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
process.on('SIGTERM', () => process.exit(0));
