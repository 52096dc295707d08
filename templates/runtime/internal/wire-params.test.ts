import { describe, expect, test } from 'vitest';
import { ValidationError } from '../core/errors.js';
import type { OperationSpec, QueryStyle } from '../operation.js';
import { buildQuery, buildRequest } from './request-builder.js';
import { wireCodec } from './wire-codec.js';
import { paramHeaders } from './wire-params.js';

const base = {
  id: 'wire.t',
  method: 'GET',
  path: '/t',
  auth: true,
  pathParams: [],
  body: 'none',
  bodyFields: [],
  retryClass: 'Q',
  successStatuses: [200],
} as const;
const op = (extra: Partial<OperationSpec>): OperationSpec => ({ ...base, queryParams: [], wire: wireCodec, ...extra });
const queryOp = (style?: QueryStyle): OperationSpec =>
  op({ queryParams: ['color'], ...(style ? { queryStyles: { color: style } } : {}) });

const blue = 'blue';
const list = ['blue', 'black', 'brown'];
const rgb = { R: 100, G: 200, B: 150 };

/**
 * The oracle: OpenAPI 3.1.1, 4.8.12.4 "Style Examples" (name `color`). `undefined` style =
 * form with explode true (the default path, URLSearchParams). Rows the spec marks n/a are absent.
 */
const TABLE: [string, QueryStyle | undefined, unknown, string][] = [
  ['form explode', undefined, blue, 'color=blue'],
  ['form explode', undefined, list, 'color=blue&color=black&color=brown'],
  ['form explode (object)', 'form', rgb, 'R=100&G=200&B=150'],
  ['form explode (object, written)', 'form', list, 'color=blue&color=black&color=brown'],
  ['form no explode', 'formNoExplode', blue, 'color=blue'],
  ['form no explode', 'formNoExplode', list, 'color=blue,black,brown'],
  ['form no explode', 'formNoExplode', rgb, 'color=R,100,G,200,B,150'],
  ['spaceDelimited', 'spaceDelimited', list, 'color=blue%20black%20brown'],
  ['spaceDelimited', 'spaceDelimited', rgb, 'color=R%20100%20G%20200%20B%20150'],
  ['pipeDelimited', 'pipeDelimited', list, 'color=blue|black|brown'],
  ['pipeDelimited', 'pipeDelimited', rgb, 'color=R|100|G|200|B|150'],
  ['deepObject', 'deepObject', rgb, 'color[R]=100&color[G]=200&color[B]=150'],
];

describe('query styles (OpenAPI style examples table)', () => {
  test.each(TABLE)('%s %j → %s', (_name, style, value, want) => {
    expect(buildQuery(queryOp(style), { color: value })).toBe(`?${want}`);
  });

  test('undefined and null are omitted in every style', () => {
    for (const style of [
      undefined,
      'form',
      'formNoExplode',
      'spaceDelimited',
      'pipeDelimited',
      'deepObject',
    ] as const) {
      expect(buildQuery(queryOp(style), { color: undefined })).toBe('');
      expect(buildQuery(queryOp(style), { color: null })).toBe('');
    }
  });

  test('a delimiter inside a value is percent-encoded, so the service can split', () => {
    expect(buildQuery(queryOp('formNoExplode'), { color: ['a,b', 'c d'] })).toBe('?color=a%2Cb,c%20d');
    expect(buildQuery(queryOp('pipeDelimited'), { color: ['a|b', 'c'] })).toBe('?color=a%7Cb|c');
    expect(buildQuery(queryOp('deepObject'), { color: { 'x]y': '&=' } })).toBe('?color[x%5Dy]=%26%3D');
  });

  test('styled and default parameters together keep every pair', () => {
    const o = op({ queryParams: ['a', 'color'], queryStyles: { color: 'pipeDelimited' } });
    expect(buildQuery(o, { a: ['1', '2'], color: list })).toBe('?a=1&a=2&color=blue|black|brown');
  });

  test('deepObject refuses a non-object; the default style still refuses objects it was not told about', () => {
    expect(() => buildQuery(queryOp('deepObject'), { color: 'blue' })).toThrow(/style deepObject\) must be an object/);
    expect(() => buildQuery(queryOp(), { color: rgb })).toThrow(ValidationError);
  });

  test('nested values are refused with the field named', () => {
    expect(() => buildQuery(queryOp('formNoExplode'), { color: [{ a: 1 }] })).toThrow(
      /query parameter `color` must hold strings/,
    );
  });
});

test('an entry with query styles but no wire codec (a stale table) is refused with "regenerate"', () => {
  expect(() => buildQuery({ ...queryOp('deepObject'), wire: undefined }, { color: rgb })).toThrow(
    /no wire codec in its table entry \(regenerate the package\)/,
  );
});

describe('allowEmptyValue', () => {
  test('an empty string goes out as `name=` only when the parameter allows it', () => {
    const o = op({ queryParams: ['q'], allowEmpty: ['q'] });
    expect(buildQuery(o, { q: '' })).toBe('?q=');
  });
  test('elsewhere an empty string is refused (not silently dropped), naming the field and the rule', () => {
    const o = op({ queryParams: ['q'] });
    const err = (() => {
      try {
        buildQuery(o, { q: '' });
      } catch (e) {
        return e as ValidationError;
      }
    })();
    expect(err).toBeInstanceOf(ValidationError);
    expect(err!.issues).toEqual([expect.objectContaining({ pointer: '/q', rule: 'allowEmptyValue' })]);
  });
});

describe('header and cookie parameters', () => {
  const h = op({
    headerParams: ['X-Trace-Id', 'X-Tags', 'X-Meta', 'X-Flat'],
    explodeHeaders: ['X-Meta'],
    cookieParams: ['session', 'prefs', 'pos'],
  });

  test('style simple: scalars, arrays a,b; objects k,v (explode false) or k=v (explode true); names lower-cased', () => {
    expect(
      paramHeaders(h, {
        'X-Trace-Id': 'abc',
        'X-Tags': ['a', 'b'],
        'X-Meta': { a: 'x', b: 2 },
        'X-Flat': { a: 'x', b: 2 },
      }),
    ).toEqual({
      'x-trace-id': 'abc',
      'x-tags': 'a,b',
      'x-meta': 'a=x,b=2',
      'x-flat': 'a,x,b,2',
    });
  });

  test('cookies: one cookie header, `name=value; name=value`, values percent-encoded, arrays a,b', () => {
    expect(paramHeaders(h, { session: 's 1;x', prefs: ['dark', 'wide'], pos: { x: 1 } })).toEqual({
      cookie: 'session=s%201%3Bx; prefs=dark,wide; pos=x,1',
    });
  });

  test('nothing given → no headers at all (a JSON op pays nothing)', () => {
    expect(paramHeaders(h, {})).toBeUndefined();
  });

  test('CR/LF and empty values are refused before sending, naming the field', () => {
    expect(() => paramHeaders(h, { 'X-Trace-Id': 'a\r\nSet-Cookie: x' })).toThrow(
      /`X-Trace-Id` must not contain CR, LF or NUL/,
    );
    expect(() => paramHeaders(h, { 'X-Trace-Id': '' })).toThrow(/`X-Trace-Id` must not be empty/);
  });

  test('header and cookie params do not leak into a JSON body', () => {
    const post = { ...h, method: 'POST', body: 'object', bodyFields: ['name'] } as const satisfies OperationSpec;
    const built = buildRequest(
      post,
      { 'X-Trace-Id': 't', session: 's', name: 'n' },
      { baseUrl: 'http://x', orgName: 'o', appName: 'a' },
    );
    expect(built.body).toBe('{"name":"n"}');
    expect(built.headers).toEqual({ 'x-trace-id': 't', cookie: 'session=s' });
  });
});
