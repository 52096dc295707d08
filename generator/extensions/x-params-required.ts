/**
 * `x-params-required`: the params object must be passed although none of its fields is required
 * (the value says why). The change report sees it through `paramsRequired` (compare.ts).
 */
import { defineExtension } from './extension.js';

export const paramsRequired = defineExtension({
  name: 'x-params-required',
  place: 'operation',
  readme: { where: 'operation', meaning: 'the params object is required even though no field is' },
  schema: {
    description: 'The params object is required even though no field is (the value says why).',
    anyOf: [{ const: true }, { $ref: '#/$defs/reason' }],
  },
  read: (value) => (value ? { paramsRequired: true } : {}),
});
