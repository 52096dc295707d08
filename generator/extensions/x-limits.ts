/** `x-limits` at the callbacks spec's root: its limits, machine-readable (build-delivery-rules.ts). */
import { readSpecValue, type SpecValue } from '../spec-value.js';
import { defineExtension } from './extension.js';

/** A number of an `x-limits` row (section 8), the row found by its `limit` text. */
export function limitReader(doc: any, source: string): (name: string, path: string) => SpecValue<number> {
  const limits: unknown[] = Array.isArray(doc?.['x-limits']) ? doc['x-limits'] : [];
  return (name, path) => {
    const index = limits.findIndex((r: any) => r?.limit === name);
    return readSpecValue<number>(
      source,
      limits[index],
      `x-limits[limit=${name}]`,
      `/x-limits/${index < 0 ? limits.length : index}`,
      path,
      'number',
    );
  };
}

export const limits = defineExtension({
  name: 'x-limits',
  place: 'callbacks',
  readme: {
    where: 'callbacks spec',
    meaning: 'the limits (addresses per application, …), read into the delivery simulator',
  },
  schema: { type: 'array' },
});
