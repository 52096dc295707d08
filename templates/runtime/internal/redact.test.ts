import { describe, expect, test } from 'vitest';
import { SecretRedactor, maskUrlQuery, redactHeaders } from './redact.js';

describe('maskUrlQuery (the service display rule: every query value shown as ***)', () => {
  test.each([
    ['https://h/o/a/users?cursor=abc&limit=5', 'https://h/o/a/users?cursor=***&limit=***'],
    ['/o/a/users?tags=a&tags=b', '/o/a/users?tags=***&tags=***'],
    ['/o/a/users', '/o/a/users'],
    ['/o/a/users?', '/o/a/users?'],
    ['/o/a/users?flag', '/o/a/users?flag=***'],
    ['https://u:p@h/x?a=1#frag', 'https://***@h/x?a=***'],
    ['not a url ?token=SECRET', 'not a url ?token=***'],
  ])('%s', (input, want) => {
    expect(maskUrlQuery(input)).toBe(want);
  });
});

describe('redactHeaders', () => {
  test('masks authorization and cookies, lower-cases names', () => {
    const h = new Headers({ Authorization: 'Bearer abc', 'Set-Cookie': 'x=1', 'X-Request-Id': 'r1' });
    expect(redactHeaders(h)).toEqual({ authorization: '***', 'set-cookie': '***', 'x-request-id': 'r1' });
    expect(redactHeaders({ 'Proxy-Authorization': 'Basic zzz', accept: 'a' })).toEqual({
      'proxy-authorization': '***',
      accept: 'a',
    });
  });
});

describe('SecretRedactor', () => {
  test('removes known secrets and unknown bearer values from text and values', () => {
    const r = new SecretRedactor();
    r.add('s3cr3t-value');
    expect(r.text('got s3cr3t-value twice: s3cr3t-value')).toBe('got *** twice: ***');
    expect(r.text('Authorization: Bearer abcdefghijk.lmn')).toBe('Authorization: Bearer ***');
    expect(r.value({ a: ['x s3cr3t-value'], client_secret: 'other', password: null })).toEqual({
      a: ['x ***'],
      client_secret: '***',
      password: null,
    });
  });
  test('is bounded', () => {
    const r = new SecretRedactor(2);
    r.add('first-secret');
    r.add('second-secret');
    r.add('third-secret');
    expect(r.text('first-secret second-secret third-secret')).toBe('first-secret *** ***');
  });
});

describe('maskUrlQuery property (fast-check)', async () => {
  const fc = await import('fast-check');
  test('no query value survives', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), fc.stringMatching(/^[0-9][A-Za-z0-9]{5,11}$/), { minKeys: 1 }),
        (query) => {
          const url = `https://h/o/a/x?${new URLSearchParams(query).toString()}`;
          const masked = maskUrlQuery(url);
          return Object.values(query).every((v) => !masked.split('?')[1]?.includes(v));
        },
      ),
    );
  });
});
