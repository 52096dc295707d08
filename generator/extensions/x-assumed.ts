/**
 * `x-assumed: "<why>"`: a name or shape chosen where the seeds are silent. Read anywhere by
 * build-model.ts collectProvenance; the docs say each reason in words (README "Provenance").
 */
import { defineExtension } from './extension.js';

export const assumed = defineExtension({
  name: 'x-assumed',
  place: 'anywhere',
  readme: { where: 'anywhere', meaning: 'provenance: a name or shape we chose where the seeds are silent, and why' },
  schema: { description: 'A name or shape we chose where the seeds are silent: why.', $ref: '#/$defs/reason' },
});
