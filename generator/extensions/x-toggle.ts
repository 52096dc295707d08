/** `x-toggle`: one method that picks PUT or DELETE from a boolean (set-mute-all), a helper of build-helpers.ts. */
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
  helpers: (toggle, op, { ref, named }) => [
    {
      kind: 'toggle',
      ...named(toggle.method, 'x-toggle'),
      source: `${op.id} x-toggle`,
      field: toggle.field,
      whenTrue: ref('x-toggle', toggle.whenTrue),
      whenFalse: ref('x-toggle', toggle.whenFalse),
      description: toggle.description ?? '',
    },
  ],
});
