/** `x-best-effort: true` on a callbacks event message: the service may drop it (build-callback-model.ts). */
import { defineExtension } from './extension.js';

export const bestEffort = defineExtension({
  name: 'x-best-effort',
  place: 'callbacks',
  readme: { where: 'callbacks event message', meaning: 'the service may drop it (seed 001 §6 rule 4)' },
  schema: { description: 'On an event message: the service may drop it (seed 001 §6 rule 4).', type: 'boolean' },
  readEvent: ({ schema }) => ({ bestEffort: schema['x-best-effort'] === true }),
});
