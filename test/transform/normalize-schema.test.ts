/** The 3.0 → 3.1 normalisation pass (generator/normalize-schema.ts): given/want per construct. */
import { describe, expect, it } from 'vitest';
import { normalizeDocument, normalizeSchema } from '../../generator/normalize-schema.js';
import { SpecError } from '../../generator/spec-error.js';
import type { GeneratorWarning } from '../../generator/model.js';

describe('normalizeSchema', () => {
  const cases: [string, unknown, unknown][] = [
    ['nullable type', { type: 'string', nullable: true }, { type: ['string', 'null'] }],
    ['nullable type list', { type: ['string', 'integer'], nullable: true }, { type: ['string', 'integer', 'null'] }],
    [
      'nullable enum gets null too',
      { type: 'string', enum: ['a', 'b'], nullable: true },
      { type: ['string', 'null'], enum: ['a', 'b', null] },
    ],
    [
      'nullable $ref → anyOf, annotations stay outside',
      { $ref: '#/components/schemas/X', nullable: true, description: 'd' },
      { description: 'd', anyOf: [{ $ref: '#/components/schemas/X' }, { type: 'null' }] },
    ],
    [
      'nullable allOf → anyOf',
      { allOf: [{ $ref: '#/components/schemas/X' }], nullable: true },
      { anyOf: [{ allOf: [{ $ref: '#/components/schemas/X' }] }, { type: 'null' }] },
    ],
    [
      'nullable oneOf → one more branch',
      { oneOf: [{ type: 'string' }, { type: 'integer' }], nullable: true },
      { oneOf: [{ type: 'string' }, { type: 'integer' }, { type: 'null' }] },
    ],
    ['nullable: false dropped', { type: 'string', nullable: false }, { type: 'string' }],
    ['already null: no second null', { type: ['string', 'null'], nullable: true }, { type: ['string', 'null'] }],
    [
      'exclusiveMinimum: true → number',
      { type: 'number', minimum: 0, exclusiveMinimum: true },
      { type: 'number', exclusiveMinimum: 0 },
    ],
    [
      'exclusiveMaximum: false dropped',
      { type: 'number', maximum: 9, exclusiveMaximum: false },
      { type: 'number', maximum: 9 },
    ],
    [
      '3.1 exclusiveMinimum untouched',
      { type: 'number', exclusiveMinimum: 3 },
      { type: 'number', exclusiveMinimum: 3 },
    ],
    ['example tolerated as it is', { type: 'string', example: 'x' }, { type: 'string', example: 'x' }],
    [
      'nested: properties, items, allOf',
      {
        type: 'object',
        properties: { a: { type: 'array', items: { type: 'integer', nullable: true } } },
        allOf: [{ properties: { b: { type: 'string', nullable: true } } }],
      },
      {
        type: 'object',
        properties: { a: { type: 'array', items: { type: ['integer', 'null'] } } },
        allOf: [{ properties: { b: { type: ['string', 'null'] } } }],
      },
    ],
  ];
  it.each(cases)('%s', (_name, given, want) => {
    expect(normalizeSchema(given, '#')).toEqual(want);
  });

  const refused: [string, unknown, string, string][] = [
    ['nullable without a type', { nullable: true, description: 'x' }, 'nullable-ambiguous', '#/properties/p/nullable'],
    [
      'exclusiveMinimum: true without minimum',
      { type: 'number', exclusiveMinimum: true },
      'exclusive-bound',
      '#/properties/p/exclusiveMinimum',
    ],
  ];
  it.each(refused)('refuses %s, saying what to write', (_name, given, rule, pointer) => {
    const error = (() => {
      try {
        normalizeSchema({ properties: { p: given } }, '#');
      } catch (e) {
        return e;
      }
    })() as SpecError;
    expect(error).toBeInstanceOf(SpecError);
    expect(error.rule).toBe(rule);
    expect(error.pointer).toBe(pointer);
    expect(error.message).toMatch(/in 3\.1 write/);
  });

  it('an unknown format is a warning naming its pointer; known ones are not', () => {
    const warnings: GeneratorWarning[] = [];
    normalizeSchema(
      {
        properties: {
          a: { type: 'string', format: 'phone' },
          b: { type: 'string', format: 'email' },
          c: { type: 'integer', format: 'int64' },
        },
      },
      '#/components/schemas/X',
      warnings,
    );
    expect(warnings).toEqual([
      {
        pointer: '#/components/schemas/X/properties/a/format',
        rule: 'unknown-format',
        message: expect.stringContaining('unknown format "phone"'),
      },
    ]);
  });
});

describe('normalizeDocument', () => {
  it('reaches every schema position and leaves the input unchanged', () => {
    const n = { type: 'string', nullable: true };
    const doc = {
      openapi: '3.1.0',
      paths: {
        '/x/{a}': {
          parameters: [{ name: 'a', in: 'path', schema: n }],
          post: {
            parameters: [{ name: 'q', in: 'query', schema: n }],
            requestBody: { content: { 'application/json': { schema: { properties: { b: n } } } } },
            responses: { 200: { content: { 'application/json': { schema: n } } } },
          },
        },
      },
      components: {
        schemas: { S: n },
        parameters: { P: { schema: n } },
        requestBodies: { B: { content: { 'application/json': { schema: n } } } },
        responses: { R: { content: { 'application/json': { schema: n } } } },
      },
    };
    const before = JSON.stringify(doc);
    const { doc: out } = normalizeDocument(doc);
    expect(JSON.stringify(doc)).toBe(before);
    expect(JSON.stringify(out)).not.toContain('nullable');
    expect(out.components.schemas.S).toEqual({ type: ['string', 'null'] });
    expect(out.paths['/x/{a}'].post.requestBody.content['application/json'].schema.properties.b).toEqual({
      type: ['string', 'null'],
    });
  });
});
