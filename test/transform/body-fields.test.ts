/** Request body schema → flat body fields (generator/transform/body-fields.ts): given/want. */
import { describe, expect, it } from 'vitest';
import { bodyFieldsOf } from '../../generator/transform/body-fields.js';
import { SpecError } from '../../generator/spec-error.js';

const components = new Map<string, any>([
  [
    'Text',
    {
      type: 'object',
      required: ['kind', 'text'],
      additionalProperties: false,
      properties: { kind: { type: 'string' }, text: { type: 'string' } },
    },
  ],
  [
    'Image',
    {
      type: 'object',
      required: ['kind', 'width'],
      properties: { kind: { type: 'string' }, width: { type: 'integer' } },
    },
  ],
  ['Base', { type: 'object', required: ['name'], properties: { name: { type: 'string' } } }],
]);
const deref = (s: any) => (s?.$ref ? components.get(s.$ref.split('/').pop()) : s);
const run = (schema: unknown) => {
  const body = bodyFieldsOf(schema as any, deref, components, '/paths/x/post/requestBody', 'x.op');
  const names = (fields: { name: string; required: boolean }[]) =>
    fields.map((f) => `${f.name}${f.required ? '' : '?'}`);
  return {
    fields: names(body.fields),
    open: body.open,
    variants: body.union?.variants.map((v) => ({ fields: names(v.fields), open: v.open, values: v.values })),
    discriminator: body.union?.discriminator?.propertyName,
  };
};

describe('bodyFieldsOf', () => {
  const cases: [string, unknown, unknown][] = [
    [
      'object',
      { type: 'object', required: ['a'], additionalProperties: false, properties: { a: {}, b: {} } },
      { fields: ['a', 'b?'], open: false, variants: undefined, discriminator: undefined },
    ],
    [
      'allOf of objects: one flat object, closed when a part is',
      {
        allOf: [
          { $ref: '#/components/schemas/Base' },
          { type: 'object', additionalProperties: false, properties: { bio: {} } },
        ],
      },
      { fields: ['name', 'bio?'], open: false, variants: undefined, discriminator: undefined },
    ],
    [
      'discriminated oneOf: a variant per branch, fields of all (required only where every branch requires it)',
      {
        oneOf: [{ $ref: '#/components/schemas/Text' }, { $ref: '#/components/schemas/Image' }],
        discriminator: { propertyName: 'kind', mapping: { text: 'Text', image: 'Image' } },
      },
      {
        fields: ['kind', 'text?', 'width?'],
        open: true,
        variants: [
          { fields: ['kind', 'text'], open: false, values: ['text'] },
          { fields: ['kind', 'width'], open: true, values: ['image'] },
        ],
        discriminator: 'kind',
      },
    ],
    [
      'anyOf with properties beside it: they hold in every branch',
      {
        type: 'object',
        required: ['to'],
        properties: { to: {} },
        anyOf: [{ $ref: '#/components/schemas/Text' }, { $ref: '#/components/schemas/Base' }],
      },
      {
        fields: ['to', 'kind?', 'text?', 'name?'],
        open: true,
        variants: [
          { fields: ['to', 'kind', 'text'], open: false, values: undefined },
          { fields: ['to', 'name'], open: true, values: undefined },
        ],
        discriminator: undefined,
      },
    ],
  ];
  it.each(cases)('%s', (_name, given, want) => {
    expect(run(given)).toEqual(want);
  });
  it.each([
    ['a string body', { type: 'string' }],
    ['a oneOf with a non-object branch', { oneOf: [{ $ref: '#/components/schemas/Text' }, { type: 'string' }] }],
  ])('refuses %s', (_name, given) => {
    expect(() => run(given)).toThrow(SpecError);
  });
});
