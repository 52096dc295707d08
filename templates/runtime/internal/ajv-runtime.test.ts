import { describe, expect, test } from 'vitest';
import { ajvFormats, isDateTime } from './ajv-formats.js';
import { ajvDeepEqual, ajvNestErrors, ajvUcs2length } from './ajv-runtime.js';

describe('ajv-runtime helpers', () => {
  test('ucs2length counts code points', () => {
    expect(ajvUcs2length('')).toBe(0);
    expect(ajvUcs2length('abc')).toBe(3);
    expect(ajvUcs2length('😀a')).toBe(2);
    expect(ajvUcs2length('\ud800')).toBe(1); // lone surrogate
  });

  test('deepEqual on JSON values', () => {
    expect(ajvDeepEqual({ a: [1, { b: null }] }, { a: [1, { b: null }] })).toBe(true);
    expect(ajvDeepEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(ajvDeepEqual([1, 2], { 0: 1, 1: 2 })).toBe(false);
    expect(ajvDeepEqual(NaN, NaN)).toBe(true);
    expect(ajvDeepEqual(0, '0')).toBe(false);
  });

  test.each([
    ['2025-01-31T12:00:00Z', true],
    ['2025-01-31t12:00:00z', true],
    ['2025-01-31 12:00:00+08:00', true],
    ['2024-02-29T00:00:00.123456-05:30', true],
    ['2016-12-31T23:59:60Z', true],
    ['2016-12-31T15:59:60-08:00', true],
    ['2025-02-29T00:00:00Z', false],
    ['1900-02-29T00:00:00Z', false],
    ['2025-04-31T00:00:00Z', false],
    ['2025-13-01T00:00:00Z', false],
    ['2025-01-31T24:00:00Z', false],
    ['2025-01-31T12:00:60Z', false],
    ['2025-01-31T12:00:00', false],
    ['2025-01-31', false],
    ['2025-01-31T12:00:00+24:00', false],
    ['tomorrow', false],
  ])('isDateTime(%s) = %s', (value, want) => {
    expect(isDateTime(value)).toBe(want);
    expect(ajvFormats['date-time']!.validate(value)).toBe(want);
  });
});

describe('registry formats (given/want)', () => {
  const cases: [format: string, value: string | number, want: boolean][] = [
    ['date', '2024-02-29', true],
    ['date', '2025-02-29', false],
    ['date', '2025-1-01', false],
    ['time', '12:30:00Z', true],
    ['time', '23:59:60+00:00', true],
    ['time', '12:30:00', false],
    ['time', '25:00:00Z', false],
    ['duration', 'P1DT2H', true],
    ['duration', 'P2W', true],
    ['duration', 'PT', false],
    ['duration', 'P', false],
    ['duration', '1D', false],
    ['email', 'ann@example.com', true],
    ['email', 'a.b+c@sub.example.org', true],
    ['email', 'ann@', false],
    ['email', 'ann example.com', false],
    ['email', 'ann@@example.com', false],
    ['idn-email', '用户@例子.广告', true],
    ['idn-email', 'no at sign', false],
    ['hostname', 'example.com', true],
    ['hostname', 'a-b.c', true],
    ['hostname', '-bad.com', false],
    ['hostname', 'a'.repeat(64) + '.com', false],
    ['idn-hostname', '例子.广告', true],
    ['idn-hostname', 'has space.com', false],
    ['ipv4', '192.168.0.1', true],
    ['ipv4', '256.1.1.1', false],
    ['ipv4', '01.1.1.1', false],
    ['ipv4', '1.1.1', false],
    ['ipv6', '::1', true],
    ['ipv6', '2001:db8::8a2e:370:7334', true],
    ['ipv6', '::ffff:192.0.2.1', true],
    ['ipv6', '1:2:3:4:5:6:7:8', true],
    ['ipv6', '1:2:3:4:5:6:7', false],
    ['ipv6', '1::2::3', false],
    ['ipv6', '12345::', false],
    ['ipv6', '1.2.3.4::', false],
    ['ipv6', 'g::1', false],
    ['uri', 'https://example.com/a?b=c#d', true],
    ['uri', 'urn:isbn:0451450523', true],
    ['uri', '/relative/path', false],
    ['uri', 'http://exa mple.com', false],
    ['uri', 'http://x/%zz', false],
    ['uri', 'http://例子.广告', false],
    ['uri-reference', '/relative/path?x=1', true],
    ['uri-reference', '#frag', true],
    ['uri-reference', 'a b', false],
    ['iri', 'http://例子.广告/路径', true],
    ['iri', 'no-scheme', false],
    ['uuid', '123e4567-e89b-12d3-a456-426614174000', true],
    ['uuid', '123e4567e89b12d3a456426614174000', false],
    ['json-pointer', '/a/b~1c', true],
    ['json-pointer', '', true],
    ['json-pointer', 'a/b', false],
    ['json-pointer', '/a~2', false],
    ['regex', '^[a-z]+$', true],
    ['regex', '([a-z]', false],
    ['byte', 'aGVsbG8=', true],
    ['byte', '', true],
    ['byte', 'aGVsbG8', false],
    ['byte', 'a$==', false],
    ['int32', 2147483647, true],
    ['int32', -2147483648, true],
    ['int32', 2147483648, false],
    ['int32', 1.5, false],
  ];
  test.each(cases)('%s: %j → %s', (format, value, want) => {
    expect(ajvFormats[format]!.validate(value)).toBe(want);
  });
});

describe('ajvNestErrors (errors of a shared component validator)', () => {
  const own = { instancePath: '', schemaPath: '#/required', keyword: 'required', params: { missingProperty: 'a' } };
  const shared = [
    { instancePath: '/body/x', schemaPath: '#/anyOf/0/type', keyword: 'type', params: { type: 'string' } },
    { instancePath: '/body', schemaPath: '#/anyOf', keyword: 'anyOf', params: {} },
  ];
  test('nests each schemaPath under the calling keyword and keeps the rest', () => {
    const out = ajvNestErrors([own], shared, '#/properties/body/x-im-shared');
    expect(out).toEqual([
      own,
      { ...shared[0], schemaPath: '#/properties/body/x-im-shared/anyOf/0/type' },
      { ...shared[1], schemaPath: '#/properties/body/x-im-shared/anyOf' },
    ]);
    // the shared validator's own error objects are not changed (it reuses nothing, but a caller may)
    expect(shared[0]!.schemaPath).toBe('#/anyOf/0/type');
  });
  test('starts the list when the caller had no errors yet', () => {
    expect(ajvNestErrors(null, shared.slice(0, 1), '#/x-im-shared')).toEqual([
      { ...shared[0], schemaPath: '#/x-im-shared/anyOf/0/type' },
    ]);
  });
});
