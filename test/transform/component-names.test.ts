/** Component schema names → safe type names (generator/transform/component-names.ts, issue 26): given/want. */
import { describe, expect, it } from 'vitest';
import { componentRenames, renameComponents } from '../../generator/transform/component-names.js';

describe('componentRenames', () => {
  const cases: [string, string[], Record<string, string>][] = [
    ['safe names stay', ['User', 'Chat_Message'], {}],
    ['- and . become word breaks', ['chat-message', 'v1.User'], { 'chat-message': 'ChatMessage', 'v1.User': 'V1User' }],
    ['a leading digit takes Schema before it', ['2fa-code'], { '2fa-code': 'Schema2faCode' }],
    [
      'a reserved word, a name the package uses, a runtime export take Schema after them',
      ['default', 'Record', 'Page'],
      { default: 'defaultSchema', Record: 'RecordSchema', Page: 'PageSchema' },
    ],
    ["the root entry's Schemas namespace is taken too (issue 32)", ['Schemas'], { Schemas: 'SchemasSchema' }],
    [
      'a safe name keeps its name; the renamed one takes _2',
      ['ChatMessage', 'chat-message'],
      { 'chat-message': 'ChatMessage_2' },
    ],
    [
      'collisions among renamed names: _2, _3 in the sorted order of the spec names',
      ['chat.message', 'chat-message', 'chat_message-'],
      { 'chat-message': 'ChatMessage', 'chat.message': 'ChatMessage_2', 'chat_message-': 'ChatMessage_3' },
    ],
    [
      'the order the spec lists them in does not matter',
      ['chat_message-', 'chat-message', 'chat.message'],
      { 'chat-message': 'ChatMessage', 'chat.message': 'ChatMessage_2', 'chat_message-': 'ChatMessage_3' },
    ],
  ];
  it.each(cases)('%s', (_name, names, want) => {
    expect(Object.fromEntries(componentRenames(names))).toEqual(want);
  });
});

describe('renameComponents', () => {
  const doc = {
    paths: {
      '/a': {
        get: {
          responses: {
            200: { content: { 'application/json': { schema: { $ref: '#/components/schemas/pet-base' } } } },
          },
        },
      },
    },
    components: {
      schemas: {
        'pet-base': {
          oneOf: [{ $ref: '#/components/schemas/cat-pet' }, { $ref: '#/components/schemas/Dog' }],
          discriminator: { propertyName: 'kind', mapping: { doggo: 'Dog' } },
        },
        'cat-pet': { type: 'object', properties: { kind: { type: 'string' } } },
        Dog: { type: 'object', properties: { kind: { type: 'string' } } },
      },
    },
  };
  const { doc: out, warnings } = renameComponents(doc);
  it('renames keys and every $ref, with a warning at the spec name', () => {
    expect(Object.keys(out.components.schemas)).toEqual(['PetBase', 'CatPet', 'Dog']);
    expect(out.paths['/a'].get.responses[200].content['application/json'].schema.$ref).toBe(
      '#/components/schemas/PetBase',
    );
    expect(warnings.map((w) => [w.rule, w.pointer])).toEqual([
      ['component-renamed', '/components/schemas/cat-pet'],
      ['component-renamed', '/components/schemas/pet-base'],
    ]);
  });
  it('an implicit discriminator value keeps the spec name on the wire (an explicit mapping entry)', () => {
    expect(out.components.schemas.PetBase.discriminator.mapping).toEqual({
      doggo: 'Dog',
      'cat-pet': '#/components/schemas/CatPet',
    });
  });
  it('the input document is not changed', () => {
    expect(Object.keys(doc.components.schemas)).toEqual(['pet-base', 'cat-pet', 'Dog']);
  });
});
