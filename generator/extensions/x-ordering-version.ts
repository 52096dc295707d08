/**
 * `x-ordering-version: true` on a callbacks data field: the version that orders events of that type
 * (build-callback-model.ts).
 */
import type { JsonSchema } from '../model.js';
import { defineExtension } from './extension.js';

export const orderingVersion = defineExtension({
  name: 'x-ordering-version',
  place: 'callbacks',
  readme: { where: 'callbacks data field', meaning: 'the version that orders events of that type' },
  schema: { description: 'On a data field: the version that orders events of that type.', type: 'boolean' },
  readEvent({ data }) {
    const properties = data.properties && typeof data.properties === 'object' ? data.properties : {};
    const field = Object.entries<JsonSchema>(properties).find(([, s]) => s?.['x-ordering-version'] === true)?.[0];
    return field ? { orderingField: field } : {};
  },
});
