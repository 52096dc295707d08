/**
 * `x-truncated-refetch` on a callbacks event schema: the REST call that fetches what truncation
 * dropped (build-callback-model.ts).
 */
import { SpecError } from '../spec-error.js';
import { defineExtension } from './extension.js';

export const truncatedRefetch = defineExtension({
  name: 'x-truncated-refetch',
  place: 'callbacks',
  readme: {
    where: 'callbacks event schema',
    meaning:
      '`{ operationId, params: { <param>: <data field> } }`: the REST call that fetches what ' +
      'truncation dropped (the inbox hands it to the worker)',
  },
  schema: {
    description:
      'On an event schema: the REST operation (operationId of spec/openapi.yaml) that fetches what truncation ' +
      'dropped (seed 001 §2.6), and per parameter the data field holding its value.',
    type: 'object',
    required: ['operationId', 'params'],
    properties: {
      operationId: { type: 'string' },
      params: { type: 'object', additionalProperties: { type: 'string' } },
      'x-assumed': { $ref: '#/$defs/reason' },
    },
    additionalProperties: false,
  },
  readEvent({ schema, at, source }) {
    const mark = schema['x-truncated-refetch'];
    if (mark === undefined) return {};
    const params = mark?.params;
    if (
      typeof mark?.operationId !== 'string' ||
      params === null ||
      typeof params !== 'object' ||
      Array.isArray(params) ||
      !Object.values(params).every((v) => typeof v === 'string')
    )
      throw new SpecError(
        `${at}/x-truncated-refetch`,
        'truncated-refetch',
        'x-truncated-refetch needs operationId (string) and params (parameter → data field, strings)',
        'write { operationId: <REST operationId>, params: { <param>: <data field> } }',
        source,
      );
    return { refetch: { operationId: mark.operationId, params: { ...(params as Record<string, string>) } } };
  },
});
