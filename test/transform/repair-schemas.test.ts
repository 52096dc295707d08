/** Schema constructs read instead of refused (generator/repair-schemas.ts, issue 26): given/want. */
import { describe, expect, it } from 'vitest';
import { repairSchemas } from '../../generator/repair-schemas.js';

const repaired = (schemas: Record<string, unknown>) => repairSchemas({ paths: {}, components: { schemas } });

describe('repairSchemas', () => {
  it('an unknown keyword is dropped with a warning at its pointer', () => {
    const { doc, warnings } = repaired({
      A: { type: 'array', min_items: 2, items: { type: 'string', optional: true } },
    });
    expect(doc.components.schemas.A).toEqual({ type: 'array', items: { type: 'string' } });
    expect(warnings.map((w) => [w.rule, w.pointer, !!w.fallback])).toEqual([
      ['unknown-keyword', '/components/schemas/A/min_items', false],
      ['unknown-keyword', '/components/schemas/A/items/optional', false],
    ]);
  });

  it('$recursiveRef / $dynamicRef inside a component is a reference to that component; the anchors go', () => {
    const { doc, warnings } = repaired({
      Filter: {
        $recursiveAnchor: true,
        type: 'object',
        properties: { and: { type: 'array', items: { $recursiveRef: '#' } }, or: { $dynamicRef: '#node' } },
      },
    });
    expect(doc.components.schemas.Filter).toEqual({
      type: 'object',
      properties: {
        and: { type: 'array', items: { $ref: '#/components/schemas/Filter' } },
        or: { $ref: '#/components/schemas/Filter' },
      },
    });
    expect(warnings).toEqual([]);
  });

  it('duplicate required items are written once (a fallback: --strict refuses)', () => {
    const { doc, warnings } = repaired({
      A: { type: 'object', required: ['a', 'b', 'a'], properties: { a: {}, b: {} } },
    });
    expect(doc.components.schemas.A.required).toEqual(['a', 'b']);
    expect(warnings).toEqual([
      expect.objectContaining({
        rule: 'duplicate-required',
        pointer: '/components/schemas/A/required',
        fallback: true,
      }),
    ]);
  });

  it('a discriminator whose branches pin one value is dropped (a plain union, a fallback); one whose branches pin distinct values stays', () => {
    const msg = (role: string) => ({
      type: 'object',
      properties: { type: { const: 'message' }, role: { const: role } },
    });
    const { doc, warnings } = repaired({
      In: msg('user'),
      Out: msg('assistant'),
      Call: { type: 'object', properties: { type: { enum: ['call'] } } },
      Item: {
        oneOf: [{ $ref: '#/components/schemas/In' }, { $ref: '#/components/schemas/Out' }],
        discriminator: { propertyName: 'type' },
      },
      Good: {
        oneOf: [{ $ref: '#/components/schemas/In' }, { $ref: '#/components/schemas/Call' }],
        discriminator: { propertyName: 'type' },
      },
    });
    expect(doc.components.schemas.Item.discriminator).toBeUndefined();
    expect(doc.components.schemas.Good.discriminator).toEqual({ propertyName: 'type' });
    expect(warnings).toEqual([
      expect.objectContaining({
        rule: 'discriminator',
        pointer: '/components/schemas/Item/discriminator',
        fallback: true,
        message: expect.stringContaining('the value "message" of type selects two branches'),
      }),
    ]);
  });
});
