/**
 * `x-dedupe-key`: the body field or header that makes a class D operation safe to repeat; the
 * client fills it when the caller gives none, and keeps it across resends.
 */
import { doc } from '../emit/spec-text.js';
import { quoted, SpecError } from '../spec-error.js';
import { HTTP_TOKEN } from '../spec-document.js';
import { defineExtension } from './extension.js';

/** The header build-model leaves out of the header params (the client fills it), lower-cased. */
export function dedupeHeaderName(op: Record<string, any>): string | undefined {
  const key = op['x-dedupe-key'];
  return key?.in === 'header' ? String(key.name).toLowerCase() : undefined;
}

export const dedupeKey = defineExtension({
  name: 'x-dedupe-key',
  place: 'operation',
  readme: {
    where: 'operation',
    meaning: '`{ in: body \\| header, name }`: the key that makes a D operation safe to repeat; the client fills it',
  },
  schema: {
    description: 'The key that makes a D operation safe to repeat; the client fills it.',
    type: 'object',
    required: ['in', 'name'],
    additionalProperties: false,
    properties: { in: { enum: ['body', 'header'] }, name: { type: 'string', minLength: 1 } },
  },
  check(value, { op, at, id }) {
    if (value === undefined && op['x-retry-class'] === 'D')
      throw new SpecError(
        `${at}/x-dedupe-key`,
        'dedupe-key-missing',
        `${id}: a D operation must name its x-dedupe-key`,
        'add x-dedupe-key: { in: body, name: <field> } (or in: header)',
      );
    if (value?.in === 'header' && !HTTP_TOKEN.test(value.name))
      throw new SpecError(
        `${at}/x-dedupe-key/name`,
        'parameter-name',
        `${id}: the dedupe header name ${quoted(value.name)} is not an HTTP token`,
        'write the header name as it goes on the wire, e.g. Idempotency-Key',
      );
  },
  read(value, { body, at, id }) {
    if (!value) return {};
    if (value.in === 'body' && !body?.fields.some((f) => f.name === value.name))
      throw new SpecError(
        `${at}/x-dedupe-key`,
        'dedupe-key-undeclared',
        `${id}: dedupe key ${quoted(value.name)} is not a declared body field`,
        'name a property of the request body, or write in: header',
      );
    return { dedupeKey: { in: value.in, name: value.name } };
  },
  docLines: (op) =>
    op.dedupeKey
      ? [
          doc`Dedupe key: \`${op.dedupeKey.name}\` (${op.dedupeKey.in}); pass your own to make a resend across processes safe, or \`idempotencyKey\` in the options.`,
        ]
      : [],
});
