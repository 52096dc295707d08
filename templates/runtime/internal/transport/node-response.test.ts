import { describe, expect, test } from 'vitest';
import { NodeResponseHeaders } from './node-response.js';

describe('NodeResponseHeaders', () => {
  test('forEach gives the names in sort() order (as WHATWG Headers does), lists joined, whatever order they came in', () => {
    const names = [
      'x-request-id',
      'content-type',
      'set-cookie',
      'a',
      'z-last',
      'retry-after',
      'content-length',
      'b2',
      'b10',
    ];
    const raw: Record<string, string | string[]> = {};
    for (const n of names) raw[n] = n === 'set-cookie' ? ['one=1', 'two=2'] : `v-${n}`;
    const seen: [string, string][] = [];
    new NodeResponseHeaders(raw).forEach((value, name) => seen.push([name, value]));
    expect(seen.map(([n]) => n)).toEqual([...names].sort());
    expect(Object.fromEntries(seen)['set-cookie']).toBe('one=1, two=2');
    expect(Object.fromEntries(seen)['x-request-id']).toBe('v-x-request-id');
  });

  test('forEach of one name, of none', () => {
    const one: string[] = [];
    new NodeResponseHeaders({ only: 'x' }).forEach((_, n) => one.push(n));
    expect(one).toEqual(['only']);
    let calls = 0;
    new NodeResponseHeaders({}).forEach(() => calls++);
    expect(calls).toBe(0);
  });
});
