/**
 * generator/check-schemas.ts with the generator's cache: the meta-schema's passes are kept by
 * the schema's hash, so a warm run neither compiles Ajv's meta-schema nor walks the schemas
 * through it; a schema that fails is checked (and refused) on every run.
 */
import { describe, expect, it } from 'vitest';
import { checkSchemas, meta } from '../../generator/check-schemas.js';
import { checkSchema } from '../../generator/emit/ajv-standalone.js';
import { countingCache } from '../helpers/counting-cache.js';

const docWith = (user: unknown) => ({ openapi: '3.1.0', paths: {}, components: { schemas: { User: user } } });

describe('the meta-schema check through the cache', () => {
  it('a schema that passed is read back on the next run', () => {
    const { cache, counts } = countingCache();
    expect(checkSchemas(docWith({ type: 'object' }), cache)).toEqual([]);
    expect(counts).toEqual({ hits: 0, misses: 1, sets: 1 });
    expect(checkSchemas(docWith({ type: 'object' }), cache)).toEqual([]);
    expect(counts).toEqual({ hits: 1, misses: 1, sets: 1 });
  });

  it('a schema the meta-schema refuses is refused on every run, beside a cached pass', () => {
    const { cache } = countingCache();
    checkSchemas(docWith({ type: 'object' }), cache);
    for (let run = 0; run < 2; run++) {
      const problems = checkSchemas(docWith({ type: 'object', minProperties: -1 }), cache);
      expect(problems.map((p) => p.pointer)).toEqual(['/components/schemas/User/minProperties']);
    }
  });
});

describe("emit's checkSchema shares the meta-schema's Ajv", () => {
  it('refuses a schema that is not JSON Schema 2020-12 and passes one that is', () => {
    expect(() => checkSchema('users.get', { type: 'object', minProperties: -1 })).toThrow(
      /users\.get: the schema to compile is not valid JSON Schema 2020-12/,
    );
    expect(() => checkSchema('users.get', { type: 'object', minProperties: 1 })).not.toThrow();
    // a bound JSON cannot carry (a generator bug, never spec input): refused, as the emitter's own Ajv did
    expect(() => checkSchema('users.get', { type: 'number', maximum: Number.POSITIVE_INFINITY })).toThrow(
      /not valid JSON Schema 2020-12/,
    );
    expect(meta()).toBe(meta());
  });
});
