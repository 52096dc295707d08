/**
 * `x-since: "<version>"` on an operation: the API version that introduced it, shown as `@since`
 * in the JSDoc of its method and function. A spec author's annotation, not a fact of the service.
 */
import { doc } from '../emit/spec-text.js';
import { defineExtension } from './extension.js';

declare module '../model.js' {
  interface OperationModel {
    /** `x-since`: the API version that introduced the operation. */
    since?: string;
  }
}

export const since = defineExtension({
  name: 'x-since',
  place: 'operation',
  readme: {
    where: 'operation',
    meaning: '`"<version>"`: the API version that introduced it, shown as `@since` in its JSDoc',
  },
  schema: {
    description: 'The API version that introduced the operation (shown as @since in its JSDoc).',
    type: 'string',
    pattern: '^[0-9A-Za-z][0-9A-Za-z.+-]*$',
  },
  read: (value) => (value === undefined ? {} : { since: value }),
  docTags: (op) => (op.since ? [doc`@since ${op.since}`] : []),
});
