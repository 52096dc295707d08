// Copied by im-openapi from templates/runtime/internal/transport/node-response.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The answer side of the node transport (internal, unstable): a read-only header view, the body
 * as it comes out of gzip/deflate/br decoding, a binary body as a web stream, and the flat header
 * array of a request.
 */
import type * as Http from 'node:http';
import type * as Zlib from 'node:zlib';
import type { Readable, Transform } from 'node:stream';
import { concatBytes } from '../bytes.js';
import type { ResponseHeaders } from '../http-attempt.js';
import type { Builtins } from './node-builtins.js';

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
    const names = Object.keys(raw);
    // sorted in place as sort() would (code units): a handful of names, and sort() allocates a work copy per answer
    for (let i = 1; i < names.length; i++) {
      const name = names[i]!;
      let j = i - 1;
      for (; j >= 0 && names[j]! > name; j--) names[j + 1] = names[j]!;
      names[j + 1] = name;
    }
    for (const name of names) {
      const value = raw[name];
      if (value !== undefined) callback(Array.isArray(value) ? value.join(', ') : value, name);
    }
  }
}

/** The body as it comes out of decoding: res itself, or res piped through one zlib decoder. */
export function decodedBody(b: Builtins, res: Http.IncomingMessage): Readable {
  const coding = (res.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (coding === '' || coding === 'identity') return res;
  const z = b.zlib;
  // the same leniency as undici: a truncated stream ends what was decoded instead of failing
  const flush = { flush: z.constants.Z_SYNC_FLUSH, finishFlush: z.constants.Z_SYNC_FLUSH };
  let decoder: Transform;
  if (coding === 'gzip' || coding === 'x-gzip') decoder = z.createGunzip(flush);
  else if (coding === 'deflate') return inflated(b, res, flush);
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
function inflated(b: Builtins, res: Http.IncomingMessage, flush: Zlib.ZlibOptions): Readable {
  const z = b.zlib;
  const out = new b.stream.PassThrough();
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

/** Resolves when the request can take more (or is gone); removes both listeners either way. */
export function drained(req: Http.ClientRequest): Promise<void> {
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
export function flatHeaders(headers: Record<string, string>, host: string): string[] {
  const flat: string[] = [];
  for (const name in headers) flat.push(name, headers[name]!);
  if (headers.host === undefined) flat.push('host', host);
  return flat;
}

/** A web stream over a Node stream, one chunk per pull (no read-ahead); cancel destroys the source. */
export function webStream(source: Readable): ReadableStream<Uint8Array> {
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

const BOM = 0xfeff;

/** The body's chunks as text (UTF-8, a leading BOM dropped as fetch's text() does). */
export function utf8Text(chunks: Buffer[], total: number): string {
  const bytes = chunks.length === 1 ? chunks[0]! : concatBytes(chunks, total);
  const text = Buffer.isBuffer(bytes)
    ? bytes.toString('utf8')
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  return text.charCodeAt(0) === BOM ? text.slice(1) : text;
}
