/**
 * `x-delivery` on the callbacks `receiveEvent` operation: the delivery rules, machine-readable
 * (build-delivery-rules.ts).
 */
import { defineExtension } from './extension.js';

export const delivery = defineExtension({
  name: 'x-delivery',
  place: 'callbacks',
  readme: {
    where: 'callbacks spec',
    meaning:
      'on receiveEvent: the delivery rules (guarantee, ordering, latency, ' +
      'deduplication…), read into the delivery simulator',
  },
  schema: { type: 'object' },
});
