/** `x-pending-helper`: the pending moderation items helper (`processPending`); build-helpers.ts makes it. */
import { assumedOf } from './x-assumed.js';
import { defineExtension } from './extension.js';

export const pendingHelper = defineExtension({
  name: 'x-pending-helper',
  place: 'operation',
  readme: { where: 'operation', meaning: 'the pending moderation items helper (`processPending`)' },
  schema: {
    description: 'The pending moderation items helper.',
    type: 'object',
    required: ['method', 'decide', 'statuses', 'pageSize', 'idField', 'versionField'],
    additionalProperties: false,
    properties: {
      method: { $ref: '#/$defs/snakeName' },
      decide: { $ref: '#/$defs/operationId' },
      statuses: { type: 'array', minItems: 1, items: { type: 'string' } },
      pageSize: { type: 'integer', minimum: 1 },
      pageSizeParam: { type: 'string' },
      idField: { type: 'string' },
      versionField: { type: 'string' },
      'x-assumed': { $ref: '#/$defs/reason' },
    },
  },
  helpers: (pending, op, { ref, named }) => [
    {
      kind: 'pending-items',
      ...named(pending.method, 'x-pending-helper'),
      source: `${op.id} x-pending-helper`,
      items: op,
      decide: ref('x-pending-helper', pending.decide),
      idField: pending.idField,
      versionField: pending.versionField,
      statuses: pending.statuses,
      pageSize: pending.pageSize,
      assumed: assumedOf(pending),
    },
  ],
});
