import { describe, expect, test } from 'vitest';
import { makeClient, ops, startFakeService } from '../test-support/fake-service.js';
import { bigintsAsNumbers, jsonParseLossless, jsonStringifyLossless } from './lossless-json.js';

describe('lossless JSON for int64', () => {
  test('a big integer parses to a bigint with every digit (JSON.parse would round it)', () => {
    const text = '{"id":9007199254740993,"small":42,"neg":-9223372036854775808,"f":1.5e300,"s":"9007199254740993"}';
    expect(JSON.parse(text).id).toBe(9007199254740992); // the loss this module exists for
    const v = jsonParseLossless(text) as Record<string, unknown>;
    expect(v.id).toBe(9007199254740993n);
    expect(v.neg).toBe(-9223372036854775808n);
    expect(v.small).toBe(42);
    expect(v.f).toBe(1.5e300);
    expect(v.s).toBe('9007199254740993'); // a string stays a string
  });
  test('safe integers and texts without long digit runs parse exactly as JSON.parse', () => {
    for (const text of [
      '[1.12345678901234567890, 12345678901234567890.5, 1e-12345678901234567, 1E+12345678901234567, -0.99999999999999999999]',
      '{"a":[1,2,{"b":"x\\"9007199254740993"}]}',
      '[9007199254740991,-9007199254740991]',
      '"\\u0041"',
      '{"k":"12345678901234567890"}',
    ]) {
      expect(jsonParseLossless(text)).toEqual(JSON.parse(text));
    }
  });
  test('bigints stringify as raw digits and round-trip', () => {
    const body = { id: 9007199254740993n, list: [1n, 2], name: 'a"b' };
    const text = jsonStringifyLossless(body)!;
    expect(text).toBe('{"id":9007199254740993,"list":[1,2],"name":"a\\"b"}');
    expect(jsonParseLossless(text)).toEqual({ id: 9007199254740993n, list: [1, 2], name: 'a"b' });
    expect(jsonStringifyLossless({ a: 1 })).toBe(JSON.stringify({ a: 1 }));
  });
  test('bigintsAsNumbers copies only what holds a bigint', () => {
    const plain = { a: [1, { b: 'x' }] };
    expect(bigintsAsNumbers(plain)).toBe(plain);
    const withBig = { a: [1, { b: 5n }], c: 'd' };
    expect(bigintsAsNumbers(withBig)).toEqual({ a: [1, { b: 5 }], c: 'd' });
    expect(withBig.a[1]).toEqual({ b: 5n }); // the input is not changed
  });
});

test('the client keeps an int64 above 2^53 of a response exact (a bigint, not 9007199254740992) where the spec has int64 fields', async () => {
  const svc = await startFakeService({
    handle: () => ({ status: 200, body: '{"username":"a","created":9007199254740993}' }),
  });
  try {
    const data = (await makeClient(svc.baseUrl).request(
      { ...ops.usersGet, int64Response: true },
      { username: 'a' },
    )) as Record<string, unknown>;
    expect(data.created).toBe(9007199254740993n);
  } finally {
    await svc.close();
  }
});

test('an operation without int64 fields parses as JSON.parse does: a long number in an open field stays a number, so the caller can JSON.stringify the result', async () => {
  const svc = await startFakeService({
    handle: () => ({ status: 200, body: '{"username":"a","extra":12345678901234567890}' }),
  });
  try {
    const data = (await makeClient(svc.baseUrl).request(ops.usersGet, { username: 'a' })) as Record<string, unknown>;
    expect(typeof data.extra).toBe('number');
    expect(() => JSON.stringify(data)).not.toThrow();
  } finally {
    await svc.close();
  }
});

describe('jsonStringifyLossless and look-alike strings', () => {
  test("a caller's string shaped like the bigint marker stays a string; the bigint beside it becomes digits", () => {
    const value = { text: '\u0000bigint:5', other: '\u0000bigint-abcdefghij:7', n: 9007199254740993n };
    const text = jsonStringifyLossless(value)!;
    expect(text).toBe('{"text":"\\u0000bigint:5","other":"\\u0000bigint-abcdefghij:7","n":9007199254740993}');
    expect(JSON.parse(text).text).toBe('\u0000bigint:5');
  });
});

test('jsonParseLossless: a string of the body shaped like a marker stays a string beside a real big integer', () => {
  const parsed = jsonParseLossless('{"s":"\\u0000bigint:5","n":9007199254740993}') as { s: unknown; n: unknown };
  expect(parsed.s).toBe('\u0000bigint:5');
  expect(parsed.n).toBe(9007199254740993n);
});
