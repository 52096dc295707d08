/**
 * `x-delivery` on the callbacks `receiveEvent` operation: the delivery rules, machine-readable
 * (build-delivery-rules.ts).
 */
import { type Rule, readSpecValue, type SpecValue } from '../spec-value.js';
import { assumedOf } from './x-assumed.js';
import { defineExtension } from './extension.js';

/**
 * Values of `x-delivery` on receiveEvent by their dotted path (`retry.maxSends`), and the
 * assumptions the spec notes on it: every *Bytes value read in binary units, the jitter's range.
 */
export function deliveryReader(doc: any, source: string) {
  const delivery = doc?.operations?.receiveEvent?.['x-delivery'];
  const d = <T>(path: string, rule: Rule = 'number', assumed?: string): SpecValue<T> =>
    readSpecValue<T>(
      source,
      delivery,
      'operations.receiveEvent.x-delivery',
      '/operations/receiveEvent/x-delivery',
      path,
      rule,
      assumed,
    );
  return { d, bytesAssumed: assumedOf(delivery?.byteUnits), jitterAssumed: assumedOf(delivery?.retry?.jitter) };
}

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
