/**
 * `x-batch-split`: the list field a batch call sends and the most items one request may carry;
 * the client splits a longer list into several requests (its params schema then drops maxItems).
 */
import { doc } from '../emit/spec-text.js';
import { quoted, SpecError } from '../spec-error.js';
import { defineExtension } from './extension.js';

export const batchSplit = defineExtension({
  name: 'x-batch-split',
  place: 'operation',
  readme: {
    where: 'operation',
    meaning: '`{ field, max }`: the list the batch helper splits (users 100, friends 100, recipients 1000)',
  },
  schema: {
    description: 'The list the batch helper splits, and the most items per request.',
    type: 'object',
    required: ['field', 'max'],
    additionalProperties: false,
    properties: {
      field: { type: 'string', minLength: 1 },
      max: { type: 'integer', minimum: 1 },
      'x-assumed': { $ref: '#/$defs/reason' },
    },
  },
  read(value, { body, at, id }) {
    if (!value) return {};
    if (!body?.fields.some((f) => f.name === value.field))
      throw new SpecError(
        `${at}/x-batch-split`,
        'batch-split-undeclared',
        `${id}: batch split field ${quoted(value.field)} is not a declared body field`,
        'name the array property of the request body that the helper splits',
      );
    return { batchSplit: { field: value.field, max: value.max } };
  },
  docLines: (op) =>
    op.batchSplit ? [doc`\`${op.batchSplit.field}\` holds at most ${op.batchSplit.max} entries per request.`] : [],
});
