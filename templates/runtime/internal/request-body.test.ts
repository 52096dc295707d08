import { describe, expect, test } from 'vitest';
import { ValidationError } from '../core/errors.js';
import type { OperationSpec, RequestBodySpec } from '../operation.js';
import { encodeBodyFor, pickBody } from './request-body.js';

const op: OperationSpec = {
  id: 'wire.t',
  method: 'POST',
  path: '/t',
  auth: true,
  pathParams: [],
  queryParams: [],
  body: 'object',
  bodyFields: [],
  retryClass: 'I',
  successStatuses: [200],
};
const multipart: RequestBodySpec = {
  contentType: 'multipart/form-data',
  kind: 'multipart',
  fields: ['file', 'note'],
  files: ['file'],
  encoding: { file: { headers: { 'X-Sum': 'abc' } } },
};
const text = async (body: BodyInit) => new Response(body).text();

describe('picking the media type', () => {
  const bodies: RequestBodySpec[] = [
    { contentType: 'application/json', kind: 'json' },
    { contentType: 'text/plain', kind: 'text' },
  ];
  test('default is the first listed; a listed one is picked; an unlisted one is refused, listing the allowed', () => {
    expect(pickBody(op, bodies, undefined).contentType).toBe('application/json');
    expect(pickBody(op, bodies, 'text/plain').kind).toBe('text');
    const error = (() => {
      try {
        pickBody(op, bodies, 'application/xml');
      } catch (e) {
        return e as ValidationError;
      }
    })();
    expect(error?.issues[0]).toMatchObject({ rule: 'contentType', allowed: ['application/json', 'text/plain'] });
  });
});

describe('encoding', () => {
  test('JSON through the same door; text must be a string; extra fields beside a text body are refused', async () => {
    expect(
      encodeBodyFor(op, [{ contentType: 'application/merge-patch+json', kind: 'json' }], { a: 1 }, undefined),
    ).toEqual({ body: '{"a":1}', contentType: 'application/merge-patch+json', oneShot: false });
    const t: RequestBodySpec[] = [{ contentType: 'text/plain', kind: 'text' }];
    expect(encodeBodyFor(op, t, { body: 'hi' }, undefined)).toEqual({
      body: 'hi',
      contentType: 'text/plain; charset=utf-8',
      oneShot: false,
    });
    expect(() => encodeBodyFor(op, t, { body: 3 }, undefined)).toThrow(/`body` must be a string/);
    expect(() => encodeBodyFor(op, t, { body: 'x', other: 1 }, undefined)).toThrow(
      /`other` is not a parameter of wire.t \(its text\/plain body goes in `body`\)/,
    );
  });

  test('binary: bytes and Blobs are replayable; streams and async iterables are one-shot', () => {
    const b: RequestBodySpec[] = [{ contentType: 'application/octet-stream', kind: 'binary' }];
    expect(encodeBodyFor(op, b, { body: new Uint8Array(2) }, undefined)?.oneShot).toBe(false);
    expect(encodeBodyFor(op, b, { body: new Blob(['x']) }, undefined)?.oneShot).toBe(false);
    expect(encodeBodyFor(op, b, { body: new ReadableStream() }, undefined)?.oneShot).toBe(true);
    const fromIterable = encodeBodyFor(
      op,
      b,
      {
        body: (async function* () {
          yield new Uint8Array(1);
        })(),
      },
      undefined,
    );
    expect([fromIterable?.oneShot, fromIterable?.body instanceof ReadableStream]).toEqual([true, true]);
  });

  test('an async iterable that yields a non-Uint8Array errors the stream with a clear message', async () => {
    const b: RequestBodySpec[] = [{ contentType: 'application/octet-stream', kind: 'binary' }];
    const encoded = encodeBodyFor(
      op,
      b,
      {
        body: (async function* () {
          yield 'text' as unknown as Uint8Array;
        })(),
      },
      undefined,
    )!;
    await expect(text(encoded.body)).rejects.toThrow(/must yield Uint8Array chunks/);
  });

  test('urlencoded: arrays repeat, objects spread (form, explode), nested values refused', () => {
    const f: RequestBodySpec[] = [
      { contentType: 'application/x-www-form-urlencoded', kind: 'form', fields: ['a', 'tags', 'o'] },
    ];
    expect(encodeBodyFor(op, f, { a: 'x y', tags: [1, true], o: { k: 'v' } }, undefined)?.body).toBe(
      'a=x+y&tags=1&tags=true&k=v',
    );
    expect(() => encodeBodyFor(op, f, { tags: [{ deep: 1 }] }, undefined)).toThrow(ValidationError);
  });

  test("multipart: names and filenames escaped, the spec's part headers added, a CR/LF in them refused", async () => {
    const encoded = encodeBodyFor(
      op,
      [multipart],
      { file: { data: new Uint8Array([65]), filename: 'a"\r\nb.bin' }, note: 'n' },
      undefined,
    )!;
    const boundary = /boundary=(.+)$/.exec(encoded.contentType)![1];
    expect(await text(encoded.body)).toBe(
      `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="a%22%0D%0Ab.bin"\r\ncontent-type: application/octet-stream\r\nX-Sum: abc\r\n\r\nA\r\n` +
        `--${boundary}\r\ncontent-disposition: form-data; name="note"\r\n\r\nn\r\n--${boundary}--\r\n`,
    );
    const bad: RequestBodySpec = { ...multipart, encoding: { file: { headers: { 'X-Sum': 'a\r\nInjected: 1' } } } };
    expect(() => encodeBodyFor(op, [bad], { file: new Uint8Array(1) }, undefined)).toThrow(
      /part header X-Sum of `file` must not contain CR, LF or NUL/,
    );
    expect(() => encodeBodyFor(op, [multipart], { file: 'not bytes' }, undefined)).toThrow(
      /`file` is a file: give a Blob, Uint8Array, ArrayBuffer or \{ data, filename\?, contentType\? \}/,
    );
  });
});
