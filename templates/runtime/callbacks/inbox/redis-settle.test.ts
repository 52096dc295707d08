/**
 * The order of stream entry ids the settles use for each consumer's range (XPENDING from the
 * lowest to the highest id of its events): numeric by milliseconds, then by sequence.
 */
import { describe, expect, it } from 'vitest';
import { entryBefore } from './redis-settle.js';

const asNumbers = (id: string): [bigint, bigint] => {
  const [ms = '0', seq = '0'] = id.split('-');
  return [BigInt(ms), BigInt(seq)];
};
const before = (a: string, b: string): boolean => {
  const [am, as] = asNumbers(a);
  const [bm, bs] = asNumbers(b);
  return am < bm || (am === bm && as < bs);
};

describe('entryBefore', () => {
  it('orders by milliseconds, then sequence, as numbers (not as text)', () => {
    expect(entryBefore('999-0', '1000-0')).toBe(true);
    expect(entryBefore('1000-0', '999-0')).toBe(false);
    expect(entryBefore('1700000000000-9', '1700000000000-10')).toBe(true);
    expect(entryBefore('1700000000000-10', '1700000000000-9')).toBe(false);
    expect(entryBefore('1700000000000-5', '1700000000000-5')).toBe(false);
    expect(entryBefore('1700000000001-0', '1700000000000-99')).toBe(false);
    expect(entryBefore('1700000000000-99', '1700000000001-0')).toBe(true);
  });

  it('agrees with a BigInt comparison on 20,000 random pairs of near ids', () => {
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const id = () => `${1_700_000_000_000 + rand(3) * 10 ** rand(4)}-${rand(3) === 0 ? rand(10) : rand(200)}`;
    for (let i = 0; i < 20_000; i++) {
      const [a, b] = [id(), id()];
      expect(entryBefore(a, b), `${a} < ${b}`).toBe(before(a, b));
    }
  });
});
