/** `x-ts-brand`: a component schema whose generated type is branded (emit/emit-schema-types.ts). */
import type { JsonSchema } from '../model.js';
import { defineExtension } from './extension.js';

/** Whether a component schema asks for a branded type (its one reader: emit/emit-schema-types.ts). */
export const isBranded = (schema: JsonSchema): boolean => schema['x-ts-brand'] === true;

export const tsBrand = defineExtension({
  name: 'x-ts-brand',
  place: 'anywhere',
  readme: {
    where: 'component schema',
    meaning:
      '`true`: the generated type is branded (type-only), so another value of the same shape ' +
      'does not assign to it (RTC tickets vs the App Token)',
  },
  schema: {
    description:
      'On a component schema: its generated type is branded (type-only), so a structurally equal value of another ' +
      'kind (e.g. the App Token where an RTC ticket is expected) does not compile.',
    const: true,
  },
});
