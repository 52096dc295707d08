/**
 * The registry of spec extensions (issue 32): one module per `x-` name, in the order their doc
 * lines and README rows appear. Adding an extension: write its module (extension.ts says what it
 * may hold), add it here, test it. spec/extensions.schema.json (read by the Redocly plugin) and
 * the README's extension table are built from this list; test/generator/extensions/index.test.ts
 * fails when either is stale.
 */
import type { JsonSchema } from '../model.js';
import { callbacksSpecData } from './callbacks-spec-data.js';
import type { Extension, ExtensionPlace } from './extension.js';
import { answer } from './x-answer.js';
import { assumed } from './x-assumed.js';
import { batchSplit } from './x-batch-split.js';
import { bestEffort } from './x-best-effort.js';
import { dedupeKey } from './x-dedupe-key.js';
import { delivery } from './x-delivery.js';
import { limits } from './x-limits.js';
import { notDocumented } from './x-not-documented.js';
import { orderingVersion } from './x-ordering-version.js';
import { pagination } from './x-pagination.js';
import { paramsRequired } from './x-params-required.js';
import { pendingHelper } from './x-pending-helper.js';
import { retryClass } from './x-retry-class.js';
import { retryClassWhen } from './x-retry-class-when.js';
import { since } from './x-since.js';
import { toggle } from './x-toggle.js';
import { truncatedRefetch } from './x-truncated-refetch.js';
import { tsBrand } from './x-ts-brand.js';
import { uploadHelper } from './x-upload-helper.js';

export type {
  Extension,
  EventReadContext,
  ExtensionPlace,
  HelperReader,
  OperationContext,
  OperationReadContext,
} from './extension.js';

export const EXTENSIONS: readonly Extension[] = [
  retryClass,
  retryClassWhen,
  dedupeKey,
  batchSplit,
  pagination,
  toggle,
  pendingHelper,
  uploadHelper,
  paramsRequired,
  since,
  tsBrand,
  orderingVersion,
  bestEffort,
  truncatedRefetch,
  delivery,
  limits,
  answer,
  ...callbacksSpecData,
  assumed,
  notDocumented,
];

/** The extensions read on an OpenAPI operation, in registry order. */
export const OPERATION_EXTENSIONS = EXTENSIONS.filter((e) => e.place === 'operation');

/** The extensions read on a callbacks event schema, in registry order (the model's field order). */
export const EVENT_EXTENSIONS = EXTENSIONS.filter((e) => e.readEvent);

/** Definitions the fragments share (`#/$defs/<name>`). */
const SHARED_DEFS: Record<string, JsonSchema> = {
  reason: { type: 'string', minLength: 1 },
  snakeName: { type: 'string', pattern: '^[a-z][a-z0-9_]*$' },
  operationId: { type: 'string', pattern: '^[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)+$' },
};

const PLACES: Record<ExtensionPlace, string> = {
  operation: 'Extensions of an OpenAPI operation object.',
  anywhere: 'Provenance marks, allowed on any object of either spec; and x-ts-brand on a component schema.',
  callbacks:
    'Extensions of the AsyncAPI callbacks spec (read by generator/build-callback-model.ts and ' +
    'the callbacks kit); checked by name and kind of value.',
};

/** spec/extensions.schema.json, as the registry says it. */
export function extensionsSchema(): { $defs: Record<string, any> } & JsonSchema {
  const place = (p: ExtensionPlace) => ({
    description: PLACES[p],
    type: 'object',
    properties: Object.fromEntries(EXTENSIONS.filter((e) => e.place === p).map((e) => [e.name, e.schema])),
  });
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'urn:im-openapi:spec-extensions',
    title: 'The x- extensions im-openapi reads',
    description:
      'Written from the registry generator/extensions/ (one module per extension; do not edit by hand: test/generator/extensions/index.test.ts fails when this file is stale, `npx vitest run -u` on it rewrites it). `npm run generate` and the spec lint (Redocly ' +
      'plugin scripts/lint/redocly-extensions.mjs) check every x- name and value against it; an unknown name close to a known one is refused with a suggestion. Extensions of other tools (far from every name here) are left alone.',
    $defs: {
      operation: place('operation'),
      anywhere: place('anywhere'),
      callbacks: place('callbacks'),
      ...SHARED_DEFS,
    },
  };
}

/** The README's extension table (markdown), one row per extension. */
export function extensionTable(): string {
  const rows = EXTENSIONS.map((e) => `| \`${e.name}\` | ${e.readme.where} | ${e.readme.meaning} |`);
  return ['| extension | where | meaning |', '|---|---|---|', ...rows].join('\n');
}
