// Copied by im-openapi from templates/runtime/internal/request-body.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * Request bodies that are not one JSON object (internal, unstable): binary (streamed, never
 * copied), text, application/x-www-form-urlencoded and multipart/form-data (built by hand as a
 * Blob so that each part's content type, filename and extra headers are exactly the spec's;
 * Blob parts are not copied and fetch streams the Blob).
 */
import type { OperationSpec, RequestBodySpec, ValidationIssue } from '../operation.js';
import { BODY_PARAM } from '../operation.js';
import { ValidationError } from '../core/errors.js';
import { freshDedupeKey } from './dedupe-key.js';
import { toJson } from './request-builder.js';
import type { RequestBodyInit } from './http-attempt.js';

/** What a binary body may be. Buffer is a Uint8Array. Streams and async iterables are sent as they are read. */
export type BinaryInput = Uint8Array | ArrayBuffer | Blob | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

/** A file part of a multipart body: bytes, or bytes with a filename and a content type. */
export type FileInput =
  | Blob
  | Uint8Array
  | ArrayBuffer
  | { data: Blob | Uint8Array | ArrayBuffer; filename?: string; contentType?: string };

export interface EncodedBody {
  body: RequestBodyInit;
  contentType: string;
  /** True when the body is a stream: it can be sent once, so the call is never resent. */
  oneShot: boolean;
}

const bad = (op: OperationSpec, issue: ValidationIssue) => new ValidationError(op.id, [issue]);

/** The body spec that the caller's `contentType` option picks (the first listed by default). */
export function pickBody(
  op: OperationSpec,
  bodies: readonly RequestBodySpec[],
  contentType: string | undefined,
): RequestBodySpec {
  if (contentType === undefined) return bodies[0]!;
  const found = bodies.find((b) => b.contentType === contentType);
  if (found) return found;
  throw bad(op, {
    pointer: '',
    rule: 'contentType',
    message: `the contentType option ${JSON.stringify(contentType)} is not a request body type of ${op.id}`,
    allowed: bodies.map((b) => b.contentType),
  });
}

function isAsyncIterable(v: unknown): v is AsyncIterable<Uint8Array> {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  );
}

/** A ReadableStream that pulls from an async iterable one chunk at a time (no read-ahead). */
function streamOf(source: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  const it = source[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await it.next();
        if (next.done) controller.close();
        else if (next.value instanceof Uint8Array) controller.enqueue(next.value);
        else controller.error(new TypeError('a body stream must yield Uint8Array chunks (Buffer is one)'));
      },
      async cancel(reason) {
        await it.return?.(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

function binaryBody(op: OperationSpec, value: unknown): { body: RequestBodyInit; oneShot: boolean } {
  if (
    value instanceof Uint8Array ||
    value instanceof ArrayBuffer ||
    (typeof Blob !== 'undefined' && value instanceof Blob)
  ) {
    return { body: value as RequestBodyInit, oneShot: false };
  }
  if (typeof ReadableStream !== 'undefined' && value instanceof ReadableStream) return { body: value, oneShot: true };
  if (isAsyncIterable(value)) return { body: streamOf(value), oneShot: true };
  throw bad(op, {
    pointer: `/${BODY_PARAM}`,
    rule: 'type',
    message: `\`${BODY_PARAM}\` must be a Uint8Array (or Buffer), ArrayBuffer, Blob, ReadableStream<Uint8Array> or AsyncIterable<Uint8Array> (got ${value === null ? 'null' : typeof value})`,
  });
}

function fieldText(op: OperationSpec, name: string, v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  throw bad(op, {
    pointer: `/${name}`,
    rule: 'type',
    message: `\`${name}\` must be a string, number or boolean here (got ${v === null ? 'null' : typeof v})`,
  });
}

function formBody(op: OperationSpec, fields: [string, unknown][]): string {
  const search = new URLSearchParams();
  for (const [name, v] of fields) {
    if (Array.isArray(v)) for (const item of v) search.append(name, fieldText(op, name, item));
    else if (typeof v === 'object' && v !== null) {
      // style form, explode true (the encoding default): an object's properties become fields
      for (const [k, x] of Object.entries(v))
        if (x !== undefined && x !== null) search.append(k, fieldText(op, name, x));
    } else search.append(name, fieldText(op, name, v));
  }
  return search.toString();
}

/** `"` and line breaks in a part's name or filename, as the HTML form encoding escapes them. */
const quoted = (s: string) => `"${s.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}"`;

function fileParts(
  op: OperationSpec,
  name: string,
  v: unknown,
): { data: Blob | Uint8Array | ArrayBuffer; filename: string; contentType: string | undefined } {
  if (v instanceof Uint8Array || v instanceof ArrayBuffer) return { data: v, filename: name, contentType: undefined };
  if (v instanceof Blob) {
    const own = (v as unknown as { name?: unknown }).name; // a File has a name
    return { data: v, filename: typeof own === 'string' && own !== '' ? own : name, contentType: v.type || undefined };
  }
  if (typeof v === 'object' && v !== null && 'data' in v) {
    const f = v as { data: unknown; filename?: unknown; contentType?: unknown };
    if (f.data instanceof Uint8Array || f.data instanceof ArrayBuffer || f.data instanceof Blob) {
      return {
        data: f.data,
        filename: typeof f.filename === 'string' ? f.filename : name,
        contentType:
          typeof f.contentType === 'string'
            ? f.contentType
            : f.data instanceof Blob
              ? f.data.type || undefined
              : undefined,
      };
    }
  }
  throw bad(op, {
    pointer: `/${name}`,
    rule: 'type',
    message: `\`${name}\` is a file: give a Blob, Uint8Array, ArrayBuffer or { data, filename?, contentType? }`,
  });
}

const HEADER_TEXT = /^[^\r\n\0]*$/;

function multipartBody(op: OperationSpec, spec: RequestBodySpec, fields: [string, unknown][]): EncodedBody {
  const boundary = `im-openapi-${freshDedupeKey().replace(/[^A-Za-z0-9-]/g, '')}`;
  const parts: BlobPart[] = [];
  const files = new Set(spec.files ?? []);
  const part = (name: string, headers: Record<string, string>, data: BlobPart, filename?: string) => {
    const extra = spec.encoding?.[name]?.headers ?? {};
    let head = `--${boundary}\r\ncontent-disposition: form-data; name=${quoted(name)}${filename !== undefined ? `; filename=${quoted(filename)}` : ''}\r\n`;
    for (const [h, value] of Object.entries({ ...headers, ...extra })) {
      if (!HEADER_TEXT.test(value) || !HEADER_TEXT.test(h))
        throw bad(op, {
          pointer: `/${name}`,
          rule: 'headerValue',
          message: `the part header ${h} of \`${name}\` must not contain CR, LF or NUL`,
        });
      head += `${h}: ${value}\r\n`;
    }
    parts.push(`${head}\r\n`, data, '\r\n');
  };
  for (const [name, v] of fields) {
    const declared = spec.encoding?.[name]?.contentType;
    const items = Array.isArray(v) && (files.has(name) || typeof v[0] !== 'object') ? v : [v];
    for (const item of items) {
      if (files.has(name) || item instanceof Blob || item instanceof Uint8Array || item instanceof ArrayBuffer) {
        const f = fileParts(op, name, item);
        part(
          name,
          { 'content-type': declared ?? f.contentType ?? 'application/octet-stream' },
          f.data as BlobPart,
          f.filename,
        );
      } else if (typeof item === 'object' && item !== null) {
        part(name, { 'content-type': declared ?? 'application/json' }, toJson(op.id, item as Record<string, unknown>));
      } else {
        part(name, declared ? { 'content-type': declared } : {}, fieldText(op, name, item));
      }
    }
  }
  parts.push(`--${boundary}--\r\n`);
  return { body: new Blob(parts), contentType: `multipart/form-data; boundary=${boundary}`, oneShot: false };
}

/** The body of a call in the media type the caller picked; `object` holds the params that are not path/query/header/cookie. */
export function encodeBodyFor(
  op: OperationSpec,
  bodies: readonly RequestBodySpec[],
  object: Record<string, unknown>,
  contentType: string | undefined,
): EncodedBody | undefined {
  const spec = pickBody(op, bodies, contentType);
  if (spec.kind === 'json' && !spec.whole)
    return { body: toJson(op.id, object), contentType: spec.contentType, oneShot: false };
  return encodeBody(op, spec, Object.entries(object));
}

function encodeBody(op: OperationSpec, spec: RequestBodySpec, fields: [string, unknown][]): EncodedBody | undefined {
  if (spec.kind === 'binary' || spec.kind === 'text' || spec.whole) {
    const extra = fields.filter(([name]) => name !== BODY_PARAM);
    if (extra.length) {
      throw new ValidationError(
        op.id,
        extra.map(([name]) => ({
          pointer: `/${name}`,
          rule: 'additionalProperties',
          message: `\`${name}\` is not a parameter of ${op.id} (its ${spec.contentType} body goes in \`${BODY_PARAM}\`)`,
        })),
      );
    }
    const value = fields.find(([name]) => name === BODY_PARAM)?.[1];
    if (value === undefined) return undefined;
    if (spec.kind === 'json') return { body: toJson(op.id, value), contentType: spec.contentType, oneShot: false };
    if (spec.kind === 'text') {
      if (typeof value !== 'string')
        throw bad(op, {
          pointer: `/${BODY_PARAM}`,
          rule: 'type',
          message: `\`${BODY_PARAM}\` must be a string (${spec.contentType})`,
        });
      // fetch sends a string as UTF-8; text/plain without a charset means US-ASCII (RFC 2046), so say it
      return {
        body: value,
        contentType: /;\s*charset=/i.test(spec.contentType) ? spec.contentType : `${spec.contentType}; charset=utf-8`,
        oneShot: false,
      };
    }
    return { ...binaryBody(op, value), contentType: spec.contentType };
  }
  if (spec.kind === 'form') return { body: formBody(op, fields), contentType: spec.contentType, oneShot: false };
  return multipartBody(op, spec, fields);
}
