/**
 * The wire side of the model (issue 14 part B), read from the constructs fixture: parameter
 * locations and styles, request bodies by media type, response kinds, and what is refused.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { buildApiModel } from '../../generator/build-model.js';
import { operationSpecOf } from '../../generator/emit/emit-operations.js';
import { bodyKindOf } from '../../generator/build-wire.js';
import { generate } from '../../generator/generate.js';
import { parseSpec } from '../../generator/load-spec.js';
import { SpecError } from '../../generator/spec-error.js';
import { repoRoot } from '../helpers/seed.js';
import { CONSTRUCTS_SOURCE, constructsInput } from './wire-package.js';

const text = readFileSync(`${repoRoot}${CONSTRUCTS_SOURCE}`, 'utf8');
const model = buildApiModel(parseSpec(text, CONSTRUCTS_SOURCE), CONSTRUCTS_SOURCE);
const op = (id: string) => model.operations.find((o) => o.id === id)!;

/** A copy of the fixture with one edit, built into a model (or refused). */
function edited(edit: (doc: any) => void) {
  const doc = parse(text);
  edit(doc);
  return () => buildApiModel(parseSpec(stringify(doc), CONSTRUCTS_SOURCE), CONSTRUCTS_SOURCE);
}
const wirePath = (doc: any, p: string) => doc.paths[`/{org_name}/{app_name}/wire/${p}`];
function refusal(edit: (doc: any) => void): SpecError {
  try {
    edited(edit)();
  } catch (e) {
    if (e instanceof SpecError) return e;
    throw e;
  }
  throw new Error('not refused');
}

describe('parameters', () => {
  it('header and cookie parameters keep their wire names; deprecated and default are recorded', () => {
    const h = op('wire.headers');
    expect(h.headerParams.map((p) => [p.name, p.required, p.explode ?? false])).toEqual([
      ['X-Trace-Id', true, false],
      ['X-Tags', false, false],
      ['X-Meta', false, true],
    ]);
    expect(h.cookieParams.map((p) => p.name)).toEqual(['session', 'prefs']);
    expect(h.queryParams.find((q) => q.name === 'old_flag')?.deprecated).toBe(true);
    expect(h.queryParams.find((q) => q.name === 'limit')?.default).toBe(10);
    expect(h.paramsRequired).toBe(true);
    expect(operationSpecOf(h)).toMatchObject({
      headerParams: ['X-Trace-Id', 'X-Tags', 'X-Meta'],
      explodeHeaders: ['X-Meta'],
      cookieParams: ['session', 'prefs'],
    });
  });

  it('query styles become the runtime table; the default form/explode stays unwritten', () => {
    const spec = operationSpecOf(op('wire.query_styles'));
    expect(spec.queryStyles).toEqual({
      csv_arr: 'formNoExplode',
      space_arr: 'spaceDelimited',
      pipe_arr: 'pipeDelimited',
      deep: 'deepObject',
      form_obj: 'form',
      csv_obj: 'formNoExplode',
    });
    expect(spec.allowEmpty).toEqual(['maybe_empty']);
  });

  it("a plain JSON operation gets none of the new table fields (the real spec's table does not change)", () => {
    const spec = operationSpecOf(op('wire.put_thing'));
    for (const key of ['queryStyles', 'allowEmpty', 'headerParams', 'cookieParams', 'requestBodies', 'response'])
      expect(spec).not.toHaveProperty(key);
  });

  it('a parameter called `body` is fine where no binary or text body takes the name', () => {
    expect(() =>
      edited((d) =>
        wirePath(d, 'headers').get.parameters.push({ name: 'body', in: 'query', schema: { type: 'string' } }),
      )(),
    ).not.toThrow();
  });

  it.each([
    [
      'a header parameter named like a header the client owns (any case)',
      (d: any) =>
        wirePath(d, 'headers').get.parameters.push({ name: 'Content-Type', in: 'header', schema: { type: 'string' } }),
      'header-parameter-reserved',
      /header parameter "Content-Type" would overwrite a header the client sends itself/,
    ],
    [
      'Authorization',
      (d: any) =>
        wirePath(d, 'headers').get.parameters.push({ name: 'authorization', in: 'header', schema: { type: 'string' } }),
      'header-parameter-reserved',
      /authorization/,
    ],
    [
      'the dedupe header',
      (d: any) => {
        const g = wirePath(d, 'headers').get;
        g['x-retry-class'] = 'D';
        g['x-dedupe-key'] = { in: 'header', name: 'Idempotency-Key' };
        g.parameters.push({ name: 'idempotency-key', in: 'header', schema: { type: 'string' } });
      },
      'header-parameter-reserved',
      /idempotency-key/,
    ],
    [
      'a parameter called like the reserved body field (binary body)',
      (d: any) =>
        (wirePath(d, 'raw/{name}').put.parameters = [{ name: 'body', in: 'query', schema: { type: 'string' } }]),
      'param-name-reserved',
      /wire.upload_raw: the query parameter "body" clashes with the params field that carries the application\/octet-stream body/,
    ],
    [
      'a parameter called like the reserved body field (one of several media types)',
      (d: any) =>
        wirePath(d, 'either').post.parameters.push({ name: 'body', in: 'header', schema: { type: 'string' } }),
      'param-name-reserved',
      /the header parameter "body" clashes with the params field that carries the text\/plain body/,
    ],
    [
      'a header param that clashes with a body field',
      (d: any) =>
        (wirePath(d, 'urlencoded').post.parameters = [{ name: 'name', in: 'header', schema: { type: 'string' } }]),
      'param-name-clash',
      /"name" is both a header and a body field \(application\/x-www-form-urlencoded\)/,
    ],
    [
      'style label on a path parameter',
      (d: any) => (wirePath(d, 'raw/{name}').parameters[2].style = 'label'),
      'parameter-style',
      /style "label" is not supported \(fix: remove the style \(simple, the default, is the one supported\)\)/,
    ],
    [
      'style matrix on a query parameter',
      (d: any) => (wirePath(d, 'query').get.parameters[0].style = 'matrix'),
      'parameter-style',
      /style "matrix" is not supported in the query \(fix: use one of form, spaceDelimited, pipeDelimited, deepObject\)/,
    ],
    [
      'deepObject without explode',
      (d: any) => (wirePath(d, 'query').get.parameters[4].explode = false),
      'parameter-style',
      /deepObject needs explode: true/,
    ],
    [
      'a parameter in an unknown place',
      (d: any) => wirePath(d, 'headers').get.parameters.push({ name: 'x', in: 'body', schema: {} }),
      'parameter-location',
      /in "body" is not supported \(fix: write in: path, query, header or cookie\)/,
    ],
  ])('refuses %s', (_name, edit, rule, message) => {
    const error = refusal(edit);
    expect(error.rule).toBe(rule);
    expect(error.message).toMatch(message);
  });
});

describe('request bodies', () => {
  it('each media type has its kind; binary and text carry the payload in `body`', () => {
    expect(op('wire.upload_raw').body).toMatchObject({
      contentType: 'application/octet-stream',
      kind: 'binary',
      fields: [{ name: 'body', required: true }],
    });
    expect(op('wire.upload_image').body).toMatchObject({ contentType: 'image/png', kind: 'binary' });
    expect(op('wire.post_text').body).toMatchObject({
      contentType: 'text/plain',
      kind: 'text',
      fields: [{ name: 'body', schema: { type: 'string', maxLength: 1000 } }],
    });
    expect(op('wire.submit_form').body).toMatchObject({ kind: 'form', open: false });
    expect(op('wire.post_either').bodies.map((b) => [b.contentType, b.kind])).toEqual([
      ['application/json', 'json'],
      ['text/plain', 'text'],
      ['application/octet-stream', 'binary'],
    ]);
  });

  it("multipart: file fields (format binary, contentMediaType) and the spec's encoding per property", () => {
    const body = op('wire.upload_form').body!;
    expect(body.fields.map((f) => [f.name, f.file ?? null])).toEqual([
      ['file', 'one'],
      ['extras', 'many'],
      ['caption', null],
      ['meta', null],
      ['count', null],
    ]);
    expect(body.encoding).toEqual({ file: { contentType: 'image/png', headers: { 'X-Checksum': 'fixed-by-spec' } } });
    expect(operationSpecOf(op('wire.upload_form')).requestBodies).toEqual([
      {
        contentType: 'multipart/form-data',
        kind: 'multipart',
        fields: ['file', 'extras', 'caption', 'meta', 'count'],
        files: ['file', 'extras'],
        encoding: { file: { contentType: 'image/png', headers: { 'X-Checksum': 'fixed-by-spec' } } },
      },
    ]);
  });

  it('XML and other text types are text, any other media type bytes (issue 26: never refused)', () => {
    expect(
      ['application/xml', 'application/atom+xml', 'text/csv', 'text/plain; charset=utf-8'].map(bodyKindOf),
    ).toEqual(['text', 'text', 'text', 'text']);
    expect(['application/sdp', 'application/x-custom', 'image/png'].map(bodyKindOf)).toEqual([
      'binary',
      'binary',
      'binary',
    ]);
  });

  it('a JSON body that is not an object is carried whole under `body` (issue 26)', () => {
    const m = edited(
      (d) =>
        (wirePath(d, 'either').post.requestBody.content['application/json'].schema = {
          type: 'array',
          items: { type: 'string' },
        }),
    )();
    const either = m.operations.find((o) => o.id.endsWith('either') || o.path.endsWith('/wire/either'))!;
    expect(either.body).toMatchObject({
      kind: 'json',
      whole: true,
      fields: [{ name: 'body', schema: { type: 'array', items: { type: 'string' } } }],
    });
    expect(operationSpecOf(either).requestBodies?.[0]).toMatchObject({ kind: 'json', whole: true });
  });
});

describe('responses', () => {
  it('binary, text, empty and per-status unions', () => {
    expect(op('wire.download').responseKind).toBe('binary');
    expect(op('wire.get_text').responseKind).toBe('text');
    expect(op('wire.delete_thing').responseKind).toBe('empty');
    expect(op('wire.put_thing').statusResponses?.map((r) => [r.status, r.kind, r.schema.$ref])).toEqual([
      [200, 'json', '#/components/schemas/WireExisting'],
      [201, 'json', '#/components/schemas/WireCreated'],
    ]);
    expect(operationSpecOf(op('wire.put_thing')).responseByStatus).toEqual({ 200: 'json', 201: 'json' });
    expect(operationSpecOf(op('wire.download')).response).toBe('binary');
  });

  it('several success statuses with one schema keep plain data (no union)', () => {
    const m = edited((d) => (wirePath(d, 'big').get.responses['202'] = wirePath(d, 'big').get.responses['200']))();
    const big = m.operations.find((o) => o.id === 'wire.big_json')!;
    expect(big.successStatuses).toEqual([200, 202]);
    expect(big.statusResponses).toBeUndefined();
  });
});

describe('docs: deprecated and default', async () => {
  const { files } = await generate(constructsInput());
  it('@deprecated on the operation (method and function) and on parameters; @default on parameters', () => {
    expect(files.get('src/funcs/wire.ts')).toMatch(
      /The spec marks this operation deprecated\.\s*\*\/\s*export function wireOldOp/,
    );
    expect(files.get('src/resources/wire.ts')).toMatch(
      /@deprecated The spec marks this operation deprecated\.\s*\*\/\s*oldOp\(/,
    );
    expect(files.get('src/types/wire.ts')).toMatch(
      /Replaced by X-Meta\. \(query\)\s*\*\s*@deprecated\s*\*\/\s*old_flag\?: boolean;/,
    );
    expect(files.get('src/types/wire.ts')).toMatch(/@default 10\s*\*\/\s*limit\?: number;/);
  });
  it('api.md and the README table mark the deprecated operation', () => {
    expect(files.get('api.md')).toMatch(/`client\.wire\.oldOp\(\)`.*`wireOldOp\(\)` \*\*deprecated\*\*/);
    expect(files.get('README.md')).toMatch(/\| `wire\.oldOp` \*\*deprecated\*\* +\| `GET \/wire\/old` +\| Q +\|/);
    expect(files.get('README.md')).not.toMatch(/`wire\.download` \*\*deprecated\*\*/);
  });
});
