/** Schema → TypeScript type (generator/transform/schema-to-ts.ts + transform/*): given/want per construct. */
import { describe, expect, it } from 'vitest';
import { typeOf, type TypeContext } from '../../generator/transform/schema-to-ts.js';
import { propertyDoc } from '../../generator/transform/jsdoc.js';
import { viewDependentSchemas } from '../../generator/transform/views.js';

const components = new Map<string, any>([
  ['Text', { type: 'object', required: ['kind'], properties: { kind: { type: 'string' }, text: { type: 'string' } } }],
  [
    'Image',
    { type: 'object', required: ['kind'], properties: { kind: { type: 'string' }, width: { type: 'integer' } } },
  ],
  [
    'Account',
    {
      type: 'object',
      required: ['id', 'pw'],
      additionalProperties: false,
      properties: {
        id: { type: 'string', readOnly: true },
        pw: { type: 'string', writeOnly: true },
        name: { type: 'string' },
      },
    },
  ],
  [
    'Team',
    { type: 'object', additionalProperties: false, properties: { owner: { $ref: '#/components/schemas/Account' } } },
  ],
  ['Plain', { type: 'object', additionalProperties: false, properties: { a: { type: 'string' } } }],
  [
    'Node',
    {
      type: 'object',
      additionalProperties: false,
      properties: { kids: { type: 'array', items: { $ref: '#/components/schemas/Node' } } },
    },
  ],
]);
const writable = viewDependentSchemas(components);
const ctx = (view: 'read' | 'write'): TypeContext => ({ refName: (n) => n, view, components, writable });
const flat = (t: string) => t.replace(/\s+/g, ' ');

describe('typeOf', () => {
  const cases: [string, unknown, 'read' | 'write', string][] = [
    [
      'discriminated union, explicit mapping: literals per branch (several values → a union)',
      {
        oneOf: [{ $ref: '#/components/schemas/Text' }, { $ref: '#/components/schemas/Image' }],
        discriminator: {
          propertyName: 'kind',
          mapping: { text: 'Text', image: 'Image', picture: '#/components/schemas/Image' },
        },
      },
      'read',
      '(Text & { kind: "text" }) | (Image & { kind: "image" | "picture" })',
    ],
    [
      'discriminated union, implicit mapping',
      {
        anyOf: [{ $ref: '#/components/schemas/Text' }, { $ref: '#/components/schemas/Image' }],
        discriminator: { propertyName: 'kind' },
      },
      'read',
      '(Text & { kind: "Text" }) | (Image & { kind: "Image" })',
    ],
    [
      'properties beside a discriminated oneOf hold in every branch',
      {
        type: 'object',
        additionalProperties: false,
        required: ['to'],
        properties: { to: { type: 'string' } },
        oneOf: [{ $ref: '#/components/schemas/Text' }, { $ref: '#/components/schemas/Image' }],
        discriminator: { propertyName: 'kind' },
      },
      'read',
      '{ to: string; } & ((Text & { kind: "Text" }) | (Image & { kind: "Image" }))',
    ],
    [
      'anyOf without discriminator: a plain union',
      { anyOf: [{ type: 'string' }, { type: 'integer' }] },
      'read',
      'string | number',
    ],
    ['read view: writeOnly left out', { $ref: '#/components/schemas/Account' }, 'read', 'Account'],
    [
      'write view: a view-dependent ref names its Writable type',
      { $ref: '#/components/schemas/Account' },
      'write',
      'AccountWritable',
    ],
    [
      'write view: a component that differs only through a ref is Writable too',
      { $ref: '#/components/schemas/Team' },
      'write',
      'TeamWritable',
    ],
    ['write view: a plain component keeps its name', { $ref: '#/components/schemas/Plain' }, 'write', 'Plain'],
    ['read view of the object', components.get('Account'), 'read', '{ id: string; name?: string; }'],
    ['write view of the object', components.get('Account'), 'write', '{ pw: string; name?: string; }'],
    ['int64: number | bigint', { type: 'integer', format: 'int64' }, 'read', 'number | bigint'],
    ['int32: number', { type: 'integer', format: 'int32' }, 'read', 'number'],
    ['3.1 null type', { type: ['string', 'null'] }, 'read', 'string | null'],
    ['recursive ref is a name', { $ref: '#/components/schemas/Node' }, 'read', 'Node'],
    // issue 26: `[]` after a union of object literals bound to the last branch only (`A | B[]`)
    [
      'array of an inline oneOf of objects: the whole union is the item',
      {
        type: 'array',
        items: {
          oneOf: [
            { type: 'object', additionalProperties: false, properties: { a: { type: 'string' } } },
            { type: 'object', additionalProperties: false, properties: { b: { type: 'string' } } },
          ],
        },
      },
      'read',
      '({ a?: string; } | { b?: string; })[]',
    ],
    [
      'array of an object whose doc comment holds a brace and a quote: one literal, no parentheses',
      {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          properties: { a: { type: 'string', description: "it's } here" } },
        },
      },
      'read',
      "{ /** it's } here */ a?: string; }[]",
    ],
    [
      'intersection with a union of objects keeps the union whole',
      {
        allOf: [
          { $ref: '#/components/schemas/Plain' },
          {
            anyOf: [
              { type: 'object', additionalProperties: false, properties: { x: { type: 'string' } } },
              { type: 'object', additionalProperties: false, properties: { y: { type: 'string' } } },
            ],
          },
        ],
      },
      'read',
      'Plain & ({ x?: string; } | { y?: string; })',
    ],
    // issue 26, from the corpus: a type beside a oneOf holds too; prefixItems are a tuple
    [
      'a primitive type beside a oneOf narrows it',
      { type: 'boolean', oneOf: [{ type: 'boolean' }, { type: 'string', enum: ['auto'] }] },
      'read',
      '(boolean | "auto") & (boolean)',
    ],
    [
      'prefixItems: a closed pair',
      { type: 'array', prefixItems: [{ type: 'integer' }, { type: 'string' }], minItems: 2, maxItems: 2 },
      'read',
      '[number, string]',
    ],
    [
      'prefixItems: optional past minItems, then items',
      { type: 'array', prefixItems: [{ type: 'integer' }], items: { type: 'string' } },
      'read',
      '[number?, ...string[]]',
    ],
  ];
  it.each(cases)('%s', (_name, given, view, want) => {
    expect(flat(typeOf(given as any, ctx(view)))).toBe(want);
  });
  it('only components whose views differ get a Writable type', () => {
    expect([...writable]).toEqual(['Account', 'Team']);
  });
});

describe('propertyDoc', () => {
  const cases: [string, unknown, string][] = [
    ['description only: one line', { description: 'The name.' }, '/** The name. */\n'],
    ['deprecated', { deprecated: true, description: 'Old.' }, '/**\n * Old.\n * @deprecated\n */\n'],
    ['default', { default: 5 }, '/**\n * @default 5\n */\n'],
    [
      'default object, with a comment terminator escaped',
      { default: { a: '*/' } },
      '/**\n * @default {"a":"*\\/"}\n */\n',
    ],
    ['nothing', { type: 'string' }, ''],
  ];
  it.each(cases)('%s', (_name, given, want) => {
    expect(propertyDoc(given as any)).toBe(want);
  });
});
