/** `x-limits` at the callbacks spec's root: its limits, machine-readable (build-delivery-rules.ts). */
import { defineExtension } from './extension.js';

export const limits = defineExtension({
  name: 'x-limits',
  place: 'callbacks',
  readme: {
    where: 'callbacks spec',
    meaning: 'the limits (addresses per application, …), read into the delivery simulator',
  },
  schema: { type: 'array' },
});
