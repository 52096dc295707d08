/**
 * Piece-by-piece YAML parsing (generator/yaml-chunks.ts): the same value as one whole parse, for
 * the specs and for the constructs where reading in pieces could go wrong; an edit re-parses only
 * its piece; whatever a piece reading cannot judge goes to the whole parse, errors included.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseYamlCached } from '../generator/yaml-chunks.js';
import { syntheticSpec } from '../scripts/bench/synthetic-spec.js';
import { repoRoot } from './helpers/seed.js';

const memoryCache = () => {
  const entries = new Map<string, string>();
  const stats = { misses: 0 };
  return {
    entries,
    stats,
    get: (k: string) => (entries.has(k) ? entries.get(k) : (stats.misses++, undefined)),
    set: (k: string, v: string) => void entries.set(k, v),
  };
};
const read = (p: string) => readFileSync(`${repoRoot}${p}`, 'utf8');

describe('parseYamlCached', () => {
  const specs: [string, string][] = [
    ['spec/openapi.yaml', read('spec/openapi.yaml')],
    ['spec/callbacks.asyncapi.yaml', read('spec/callbacks.asyncapi.yaml')],
    ['test/fixtures/constructs-openapi.yaml', read('test/fixtures/constructs-openapi.yaml')],
    ['test/fixtures/mini-openapi.yaml', read('test/fixtures/mini-openapi.yaml')],
    ['synthetic 2×', syntheticSpec(read('spec/openapi.yaml'), 2).text],
  ];
  it.each(specs)(
    '%s: the same value as a whole parse, without a cache, with an empty one and a full one',
    (_name, text) => {
      const whole = parse(text);
      const cache = memoryCache();
      expect(parseYamlCached(text)).toEqual(whole);
      expect(parseYamlCached(text, cache)).toEqual(whole);
      expect(parseYamlCached(text, cache)).toEqual(whole);
    },
  );

  it('the real spec is read in pieces, and a one-line edit re-parses one piece', () => {
    const text = read('spec/openapi.yaml');
    const cache = memoryCache();
    parseYamlCached(text, cache);
    expect(cache.entries.size).toBeGreaterThan(300);
    const before = cache.stats.misses;
    const edited = text.replace('description: Username.', 'description: The username, edited.');
    expect(parseYamlCached(edited, cache)).toEqual(parse(edited));
    expect(cache.stats.misses - before).toBe(1);
  });

  const tricky: [string, string][] = [
    ['top-level block scalar with key-like lines', 'a: |\n  b: c\n  d: e\nf: 1\n'],
    ['folded scalar under a piece', 'a:\n  b: >\n    x: y\n    z\n  c: 2\n'],
    [
      'list under a key, mappings in the list',
      'tags:\n  - name: A\n    description: x\n  - name: B\npaths:\n  /a:\n    get:\n      x: 1\n',
    ],
    ['plain scalar on the next line', 'a:\n  b:\n    some long\n    text\n  c: d\n'],
    ['empty values and comments', '# lead\na:\n  # inside\n  b:\n  c: ~\nd: # trailing\n  e: 1\n'],
    ['quoted keys and values with colons', '"a: b":\n  \'c\': "d: e"\n  f: g:h\n'],
    ['flow collections', 'a: {b: 1, c: [1, 2]}\nd:\n  e: [x, y]\n'],
    ['numbers, booleans, nulls as keys and values', 'a:\n  200: ok\n  true: yes\n  null: ~\n  1.5: 0x10\n'],
    ['deep nesting past the piece levels', 'a:\n  b:\n    c:\n      d:\n        e: 1\n    f: 2\n'],
  ];
  it.each(tricky)('%s', (_name, text) => {
    expect(parseYamlCached(text, memoryCache())).toEqual(parse(text));
    expect(parseYamlCached(text)).toEqual(parse(text));
  });

  it('a * or & inside a text is no alias: the callbacks spec is read in pieces too', () => {
    const cache = memoryCache();
    const text = read('spec/callbacks.asyncapi.yaml');
    expect(text).toMatch(/ \*Bytes/);
    expect(parseYamlCached(text, cache)).toEqual(parse(text));
    expect(cache.entries.size).toBeGreaterThan(50);
  });

  it('anchors and aliases are read whole (they reach across pieces)', () => {
    const text = 'a:\n  b: &x\n    c: 1\nd:\n  e: *x\n';
    const cache = memoryCache();
    expect(parseYamlCached(text, cache)).toEqual(parse(text));
    expect(cache.entries.size).toBe(0);
  });

  it('a duplicate key or a syntax error throws what the whole parse throws', () => {
    for (const text of [
      'a:\n  b: 1\n  b: 2\n',
      'a:\n  b: 1\nc: [1, 2\n',
      'a:\n  b: "x\n',
      'a:\n  b: 1\n c: 2\n',
      'a:\n  b:\n    c: 1\n   d: 2\n',
      'a: 1\n  b: 2\n',
    ]) {
      let whole: unknown;
      try {
        parse(text);
      } catch (e) {
        whole = (e as Error).message;
      }
      expect(whole, text).toBeDefined();
      expect(() => parseYamlCached(text, memoryCache())).toThrow(whole as string);
    }
  });
});
