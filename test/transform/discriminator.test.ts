/** Discriminator → which values select which branch (generator/transform/discriminator.ts): given/want. */
import { describe, expect, it } from 'vitest';
import { discriminatedOf } from '../../generator/transform/discriminator.js';
import { SpecError } from '../../generator/spec-error.js';

const components = new Map<string, any>([
  ['Text', { type: 'object', properties: { kind: { type: 'string' } } }],
  ['Image', { type: 'object', properties: { kind: { type: 'string' } } }],
  ['Pinned', { type: 'object', properties: { kind: { const: 'pinned' } } }],
  ['Enumed', { type: 'object', properties: { kind: { type: 'string', enum: ['e1', 'e2'] } } }],
  ['KindRef', { type: 'string', enum: ['by-ref'] }],
  ['ViaRef', { type: 'object', properties: { kind: ref0('KindRef') } }],
  ['ViaAllOf', { allOf: [ref0('Text'), { type: 'object', properties: { kind: { const: 'all-of' } } }] }],
]);
function ref0(n: string) {
  return { $ref: `#/components/schemas/${n}` };
}
const ref = (n: string) => ({ $ref: `#/components/schemas/${n}` });
const selection = (schema: unknown) => {
  const d = discriminatedOf(schema as any, components, '#');
  return d && { property: d.propertyName, values: d.values, branches: d.branches.map((b) => b.values) };
};

describe('discriminatedOf', () => {
  const cases: [string, unknown, unknown][] = [
    ['no discriminator', { oneOf: [ref('Text')] }, undefined],
    [
      'explicit mapping (full refs and bare names)',
      {
        oneOf: [ref('Text'), ref('Image')],
        discriminator: { propertyName: 'kind', mapping: { text: ref('Text').$ref, image: 'Image' } },
      },
      { property: 'kind', values: ['text', 'image'], branches: [['text'], ['image']] },
    ],
    [
      'implicit: component names',
      { anyOf: [ref('Text'), ref('Image')], discriminator: { propertyName: 'kind' } },
      { property: 'kind', values: ['Text', 'Image'], branches: [['Text'], ['Image']] },
    ],
    [
      'partial mapping: the unmapped branch by its name',
      { oneOf: [ref('Text'), ref('Image')], discriminator: { propertyName: 'kind', mapping: { t: 'Text' } } },
      { property: 'kind', values: ['t', 'Image'], branches: [['t'], ['Image']] },
    ],
    [
      'several values for one branch',
      {
        oneOf: [ref('Text'), ref('Image')],
        discriminator: { propertyName: 'kind', mapping: { text: 'Text', plain: 'Text', image: 'Image' } },
      },
      { property: 'kind', values: ['text', 'plain', 'image'], branches: [['text', 'plain'], ['image']] },
    ],
    [
      'inline branches by their const/enum',
      {
        oneOf: [{ properties: { kind: { const: 'a' } } }, { properties: { kind: { enum: ['b', 'c'] } } }],
        discriminator: { propertyName: 'kind' },
      },
      { property: 'kind', values: ['a', 'b', 'c'], branches: [['a'], ['b', 'c']] },
    ],
    [
      'a branch pinned to its value',
      { oneOf: [ref('Pinned')], discriminator: { propertyName: 'kind', mapping: { pinned: 'Pinned' } } },
      { property: 'kind', values: ['pinned'], branches: [['pinned']] },
    ],
    // issue 26: implicit, over branches that pin the property (OpenAI's idiom): the pinned values, as Ajv reads them
    [
      'implicit over $ref branches that pin with const/enum: the pinned values, not the names',
      { oneOf: [ref('Pinned'), ref('Enumed')], discriminator: { propertyName: 'kind' } },
      { property: 'kind', values: ['pinned', 'e1', 'e2'], branches: [['pinned'], ['e1', 'e2']] },
    ],
    [
      'implicit: a pin through a $ref property or an allOf part; a branch pinning nothing by its name',
      { oneOf: [ref('ViaRef'), ref('ViaAllOf'), ref('Image')], discriminator: { propertyName: 'kind' } },
      { property: 'kind', values: ['by-ref', 'all-of', 'Image'], branches: [['by-ref'], ['all-of'], ['Image']] },
    ],
  ];
  it.each(cases)('%s', (_name, given, want) => {
    expect(selection(given)).toEqual(want);
  });

  const refused: [string, unknown, RegExp][] = [
    [
      'a mapping to a component that is no branch',
      { oneOf: [ref('Text')], discriminator: { propertyName: 'kind', mapping: { image: 'Image' } } },
      /names Image, which is not one of the branches/,
    ],
    [
      'an inline branch without a value',
      { oneOf: [{ type: 'object' }], discriminator: { propertyName: 'kind' } },
      /selected by no string value of kind/,
    ],
    [
      'one value for two branches',
      { oneOf: [ref('Text'), { properties: { kind: { const: 'Text' } } }], discriminator: { propertyName: 'kind' } },
      /"Text" of kind selects two branches/,
    ],
    [
      'a mapping the branch schema contradicts',
      { oneOf: [ref('Pinned')], discriminator: { propertyName: 'kind', mapping: { other: 'Pinned' } } },
      /"other" selects Pinned, whose kind only allows "pinned"/,
    ],
  ];
  it.each(refused)('refuses %s', (_name, given, message) => {
    expect(() => selection(given)).toThrow(SpecError);
    expect(() => selection(given)).toThrow(message);
  });
});
