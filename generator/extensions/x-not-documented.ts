/** `x-not-documented: "<why>"`: a shape the seeds do not show; provenance like x-assumed (x-assumed.ts). */
import { defineExtension } from './extension.js';

export const notDocumented = defineExtension({
  name: 'x-not-documented',
  place: 'anywhere',
  readme: { where: 'anywhere', meaning: 'provenance: a shape the seeds do not show (an open object), and why' },
  schema: { description: 'A shape the seeds do not show (an open object): why.', $ref: '#/$defs/reason' },
});
