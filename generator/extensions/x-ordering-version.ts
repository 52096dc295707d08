/** `x-ordering-version: true` on a callbacks data field: the version that orders events of that type (build-callback-model.ts). */
import { defineExtension } from './extension.js';

export const orderingVersion = defineExtension({
  name: 'x-ordering-version',
  place: 'callbacks',
  readme: { where: 'callbacks data field', meaning: 'the version that orders events of that type' },
  schema: { description: 'On a data field: the version that orders events of that type.', type: 'boolean' },
});
