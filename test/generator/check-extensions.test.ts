/**
 * generator/check-extensions.ts with the generator's cache: a value that passed its schema on an
 * earlier run passes without Ajv (a run after a one-line edit compiles no extension schema), and
 * nothing but passes is ever kept, so a refusal is never skipped.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkExtensions, checkOperationExtensions } from '../../generator/check-extensions.js';
import { countingCache } from '../helpers/counting-cache.js';
import { repoRoot } from '../helpers/seed.js';

const schema = JSON.parse(readFileSync(`${repoRoot}spec/extensions.schema.json`, 'utf8'));

const docWith = (retryClass: unknown, assumed: unknown = 'why') => ({
  openapi: '3.1.0',
  paths: { '/a': { get: { operationId: 'a.get', 'x-retry-class': retryClass, 'x-assumed': assumed } } },
});

describe('extension values through the cache', () => {
  it('a second run over the same values reads every check back and adds nothing', () => {
    const first = countingCache();
    expect(checkExtensions(docWith('Q'), schema, 'openapi', { cache: first.cache })).toEqual([]);
    expect(first.counts.sets).toBe(2);
    const second = countingCache(first.entries);
    expect(checkExtensions(docWith('Q'), schema, 'openapi', { cache: second.cache })).toEqual([]);
    expect(second.counts).toEqual({ hits: 2, misses: 0, sets: 0 });
  });

  it('a value refused is refused again on every run: only passes are kept', () => {
    const { cache, entries } = countingCache();
    checkExtensions(docWith('Q'), schema, 'openapi', { cache });
    for (let run = 0; run < 2; run++) {
      const problems = checkExtensions(docWith('q'), schema, 'openapi', { cache });
      expect(problems.map((p) => [p.pointer, p.rule])).toEqual([['/paths/~1a/get/x-retry-class', 'extension-value']]);
    }
    expect(entries.size).toBe(2);
  });

  it('a pass under one schema is no pass under an edited schema', () => {
    const { cache } = countingCache();
    const loose = structuredClone(schema);
    loose.$defs.operation.properties['x-retry-class'] = { type: 'string' };
    expect(checkExtensions(docWith('q'), loose, 'openapi', { cache })).toEqual([]);
    expect(checkExtensions(docWith('q'), schema, 'openapi', { cache }).map((p) => p.rule)).toEqual(['extension-value']);
  });

  it("an operation's values (checkOperationExtensions) go through the same cache", () => {
    const { cache, counts } = countingCache();
    const ctx = (op: Record<string, unknown>) => ({ op, at: '/paths/~1a/get', id: 'a.get' });
    expect(checkOperationExtensions(ctx({ 'x-retry-class': 'Q' }), cache)).toEqual([]);
    expect(checkOperationExtensions(ctx({ 'x-retry-class': 'Q' }), cache)).toEqual([]);
    expect(counts).toEqual({ hits: 1, misses: 1, sets: 1 });
    expect(checkOperationExtensions(ctx({ 'x-retry-class': 'q' }), cache).map((p) => p.rule)).toEqual([
      'unknown-retry-class',
    ]);
  });
});
