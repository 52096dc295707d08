import { describe, expect, test } from 'vitest';
import { ajvDeepEqual, ajvFormats, ajvUcs2length, isDateTime } from './ajv-runtime.js';

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
