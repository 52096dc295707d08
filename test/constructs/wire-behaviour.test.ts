/**
 * The wire constructs end to end (issue 14 part B): the constructs fixture is generated into a
 * temp package, its client is called against a recording node:http server on 127.0.0.1, and
 * what arrives (bytes, parts, headers, query strings) and what comes back are compared exactly.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { watchArrayBuffers } from '../helpers/memory.js';
import { transportUnderTest } from '../../templates/runtime/test-support/fake-service.js';
import { generateConstructsPackage } from './wire-package.js';
import { APP, json, ORG, startWireServer, type WireServer } from './wire-server.js';

let pkg: any;
let dir: string;
let server: WireServer;
let client: any;
const newClient = (extra: object = {}) =>
  new pkg.ImClient({
    baseUrl: server.baseUrl,
    orgName: ORG,
    appName: APP,
    clientId: 'wire-client',
    clientSecret: 'wire-secret',
    transport: transportUnderTest(),
    internals: { sleep: async () => {}, random: () => 0 },
    ...extra,
  });

beforeAll(async () => {
  dir = await generateConstructsPackage();
  pkg = await import(`${dir}/src/index.ts`);
}, 120_000);
beforeEach(async () => {
  server?.arrived.splice(0);
});
beforeAll(async () => {
  server = await startWireServer();
  client = newClient();
});
afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const ok = (_req: unknown, res: any) => json(res, 200, { ok: true });
const bytesOf = (b: Buffer) => new Uint8Array(b.buffer as ArrayBuffer, b.byteOffset, b.byteLength);

describe('binary request bodies (application/octet-stream, image/png)', () => {
  const payload = randomBytes(200_000);
  const sources: [string, () => unknown][] = [
    ['Uint8Array', () => new Uint8Array(payload)],
    ['Buffer', () => Buffer.from(payload)],
    ['ArrayBuffer', () => payload.buffer.slice(payload.byteOffset, payload.byteOffset + payload.byteLength)],
    ['Blob', () => new Blob([payload])],
    [
      'ReadableStream<Uint8Array>',
      () =>
        new ReadableStream({
          start(c) {
            for (let i = 0; i < payload.length; i += 65_536) c.enqueue(new Uint8Array(payload.subarray(i, i + 65_536)));
            c.close();
          },
        }),
    ],
    [
      'AsyncIterable<Uint8Array> (node Readable)',
      () => Readable.from([payload.subarray(0, 1000), payload.subarray(1000)]),
    ],
    [
      'AsyncIterable<Uint8Array> (async generator)',
      () =>
        (async function* () {
          yield payload.subarray(0, 7);
          yield payload.subarray(7);
        })(),
    ],
  ];
  it.each(sources)("%s arrives byte for byte with the spec's content type", async (_name, make) => {
    server.on('PUT /wire/raw/*', ok);
    await client.wire.uploadRaw({ name: 'a b', body: make() });
    const [hit] = server.hits('PUT /wire/raw/*');
    expect(hit!.path).toBe('/wire/raw/a%20b');
    expect(hit!.headers['content-type']).toBe('application/octet-stream');
    expect(Buffer.compare(hit!.body, payload)).toBe(0);
  });

  it('image/png is sent as image/png', async () => {
    server.on('POST /wire/image', ok);
    await client.wire.uploadImage({ body: new Uint8Array([0x89, 0x50, 0x4e, 0x47]) });
    const [hit] = server.hits('POST /wire/image');
    expect(hit!.headers['content-type']).toBe('image/png');
    expect([...hit!.body]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  });

  it('a body of the wrong kind is refused before sending, naming `body`', async () => {
    await expect(client.wire.uploadRaw({ name: 'x', body: 'text' })).rejects.toThrow(
      /`body` must be a Uint8Array \(or Buffer\), ArrayBuffer, Blob, ReadableStream/,
    );
    expect(server.hits('PUT /wire/raw/*')).toHaveLength(0);
  });

  it('a 50 MB stream is streamed, not buffered: memory stays far below its size', async () => {
    server.on('PUT /wire/raw/*', ok, { countOnly: true });
    const chunk = 1024 * 1024;
    const total = 50;
    // Fresh chunks: what survives a gc is what the client holds.
    const memory = watchArrayBuffers();
    async function* source() {
      for (let i = 0; i < total; i++) {
        if (i % 5 === 0) memory.sample();
        yield new Uint8Array(chunk).fill(i);
      }
    }
    try {
      await client.wire.uploadRaw({ name: 'big', body: source() });
    } finally {
      memory.stop();
    }
    const peak = memory.peak;
    const [hit] = server.hits('PUT /wire/raw/*');
    expect(hit!.bytes).toBe(total * chunk);
    console.log(`[wire] 50 MiB stream upload: peak arrayBuffers growth (after gc) ${(peak / 2 ** 20).toFixed(1)} MiB`);
    expect(peak).toBeLessThan(20 * 2 ** 20);
  });

  it('a stream body is not resent after a 503 (it cannot be replayed); the error says why', async () => {
    server.on('PUT /wire/raw/*', (_r, res) => json(res, 503, { error: { code: 'unavailable', message: 'later' } }));
    const error = await client.wire
      .uploadRaw({ name: 's', body: Readable.from([Buffer.from('abc')]) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(pkg.ApiError);
    expect(error.message).toMatch(
      /Not resent: the request body is a stream, which can be sent once; pass a Uint8Array, ArrayBuffer or Blob/,
    );
    expect(server.hits('PUT /wire/raw/*')).toHaveLength(1);
  });

  it('a replayable body (Uint8Array, Blob) is resent by its class, the same bytes each time', async () => {
    let n = 0;
    server.on('PUT /wire/raw/*', (_r, res) =>
      ++n === 1 ? json(res, 503, { error: { code: 'unavailable', message: 'later' } }) : json(res, 200, { ok: true }),
    );
    await client.wire.uploadRaw({ name: 'r', body: new Blob(['hello']) });
    const hits = server.hits('PUT /wire/raw/*');
    expect(hits.map((h) => h.body.toString())).toEqual(['hello', 'hello']);
  });
});

describe('multipart/form-data, urlencoded and text bodies', () => {
  it("multipart: parts with names, filenames, content types (the spec's encoding), extra part headers, field values", async () => {
    server.on('POST /wire/multipart', ok);
    const png = new Uint8Array([1, 2, 3, 250]);
    await client.wire.uploadForm({
      file: { data: png, filename: 'pic "1".png' },
      extras: [new Uint8Array([9]), { data: new Blob(['notes'], { type: 'text/markdown' }), filename: 'n.md' }],
      caption: 'héllo',
      meta: { w: 3 },
      count: 2,
    });
    const [hit] = server.hits('POST /wire/multipart');
    const type = String(hit!.headers['content-type']);
    expect(type).toMatch(/^multipart\/form-data; boundary=im-openapi-[A-Za-z0-9-]+$/);
    // parse with the platform's own multipart parser
    const form = await new Response(bytesOf(hit!.body), { headers: { 'content-type': type } }).formData();
    const file = form.get('file') as File;
    // sent as filename="pic %221%22.png" (the HTML form escape, checked below); the parser decodes it
    expect([file.name, file.type, [...new Uint8Array(await file.arrayBuffer())]]).toEqual([
      'pic "1".png',
      'image/png',
      [1, 2, 3, 250],
    ]);
    const extras = form.getAll('extras') as File[];
    expect(extras.map((f) => [f.name, f.type])).toEqual([
      ['extras', 'application/octet-stream'],
      ['n.md', 'text/markdown'],
    ]);
    expect(await extras[1]!.text()).toBe('notes');
    expect(form.get('caption')).toBe('héllo');
    expect(form.get('count')).toBe('2');
    // an object field is a JSON part (no filename, so FormData sees a string)
    expect(form.get('meta')).toBe('{"w":3}');
    expect(hit!.body.toString('latin1')).toMatch(/name="meta"\r\ncontent-type: application\/json\r\n\r\n\{"w":3\}\r\n/);
    // the per-part header from the spec's encoding (FormData parsers do not expose it)
    expect(hit!.body.toString('latin1')).toMatch(
      /name="file"; filename="pic %221%22.png"\r\ncontent-type: image\/png\r\nX-Checksum: fixed-by-spec\r\n\r\n/,
    );
  });

  it('multipart: a missing required field is refused by validation, nothing sent', async () => {
    await expect(client.wire.uploadForm({ file: new Uint8Array([1]) })).rejects.toThrow(/caption/);
    expect(server.hits('POST /wire/multipart')).toHaveLength(0);
  });

  it('application/x-www-form-urlencoded', async () => {
    server.on('POST /wire/urlencoded', ok);
    await client.wire.submitForm({ name: 'a b&c', tags: ['x', 'y'], age: 7 });
    const [hit] = server.hits('POST /wire/urlencoded');
    expect(hit!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(hit!.body.toString()).toBe('name=a+b%26c&tags=x&tags=y&age=7');
  });

  it('text/plain', async () => {
    server.on('POST /wire/text', ok);
    await client.wire.postText({ body: 'plain ✓ text' });
    const [hit] = server.hits('POST /wire/text');
    expect(hit!.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(hit!.body.toString('utf8')).toBe('plain ✓ text');
  });

  it('several media types: the first is the default; the contentType option picks another; an unlisted one is refused', async () => {
    server.on('POST /wire/either', ok);
    await client.wire.postEither({ name: 'n', mode: 'a' });
    await client.wire.postEither({ body: 'as text' }, { contentType: 'text/plain' });
    await client.wire.postEither({ body: new Uint8Array([7, 8]) }, { contentType: 'application/octet-stream' });
    const hits = server.hits('POST /wire/either');
    expect(hits.map((h) => [h.headers['content-type'], h.query, h.body.toString('latin1')])).toEqual([
      ['application/json', 'mode=a', '{"name":"n"}'],
      ['text/plain; charset=utf-8', '', 'as text'],
      ['application/octet-stream', '', '\x07\x08'],
    ]);
    await expect(client.wire.postEither({ body: 'x' }, { contentType: 'application/xml' })).rejects.toThrow(
      /contentType option "application\/xml" is not a request body type of wire.post_either/,
    );
    expect(server.hits('POST /wire/either')).toHaveLength(3);
  });
});

describe('header, cookie and query parameters on the wire', () => {
  it('header and cookie parameters', async () => {
    server.on('GET /wire/headers', ok);
    await client.wire.headers({
      'X-Trace-Id': 'trace-1',
      'X-Tags': ['a', 'b'],
      'X-Meta': { a: 'x', b: 2 },
      session: 's;1',
      prefs: ['dark', 'wide'],
      limit: 5,
    });
    const [hit] = server.hits('GET /wire/headers');
    expect(hit!.headers['x-trace-id']).toBe('trace-1');
    expect(hit!.headers['x-tags']).toBe('a,b');
    expect(hit!.headers['x-meta']).toBe('a=x,b=2');
    expect(hit!.headers.cookie).toBe('session=s%3B1; prefs=dark,wide');
    expect(hit!.query).toBe('limit=5');
    expect(hit!.headers.authorization).toBe('Bearer wire-token');
  });

  it('header params are validated (required, minLength) before sending', async () => {
    await expect(client.wire.headers({ 'X-Trace-Id': 'ab' })).rejects.toThrow(/X-Trace-Id/);
    await expect(client.wire.headers({})).rejects.toThrow(/X-Trace-Id/);
    expect(server.hits('GET /wire/headers')).toHaveLength(0);
  });

  it('query styles as the OpenAPI table spells them', async () => {
    server.on('GET /wire/query', ok);
    const list = ['blue', 'black', 'brown'];
    const rgb = { R: 100, G: 200, B: 150 };
    await client.wire.queryStyles({
      form_arr: list,
      csv_arr: list,
      space_arr: list,
      pipe_arr: list,
      deep: rgb,
      form_obj: rgb,
      csv_obj: rgb,
      maybe_empty: '',
    });
    const [hit] = server.hits('GET /wire/query');
    expect(hit!.query.split('&')).toEqual([
      'form_arr=blue',
      'form_arr=black',
      'form_arr=brown',
      'csv_arr=blue,black,brown',
      'space_arr=blue%20black%20brown',
      'pipe_arr=blue|black|brown',
      'deep[R]=100',
      'deep[G]=200',
      'deep[B]=150',
      'R=100',
      'G=200',
      'B=150',
      'csv_obj=R,100,G,200,B,150',
      'maybe_empty=',
    ]);
  });

  it('an empty value of a parameter without allowEmptyValue is refused, nothing sent', async () => {
    await expect(client.wire.queryStyles({ never_empty: '' })).rejects.toThrow(/never_empty.*must not be empty/);
    expect(server.hits('GET /wire/query')).toHaveLength(0);
  });
});

describe('responses', () => {
  const png = randomBytes(300_000);
  it('binary: bytes() byte for byte, with contentType and contentLength', async () => {
    server.on('GET /wire/media/*', (_r, res) => {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(png.length) });
      res.end(png);
    });
    const media = await client.wire.download({ media_id: 'm1' });
    expect(media).toBeInstanceOf(pkg.BinaryResponse);
    expect([media.contentType, media.contentLength]).toEqual(['image/png', png.length]);
    expect(Buffer.compare(Buffer.from(await media.bytes()), png)).toBe(0);
    expect(() => media.stream()).toThrow(/already read/);
  });

  it('binary: cancel() drops an unread body; reading it afterwards says it was taken', async () => {
    server.on('GET /wire/media/*', (_r, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(png);
    });
    const media = await client.wire.download({ media_id: 'm3' });
    await media.cancel();
    expect(media.bodyUsed).toBe(true);
    await expect(media.bytes()).rejects.toThrow(/already read/);
  });

  it('binary: stream() byte for byte (chunked, no length)', async () => {
    server.on('GET /wire/media/*', (_r, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.write(png.subarray(0, 1000));
      res.end(png.subarray(1000));
    });
    const media = await client.wire.download({ media_id: 'm2' });
    expect(media.contentLength).toBeUndefined();
    const parts: Buffer[] = [];
    for await (const c of media.stream() as any) parts.push(Buffer.from(c));
    expect(Buffer.compare(Buffer.concat(parts), png)).toBe(0);
  });

  it('binary over the bound (Content-Length) → ResponseTooLargeError, not resent', async () => {
    server.on('GET /wire/media/*', (_r, res) => {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(png.length) });
      res.end(png);
    });
    const error = await client.wire
      .download({ media_id: 'big' }, { maxResponseBytes: 100_000 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(pkg.ResponseTooLargeError);
    expect([error.code, error.limitBytes, error.status]).toEqual(['response_too_large', 100_000, 200]);
    expect(server.hits('GET /wire/media/*')).toHaveLength(1);
  });

  it('binary over the bound while streaming (no length) → the stream errors with ResponseTooLargeError, not resent', async () => {
    server.on('GET /wire/media/*', (_r, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(png);
    });
    const media = await newClient({ maxResponseBytes: 100_000 }).wire.download({ media_id: 'big' });
    await expect(media.bytes()).rejects.toBeInstanceOf(pkg.ResponseTooLargeError);
    expect(server.hits('GET /wire/media/*')).toHaveLength(1);
  });

  it('text → string; 204 → undefined', async () => {
    server.on('GET /wire/text', (_r, res) => {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('hello ✓');
    });
    server.on('DELETE /wire/things/*', (_r, res) => {
      res.writeHead(204);
      res.end();
    });
    expect(await client.wire.getText()).toBe('hello ✓');
    expect(await client.wire.deleteThing({ thing_id: 't' })).toBeUndefined();
  });

  it('201 created / 200 existed → a union narrowed on status', async () => {
    server.on('PUT /wire/things/*', (req, res) =>
      req.path.endsWith('/new')
        ? json(res, 201, { id: 'new', created_at: '2026-01-01' })
        : json(res, 200, { id: 'old', label: 'kept' }),
    );
    const created = await client.wire.putThing({ thing_id: 'new', label: 'x' });
    const existed = await client.wire.putThing({ thing_id: 'old' });
    expect(created).toEqual({ status: 201, data: { id: 'new', created_at: '2026-01-01' } });
    expect(existed).toEqual({ status: 200, data: { id: 'old', label: 'kept' } });
  });

  it("validateResponses checks the union's first status by its data, and leaves binary answers alone (no false drift)", async () => {
    server.on('PUT /wire/things/*', (req, res) =>
      req.path.endsWith('/new')
        ? json(res, 201, { id: 'new', created_at: 'x' })
        : json(res, 200, { id: 'old', label: 'kept' }),
    );
    server.on('GET /wire/media/*', (_r, res) => void res.end('bytes'));
    const drifts: unknown[] = [];
    const checking = newClient({ validateResponses: true, onResponseDrift: (d: unknown) => drifts.push(d) });
    await checking.wire.putThing({ thing_id: 'old' });
    await checking.wire.putThing({ thing_id: 'new' });
    await (await checking.wire.download({ media_id: 'm' })).bytes();
    expect(drifts).toEqual([]);
    server.on('PUT /wire/things/*', (_r, res) => json(res, 200, { id: 'old', label: 'kept', extra: 1 }));
    await checking.wire.putThing({ thing_id: 'old' });
    expect(drifts).toHaveLength(1);
  });

  it('a JSON answer over maxResponseBytes with a known length is refused before reading; not resent', async () => {
    server.on('GET /wire/headers', (_r, res) => json(res, 200, { ok: true, pad: 'x'.repeat(5000) }));
    const error = await newClient({ maxResponseBytes: 1000 })
      .wire.headers({ 'X-Trace-Id': 'abc' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(pkg.ResponseTooLargeError);
    expect(server.hits('GET /wire/headers')).toHaveLength(1);
  });

  it('a gzip bomb JSON answer is bounded: reading stops at maxResponseBytes inside decompression, not resent, memory stays low', async () => {
    // 512 MiB of spaces, gzip-compressed (~0.5 MiB on the wire)
    const gz = createGzip({ level: 9 });
    const compressed: Buffer[] = [];
    gz.on('data', (c: Buffer) => compressed.push(c));
    const block = Buffer.alloc(1024 * 1024, 0x20);
    for (let i = 0; i < 512; i++) if (!gz.write(block)) await new Promise((r) => gz.once('drain', r));
    await new Promise((r) => gz.end(r));
    const bomb = Buffer.concat(compressed);
    server.on('GET /wire/big', (_r, res) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'content-length': String(bomb.length),
      });
      res.end(bomb);
    });
    (globalThis as { gc?: () => void }).gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 2);
    let error: any;
    try {
      error = await newClient({ maxResponseBytes: 1024 * 1024 })
        .wire.bigJson()
        .catch((e: unknown) => e);
    } finally {
      clearInterval(timer);
    }
    console.log(
      `[wire] gzip bomb (${(bomb.length / 2 ** 20).toFixed(2)} MiB → 512 MiB): RSS growth ${((peak - before) / 2 ** 20).toFixed(1)} MiB`,
    );
    expect(error).toBeInstanceOf(pkg.ResponseTooLargeError);
    expect(error.code).toBe('response_too_large');
    expect(server.hits('GET /wire/big')).toHaveLength(1);
    expect(peak - before).toBeLessThan(64 * 2 ** 20);
  });

  it('a big error body is read only up to 64 KiB (the error is still classified)', async () => {
    server.on('GET /wire/old', (_r, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'invalid_argument', message: 'x' }, pad: 'p'.repeat(5_000_000) }));
    });
    const error = await client.wire.oldOp().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(pkg.ApiError);
    expect(error.status).toBe(400);
    expect(error.message.length).toBeLessThan(70_000);
  });
});
