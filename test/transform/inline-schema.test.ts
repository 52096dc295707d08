/** Validator schemas (generator/transform/inline-schema.ts): given/want per construct and view. */
import { describe, expect, it } from 'vitest';
import { CHECKED_FORMATS } from '../../generator/transform/formats.js';
import {
  inlineContext,
  inlinedComponentOf,
  inlineSchema,
  mergeAllOf,
  recursiveComponents,
  withDefs,
  type SchemaView,
} from '../../generator/transform/inline-schema.js';
import { ajvFormats } from '../../templates/runtime/internal/ajv-formats.js';

const components = new Map<string, any>([
  ['A', { type: 'object', required: ['a'], properties: { a: { type: 'string', description: 'dropped' } } }],
  ['B', { type: 'object', required: ['b'], additionalProperties: false, properties: { b: { type: 'integer' } } }],
  ['Node', { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/components/schemas/Node' } } } }],
  ['Ping', { type: 'object', properties: { pong: { $ref: '#/components/schemas/Pong' } } }],
  ['Pong', { type: 'object', properties: { ping: { $ref: '#/components/schemas/Ping' } } }],
  [
    'Text',
    { type: 'object', required: ['kind', 'text'], properties: { kind: { type: 'string' }, text: { type: 'string' } } },
  ],
  [
    'Image',
    {
      type: 'object',
      required: ['kind', 'width'],
      properties: { kind: { type: 'string' }, width: { type: 'integer' } },
    },
  ],
  ['Id', { type: 'string', readOnly: true }],
]);
const run = (schema: unknown, view: SchemaView = 'write') => {
  const ctx = inlineContext(components, view);
  const out = inlineSchema(schema, ctx, '#');
  return typeof out === 'boolean' ? out : withDefs(out, ctx);
};

describe('inlineSchema', () => {
  const cases: [string, unknown, SchemaView, unknown][] = [
    [
      'refs inlined, annotations and examples dropped',
      { $ref: '#/components/schemas/A', example: 1 },
      'write',
      { type: 'object', required: ['a'], properties: { a: { type: 'string' } } },
    ],
    [
      'unknown format dropped, known kept',
      {
        type: 'object',
        properties: { p: { type: 'string', format: 'phone' }, e: { type: 'string', format: 'email' } },
      },
      'write',
      { type: 'object', properties: { p: { type: 'string' }, e: { type: 'string', format: 'email' } } },
    ],
    [
      'allOf of objects merged; closed when a part is closed',
      { allOf: [{ $ref: '#/components/schemas/A' }, { $ref: '#/components/schemas/B' }] },
      'write',
      {
        type: 'object',
        properties: { a: { type: 'string' }, b: { type: 'integer' } },
        required: ['a', 'b'],
        additionalProperties: false,
      },
    ],
    [
      'allOf with a non-object part stays allOf',
      { allOf: [{ $ref: '#/components/schemas/A' }, { minProperties: 2 }] },
      'write',
      { allOf: [{ type: 'object', required: ['a'], properties: { a: { type: 'string' } } }, { minProperties: 2 }] },
    ],
    [
      'recursive component → $defs + $ref',
      { $ref: '#/components/schemas/Node' },
      'read',
      {
        $ref: '#/$defs/Node',
        $defs: { Node: { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/$defs/Node' } } } } },
      },
    ],
    [
      'mutual recursion: both in $defs, only those reached',
      { type: 'object', properties: { x: { $ref: '#/components/schemas/Ping' } } },
      'read',
      {
        type: 'object',
        properties: { x: { $ref: '#/$defs/Ping' } },
        $defs: {
          Ping: { type: 'object', properties: { pong: { $ref: '#/$defs/Pong' } } },
          Pong: { type: 'object', properties: { ping: { $ref: '#/$defs/Ping' } } },
        },
      },
    ],
    [
      'write view: readOnly property refused (false) and not required',
      {
        type: 'object',
        required: ['id', 'n'],
        properties: {
          id: { type: 'string', readOnly: true },
          n: { type: 'string' },
          ref: { $ref: '#/components/schemas/Id' },
        },
      },
      'write',
      { type: 'object', required: ['n'], properties: { id: false, n: { type: 'string' }, ref: false } },
    ],
    [
      'read view: writeOnly property kept but not required',
      {
        type: 'object',
        required: ['pw', 'n'],
        properties: { pw: { type: 'string', writeOnly: true }, n: { type: 'string' } },
      },
      'read',
      { type: 'object', required: ['n'], properties: { pw: { type: 'string' }, n: { type: 'string' } } },
    ],
    [
      'discriminator: enum of values, then the mapped branch only',
      {
        oneOf: [{ $ref: '#/components/schemas/Text' }, { $ref: '#/components/schemas/Image' }],
        discriminator: {
          propertyName: 'kind',
          mapping: { text: '#/components/schemas/Text', image: 'Image', picture: 'Image' },
        },
      },
      'write',
      {
        type: 'object',
        required: ['kind'],
        properties: { kind: { enum: ['text', 'image', 'picture'] } },
        allOf: [
          { if: { properties: { kind: { const: 'text' } }, required: ['kind'] }, then: components.get('Text') },
          {
            if: { properties: { kind: { enum: ['image', 'picture'] } }, required: ['kind'] },
            then: components.get('Image'),
          },
        ],
      },
    ],
    [
      'discriminator, implicit mapping: the component names',
      {
        anyOf: [{ $ref: '#/components/schemas/Text' }, { $ref: '#/components/schemas/Image' }],
        discriminator: { propertyName: 'kind' },
      },
      'read',
      {
        type: 'object',
        required: ['kind'],
        properties: { kind: { enum: ['Text', 'Image'] } },
        allOf: [
          { if: { properties: { kind: { const: 'Text' } }, required: ['kind'] }, then: components.get('Text') },
          { if: { properties: { kind: { const: 'Image' } }, required: ['kind'] }, then: components.get('Image') },
        ],
      },
    ],
    [
      'discriminator with a closed shape beside it: merged into each branch',
      {
        type: 'object',
        additionalProperties: false,
        required: ['to'],
        properties: { to: { type: 'string' } },
        oneOf: [{ $ref: '#/components/schemas/Text' }],
        discriminator: { propertyName: 'kind' },
      },
      'write',
      {
        type: 'object',
        required: ['kind'],
        properties: { kind: { enum: ['Text'] } },
        allOf: [
          {
            if: { properties: { kind: { const: 'Text' } }, required: ['kind'] },
            then: {
              type: 'object',
              properties: { to: { type: 'string' }, kind: { type: 'string' }, text: { type: 'string' } },
              required: ['to', 'kind', 'text'],
              additionalProperties: false,
            },
          },
        ],
      },
    ],
  ];
  it.each(cases)('%s', (_name, given, view, want) => {
    expect(run(given, view)).toEqual(want);
  });

  it('finds the components on $ref cycles only', () => {
    expect([...recursiveComponents(components)].sort()).toEqual(['Node', 'Ping', 'Pong']);
  });
  it('mergeAllOf: the same property in two parts is allOf of both', () => {
    expect(
      mergeAllOf({ allOf: [{ properties: { a: { type: 'string' } } }, { properties: { a: { minLength: 1 } } }] }),
    ).toEqual({ properties: { a: { allOf: [{ type: 'string' }, { minLength: 1 }] } } });
  });
});

describe('formats', () => {
  it("the generator's checked formats are exactly the runtime table", () => {
    expect(Object.keys(CHECKED_FORMATS).sort()).toEqual(Object.keys(ajvFormats).sort());
    for (const [name, type] of Object.entries(CHECKED_FORMATS))
      expect(ajvFormats[name]!.type ?? 'string', name).toBe(type);
  });
});

describe('inlinedComponentOf (what emit-validators may compile once, in a shared module)', () => {
  const inline = (schema: unknown) => inlineSchema(schema, inlineContext(components, 'write'), '#') as any;
  it('marks a component object that stands as is, also nested and as a list item', () => {
    const out = inline({
      type: 'object',
      properties: {
        a: { $ref: '#/components/schemas/A' },
        list: { type: 'array', items: { $ref: '#/components/schemas/B' } },
      },
    });
    expect(inlinedComponentOf(out.properties.a)).toBe('A');
    expect(inlinedComponentOf(out.properties.list.items)).toBe('B');
    expect(inlinedComponentOf(out)).toBeUndefined();
    expect(inlinedComponentOf(inline({ $ref: '#/components/schemas/A' }))).toBe('A');
  });
  it('does not mark a component merged into another shape (allOf merge, $ref beside keywords)', () => {
    const merged = inline({ allOf: [{ $ref: '#/components/schemas/A' }, { $ref: '#/components/schemas/B' }] });
    expect(inlinedComponentOf(merged)).toBeUndefined();
    expect(JSON.stringify(merged)).not.toContain('allOf');
    const beside = inline({ $ref: '#/components/schemas/A', minProperties: 1 });
    expect(beside.minProperties).toBe(1);
    expect(inlinedComponentOf(beside)).toBeUndefined();
    // a part of an allOf that is not merged still stands as is
    const kept = inline({ allOf: [{ $ref: '#/components/schemas/A' }, { minProperties: 2 }] });
    expect(inlinedComponentOf(kept.allOf[0])).toBe('A');
  });
  it('does not mark recursive components (they stay $defs); a root with $defs keeps its mark', () => {
    const ctx = inlineContext(components, 'read');
    const node = inlineSchema(
      { type: 'object', properties: { n: { $ref: '#/components/schemas/Node' } } },
      ctx,
      '#',
    ) as any;
    expect(node.properties.n).toEqual({ $ref: '#/$defs/Node' });
    expect(inlinedComponentOf(node.properties.n)).toBeUndefined();
    const withRoot = inlineContext(
      new Map([
        ...components,
        ['Forest', { type: 'object', properties: { root: { $ref: '#/components/schemas/Node' } } }],
      ]),
      'read',
    );
    const forest = inlineSchema({ $ref: '#/components/schemas/Forest' }, withRoot, '#') as any;
    expect(inlinedComponentOf(withDefs(forest, withRoot))).toBe('Forest');
  });
});
