/**
 * `x-pagination`: how a list operation pages. Its method returns a PagePromise (`await` the first
 * page, `for await` every item), and a versioned list also gets `<method>AllPages` (build-helpers.ts).
 */
import { doc } from '../emit/spec-text.js';
import { quoted, SpecError } from '../spec-error.js';
import { defineExtension } from './extension.js';

export const pagination = defineExtension({
  name: 'x-pagination',
  place: 'operation',
  readme: {
    where: 'operation',
    meaning:
      '`{ kind: cursor \\| versioned \\| sequence \\| export, itemsField, cursorParam, nextCursorField, ' +
      'versionField? }`; a versioned list also gets `<method>All`',
  },
  schema: {
    description: 'How a list operation pages.',
    type: 'object',
    required: ['kind', 'itemsField', 'cursorParam', 'nextCursorField'],
    additionalProperties: false,
    properties: {
      kind: { enum: ['cursor', 'versioned', 'sequence', 'export'] },
      itemsField: { type: 'string', minLength: 1 },
      cursorParam: { type: 'string', minLength: 1 },
      nextCursorField: { type: 'string', minLength: 1 },
      versionField: { type: 'string', minLength: 1 },
      'x-assumed': { $ref: '#/$defs/reason' },
    },
  },
  read(px, { at, id, response, queryParams, resolve }) {
    if (!px) return {};
    const itemSchema = resolve(response)?.properties?.[px.itemsField]?.items;
    if (!itemSchema)
      throw new SpecError(
        `${at}/x-pagination`,
        'pagination-items',
        `${id}: the page schema has no array field ${quoted(px.itemsField)}`,
        'name the array property of the page in itemsField',
      );
    if (!queryParams.some((q) => q.name === px.cursorParam))
      throw new SpecError(
        `${at}/x-pagination`,
        'pagination-cursor',
        `${id}: no query parameter ${quoted(px.cursorParam)}`,
        'name the query parameter that carries the cursor in cursorParam',
      );
    const pagination = {
      kind: px.kind,
      itemsField: px.itemsField,
      cursorParam: px.cursorParam,
      nextCursorField: px.nextCursorField,
      ...(px.versionField ? { versionField: px.versionField } : {}),
    };
    return { pagination, itemSchema };
  },
  docLines: (op) =>
    op.pagination
      ? [
          doc`A list (${op.pagination.kind} pages): \`await\` gives the first page; \`for await\` walks every item across pages.`,
        ]
      : [],
  surface(op) {
    const p = op.pagination;
    if (!p) return {};
    const fields = Object.entries(p)
      .filter(([k]) => k !== 'kind')
      .map(([k, v]) => `${k}=${v}`)
      .sort();
    return { paging: p.kind, pagingFields: fields.join(', ') };
  },
  compare(old, now, change) {
    const call = now.call;
    if (old.paging !== now.paging)
      change({
        class: 'breaking',
        kind: 'paging-changed',
        before: old.paging ?? 'none',
        after: now.paging ?? 'none',
        message: `${call}: paging ${old.paging ?? 'none'} → ${now.paging ?? 'none'} (it now returns ${now.paging ? `PagePromise<${now.resultType}, ${now.itemType}>` : now.resultType})`,
        migration: now.paging
          ? `await ${call} for the first page (${now.resultType}) or walk it with for await`
          : `await ${call} for its one ${now.resultType}; there are no pages to walk`,
      });
    else if (old.pagingFields !== now.pagingFields)
      change({
        class: 'breaking',
        kind: 'paging-fields-changed',
        before: old.pagingFields ?? '',
        after: now.pagingFields ?? '',
        message: `${call}: the page fields changed (${old.pagingFields} → ${now.pagingFields}); for await follows them, code that reads or passes them by hand breaks`,
        migration: `read and pass the new page fields (${now.pagingFields}) where you page ${call} by hand`,
      });
  },
});
