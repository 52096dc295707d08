// Copied by im-openapi from templates/runtime/helpers/upload-source.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * Reads an upload source part by part, so that memory stays bounded by the part size times the
 * parts in flight, whatever the file size. Sources: a file path, bytes, a Blob, a Web
 * ReadableStream or any async iterable of bytes (a Node Readable).
 */
import { ImError, ValidationError } from '../core/errors.js';

/**
 * What an upload reads: `{ path }` for a file, or the bytes themselves. A file is named
 * explicitly, never by a bare string: `upload('hello world')` would otherwise read a file called
 * "hello world" (text is uploaded as bytes: `new TextEncoder().encode(text)`).
 */
export type UploadSource =
  | { path: string }
  | Uint8Array
  | ArrayBuffer
  | Blob
  | ReadableStream<Uint8Array>
  | AsyncIterable<Uint8Array>;

const SOURCE_KINDS =
  'a { path } for a file, a Uint8Array/Buffer, an ArrayBuffer, a Blob, a ReadableStream or an async iterable of bytes';

function sourceError(helperId: string, pointer: string, rule: string, message: string): ValidationError {
  return new ValidationError(helperId, [{ pointer, rule, message }]);
}

export interface SourcePart {
  partNumber: number;
  bytes: Uint8Array;
}

export interface PartReader {
  /** Bytes per part (the last part may be shorter). */
  readonly partSize: number;
  /** Changes the part size before the first part is read (a resume adapting to the service's parts); refused after. */
  setPartSize(partSize: number): void;
  /** Total size in bytes when known before reading (bytes, Blob, file); undefined for streams. */
  readonly size: number | undefined;
  /** The next part, or null after the last one. Calls must not overlap. */
  next(): Promise<SourcePart | null>;
  /** Skips a whole part without keeping it (resume: the service has it already). */
  skip(): Promise<boolean>;
  close(): Promise<void>;
}

/** `helperId` names the helper in errors (e.g. `media.upload`). Every bad source is a ValidationError, before anything is sent. */
function checkPartSize(partSize: number): void {
  if (!Number.isInteger(partSize) || partSize < 1)
    throw new ImError(`partSize must be a whole number of bytes ≥ 1, got ${String(partSize)}.`);
}

/** The part size of a reader: fixed once the first part is read. */
class PartSizing {
  #size: number;
  #started = false;
  constructor(size: number) {
    this.#size = size;
  }
  get size(): number {
    return this.#size;
  }
  /** The size to read with from now on (reading has started). */
  take(): number {
    this.#started = true;
    return this.#size;
  }
  set(size: number): void {
    checkPartSize(size);
    if (this.#started && size !== this.#size)
      throw new ImError('The part size of an upload source cannot change once its parts are being read.');
    this.#size = size;
  }
}

export async function openPartReader(source: UploadSource, partSize: number, helperId = 'upload'): Promise<PartReader> {
  checkPartSize(partSize);
  if (typeof source === 'string') {
    throw sourceError(
      helperId,
      '/source',
      'type',
      "source is a string, which is never read as a file path: give { path: '<file>' } to upload a file, or bytes (new TextEncoder().encode(text)) to upload text",
    );
  }
  if (source instanceof Uint8Array || source instanceof ArrayBuffer) {
    const bytes = source instanceof Uint8Array ? source : new Uint8Array(source);
    return sliceReader(bytes.byteLength, partSize, async (start, end) => bytes.subarray(start, end));
  }
  if (typeof Blob !== 'undefined' && source instanceof Blob) {
    return sliceReader(
      source.size,
      partSize,
      async (start, end) => new Uint8Array(await source.slice(start, end).arrayBuffer()),
    );
  }
  if (isWebStream(source)) return streamReader(webStreamChunks(source), partSize);
  if (source && typeof (source as AsyncIterable<Uint8Array>)[Symbol.asyncIterator] === 'function') {
    return streamReader((source as AsyncIterable<Uint8Array>)[Symbol.asyncIterator](), partSize);
  }
  if (source && typeof source === 'object' && 'path' in source) {
    const path: unknown = source.path;
    if (typeof path !== 'string' || path.trim() === '')
      throw sourceError(helperId, '/source/path', 'type', 'source.path must be a non-empty file path');
    return fileReader(path, partSize, helperId);
  }
  throw sourceError(helperId, '/source', 'type', `unsupported upload source; give ${SOURCE_KINDS}`);
}

function sliceReader(
  size: number,
  initialPartSize: number,
  read: (start: number, end: number) => Promise<Uint8Array>,
  close = async () => {},
): PartReader {
  let partNumber = 0;
  const sizing = new PartSizing(initialPartSize);
  const nextRange = () => {
    const partSize = sizing.take();
    const start = partNumber * partSize;
    if (start >= size && !(size === 0 && partNumber === 0)) return null;
    partNumber++;
    return { partNumber, start, end: Math.min(start + partSize, size) };
  };
  return {
    get partSize() {
      return sizing.size;
    },
    setPartSize: (n) => sizing.set(n),
    size,
    async next() {
      const range = nextRange();
      return range ? { partNumber: range.partNumber, bytes: await read(range.start, range.end) } : null;
    },
    async skip() {
      return nextRange() !== null;
    },
    close,
  };
}

type FsPromises = typeof import('node:fs/promises');

/**
 * node:fs/promises, loaded only when a `{ path }` source is read, through
 * `process.getBuiltinModule`: no import of it for a bundler to resolve, so an app bundled for a
 * browser-like or neutral platform (a worker, an edge function) builds, and reads bytes, Blobs
 * and streams there.
 */
function nodeFs(helperId: string): FsPromises {
  const p = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const fs =
    typeof p?.getBuiltinModule === 'function'
      ? (p.getBuiltinModule('node:fs/promises') as FsPromises | undefined)
      : undefined;
  if (!fs)
    throw sourceError(
      helperId,
      '/source/path',
      'runtime',
      'a { path } source is read with node:fs, which this runtime does not have (Node >= 20.16 does): give the bytes, a Blob or a stream instead',
    );
  return fs;
}

async function fileReader(path: string, partSize: number, helperId: string): Promise<PartReader> {
  const { open } = nodeFs(helperId);
  let handle: Awaited<ReturnType<FsPromises['open']>>;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    throw sourceError(
      helperId,
      '/source/path',
      'file',
      `cannot open ${JSON.stringify(path)} (${typeof code === 'string' ? code : 'error'})`,
    );
  }
  const { size } = await handle.stat();
  return sliceReader(
    size,
    partSize,
    async (start, end) => {
      const buffer = new Uint8Array(end - start);
      let filled = 0;
      while (filled < buffer.length) {
        const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, start + filled);
        if (bytesRead === 0) throw new ImError(`The file ${path} ended early: it changed while being uploaded.`);
        filled += bytesRead;
      }
      return buffer;
    },
    () => handle.close(),
  );
}

function isWebStream(source: unknown): source is ReadableStream<Uint8Array> {
  return typeof (source as ReadableStream | undefined)?.getReader === 'function';
}

async function* webStreamChunks(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

function streamReader(chunks: AsyncIterator<Uint8Array>, initialPartSize: number): PartReader {
  let pending: Uint8Array | undefined; // bytes read past the end of the previous part
  let ended = false;
  let partNumber = 0;
  const sizing = new PartSizing(initialPartSize);
  const fill = async (): Promise<Uint8Array | null> => {
    const partSize = sizing.take();
    const part = new Uint8Array(partSize);
    let filled = 0;
    while (filled < partSize) {
      if (!pending || pending.length === 0) {
        if (ended) break;
        const { done, value } = await chunks.next();
        if (done) {
          ended = true;
          break;
        }
        pending = value instanceof Uint8Array ? value : new Uint8Array(value as ArrayBuffer);
      }
      const take = Math.min(partSize - filled, pending.length);
      part.set(pending.subarray(0, take), filled);
      filled += take;
      pending = pending.subarray(take);
    }
    if (filled === 0 && partNumber > 0) return null;
    partNumber++;
    return filled === partSize ? part : part.slice(0, filled);
  };
  return {
    get partSize() {
      return sizing.size;
    },
    setPartSize: (n) => sizing.set(n),
    size: undefined,
    async next() {
      const bytes = await fill();
      return bytes ? { partNumber, bytes } : null;
    },
    async skip() {
      return (await fill()) !== null;
    },
    async close() {
      await chunks.return?.();
    },
  };
}
