/** `x-ts-brand`: a component schema whose generated type is branded (emit/emit-schema-types.ts). */
import { defineExtension } from './extension.js';

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
