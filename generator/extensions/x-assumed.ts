/**
 * `x-assumed: "<why>"`: a name or shape chosen where the seeds are silent. Read anywhere, with
 * x-not-documented, by collectProvenance (the model's `provenance`); the docs say each reason in
 * words (README "Provenance").
 */
import type { Provenance } from '../model.js';
import { pointerSegment } from '../spec-error.js';
import { defineExtension } from './extension.js';

export const assumed = defineExtension({
  name: 'x-assumed',
  place: 'anywhere',
  readme: { where: 'anywhere', meaning: 'provenance: a name or shape we chose where the seeds are silent, and why' },
  schema: { description: 'A name or shape we chose where the seeds are silent: why.', $ref: '#/$defs/reason' },
});

/** The `x-assumed` text on `node`, when it has one: the one reader of the key (the schema makes it a string). */
export function assumedOf(node: unknown): string | undefined {
  const text = (node as Record<string, unknown> | null | undefined)?.['x-assumed'];
  return typeof text === 'string' ? text : undefined;
}

/** Every x-assumed and x-not-documented mark under `node` (at `pointer`), sorted by pointer. */
export function collectProvenance(node: unknown, pointer: string): Provenance[] {
  const out: Provenance[] = [];
  const walk = (n: unknown, p: string) => {
    if (Array.isArray(n)) return n.forEach((v, i) => walk(v, `${p}/${i}`));
    if (!n || typeof n !== 'object') return;
    for (const [k, v] of Object.entries(n)) {
      const here = `${p}/${pointerSegment(k)}`;
      if ((k === 'x-assumed' || k === 'x-not-documented') && typeof v === 'string')
        out.push({ pointer: here, kind: k, reason: v });
      else walk(v, here);
    }
  };
  walk(node, pointer);
  return out.sort((a, b) => a.pointer.localeCompare(b.pointer));
}
