import { describe, expect, test } from 'vitest';
import { ValidationError } from '../core/errors.js';
import { ops } from '../test-support/fake-service.js';
import { buildRequest, path } from './request-builder.js';

const prefix = { baseUrl: 'https://api.example.com/base', orgName: 'acme', appName: 'chat' };

describe('path helper', () => {
  test.each([
    ['alice', '/users/alice'],
    ['a/b', '/users/a%2Fb'],
    ['a?b#c', '/users/a%3Fb%23c'],
    ['..a', '/users/..a'],
    ['名前', '/users/%E5%90%8D%E5%89%8D'],
    [42, '/users/42'],
    ['😀', '/users/%F0%9F%98%80'],
  ] as const)('%j → %s', (value, want) => {
    expect(path('users.get', '/users/{username}', { username: value })).toBe(want);
  });

  test.each([
    ['.', 'pathSegment'],
    ['..', 'pathSegment'],
    ['', 'minLength'],
    ['a\nb', 'pattern'],
    ['a\u0000', 'pattern'],
    ['a\u007f', 'pattern'],
    ['a\uD800', 'wellFormed'],
    ['\uDC00b', 'wellFormed'],
    [undefined, 'required'],
    [null, 'required'],
    [{}, 'type'],
    [Number.NaN, 'type'],
  ] as const)('refuses %j (%s) with a ValidationError naming the field', (value, rule) => {
    let err: unknown;
    try {
      path('users.get', '/users/{username}', { username: value });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ValidationError);
    const v = err as ValidationError;
    expect(v.operationId).toBe('users.get');
    expect(v.issues[0]).toMatchObject({ pointer: '/username', rule });
    expect(v.message).toContain('username');
  });
});

describe('buildRequest', () => {
  test('URL is baseUrl + /org/app + path, prefix encoded too', () => {
    const r = buildRequest(ops.usersGet, { username: 'al ice' }, { ...prefix, orgName: 'ac me' });
    expect(r.url).toBe('https://api.example.com/base/ac%20me/chat/users/al%20ice');
    expect(r.body).toBeUndefined();
  });

  test('the encoded /org/app kept per prefix object follows a changed name, and a bad name is refused on every call', () => {
    const p = { ...prefix };
    expect(buildRequest(ops.usersGet, { username: 'a' }, p).pathAndQuery).toBe('/acme/chat/users/a');
    p.appName = 'ch at';
    expect(buildRequest(ops.usersGet, { username: 'a' }, p).pathAndQuery).toBe('/acme/ch%20at/users/a');
    const bad = { ...prefix, orgName: '..' };
    for (let i = 0; i < 2; i++)
      expect(() => buildRequest(ops.usersGet, { username: 'a' }, bad)).toThrow(ValidationError);
  });

  test('query: undefined and null skipped, arrays repeated, booleans as words', () => {
    const r = buildRequest(ops.usersList, { cursor: undefined, limit: 5, tags: ['a', 'b c'], active: false }, prefix);
    expect(r.pathAndQuery).toBe('/acme/chat/users?limit=5&tags=a&tags=b+c&active=false');
  });

  test('query refuses objects', () => {
    expect(() => buildRequest(ops.usersList, { limit: { x: 1 } }, prefix)).toThrow(ValidationError);
  });

  test('body keeps null (tri-state expires_at) and drops undefined', () => {
    const cleared = buildRequest(ops.rtcUpdate, { channel_id: 'c1', expires_at: null, name: undefined }, prefix);
    expect(cleared.body).toBe('{"expires_at":null}');
    const unchanged = buildRequest(ops.rtcUpdate, { channel_id: 'c1', name: 'n' }, prefix);
    expect(JSON.parse(String(unchanged.body ?? ''))).toEqual({ name: 'n' });
    const set = buildRequest(ops.rtcUpdate, { channel_id: 'c1', expires_at: '2030-01-01T00:00:00Z' }, prefix);
    expect(JSON.parse(String(set.body ?? ''))).toEqual({ expires_at: '2030-01-01T00:00:00Z' });
  });

  test('an object-body operation with no fields sends {}', () => {
    expect(buildRequest(ops.usersCreate, {}, prefix).body).toBe('{}');
  });

  test('a body-less operation refuses extra params instead of dropping them', () => {
    expect(() => buildRequest(ops.usersGet, { username: 'a', nickname: 'x' }, prefix)).toThrow(/nickname/);
  });

  test('a token-exchange path written with the prefix is not prefixed twice', () => {
    const op = {
      ...ops.usersCreate,
      id: 'app.token',
      path: '/{org_name}/{app_name}/token',
      isTokenExchange: true,
      auth: false,
    };
    expect(buildRequest(op, {}, prefix).url).toBe('https://api.example.com/base/acme/chat/token');
  });
});

describe('properties (fast-check)', async () => {
  const fc = await import('fast-check');
  test('any path value is either refused or encoded into exactly one segment that decodes back', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string({ unit: 'binary' }),
          fc.constantFrom('.', '..', '', '/', '%2F', '?a=b', '\uD800', 'a\uDC00b', '\uD83D\uDE00'),
        ),
        (value) => {
          let out: string;
          try {
            out = path('users.get', '/users/{username}', { username: value });
          } catch (e) {
            return e instanceof ValidationError;
          }
          const segment = out.slice('/users/'.length);
          return (
            !segment.includes('/') &&
            !segment.includes('?') &&
            !segment.includes('#') &&
            decodeURIComponent(segment) === value &&
            segment !== '.' &&
            segment !== '..'
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});

test('params that cannot be JSON are a ValidationError, not a TypeError; a bigint (int64) goes out as its digits', () => {
  const circular: Record<string, unknown> = {};
  circular.self = circular;
  expect(buildRequest(ops.usersCreate, { username: 'a', n: 9007199254740993n }, prefix).body).toBe(
    '{"username":"a","n":9007199254740993}',
  );
  expect(() => buildRequest(ops.usersCreate, { username: 'a', circular }, prefix)).toThrow(ValidationError);
});
