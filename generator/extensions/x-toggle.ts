/** `x-toggle`: one method that picks PUT or DELETE from a boolean (set-mute-all); build-helpers.ts makes the helper. */
import { defineExtension } from './extension.js';

export const toggle = defineExtension({
  name: 'x-toggle',
  place: 'operation',
  readme: {
    where: 'operation',
    meaning:
      '`{ method, field, whenTrue, whenFalse }`: one method that picks PUT or DELETE from a boolean (set-mute-all)',
  },
  schema: {
    description: 'One method that picks PUT or DELETE from a boolean (set-mute-all).',
    type: 'object',
    required: ['method', 'field', 'whenTrue', 'whenFalse'],
    additionalProperties: false,
    properties: {
      method: { $ref: '#/$defs/snakeName' },
      field: { type: 'string', minLength: 1 },
      whenTrue: { $ref: '#/$defs/operationId' },
      whenFalse: { $ref: '#/$defs/operationId' },
      description: { type: 'string' },
    },
  },
});
