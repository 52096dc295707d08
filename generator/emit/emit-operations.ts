/**
 * Emits `src/operations.ts`: one `OperationSpec` constant per operation (so a bundler keeps only
 * the ones an app calls) and the table of all of them by op name.
 */
import { StructureKind, VariableDeclarationKind, type StatementStructures } from 'ts-morph';
import type { OperationSpec, RequestBodySpec } from '../../templates/runtime/contract/operation-spec.js';
import { OPERATION_DEFAULTS, pathParamsOf } from '../../templates/runtime/contract/operation-entry.js';
import { reachesFormat } from '../transform/refs.js';
import type { ApiModel, BodyModel, OperationModel } from '../model.js';
import { doNotEditHeader, renderSource } from './source-file.js';
import { doc, jsDocs, jsonLiteral, stringLiteral } from './spec-text.js';

export const OPERATIONS_FILE = 'src/operations.ts';

export function operationConstName(op: OperationModel): string {
  return `${op.funcName}Operation`;
}

/**
 * The runtime's view of one operation: exactly the fields of OperationSpec. `components` (the
 * model's schemas) lets it tell whether a response reaches an int64 field.
 */
export function operationSpecOf(
  op: OperationModel,
  components: ReadonlyMap<string, unknown> = new Map(),
): OperationSpec {
  return {
    id: op.id,
    method: op.method,
    path: op.path,
    ...(op.isTokenExchange ? { isTokenExchange: true } : {}),
    auth: op.auth,
    pathParams: op.pathParams.map((p) => p.name),
    queryParams: op.queryParams.map((p) => p.name),
    ...wireSpecOf(op),
    body: op.body ? 'object' : 'none',
    bodyFields: op.body ? op.body.fields.map((f) => f.name) : [],
    ...(plainJsonBody(op) ? {} : { requestBodies: op.bodies.map(requestBodySpec) }),
    retryClass: op.retryClass,
    ...(op.retryClassWhen.length ? { retryClassWhen: op.retryClassWhen } : {}),
    ...(op.dedupeKey ? { dedupeKey: op.dedupeKey } : {}),
    ...(op.pagination ? { pagination: op.pagination } : {}),
    ...(op.batchSplit ? { batchSplit: op.batchSplit } : {}),
    successStatuses: op.successStatuses,
    ...acceptOf(op),
    ...(op.responseKind !== 'json' ? { response: op.responseKind } : {}),
    ...(op.statusResponses
      ? { responseByStatus: Object.fromEntries(op.statusResponses.map((r) => [r.status, r.kind])) }
      : {}),
    ...(reachesFormat([op.response, op.statusResponses?.map((r) => r.schema)], components, 'int64')
      ? { int64Response: true }
      : {}),
  };
}

const MEDIA_RANGE = /^[\w!#$&^.+-]+\/[\w!#$&^.+*-]+(?:\s*;\s*[\w!#$&^.+-]+=(?:"[^"\r\n\\]*"|[\w!#$&^.+-]+))*$/;

/** `accept`: the success media types when they are not JSON alone (a media type range without parameters, as listed). */
function acceptOf(op: OperationModel): Pick<OperationSpec, 'accept'> {
  // only media ranges go into the header (a key with a line break would be a header of its own)
  const types = op.successMediaTypes.filter((t) => MEDIA_RANGE.test(t));
  if (!types.length || (types.length === 1 && types[0] === 'application/json')) return {};
  return { accept: types.join(', ') };
}

export function needsWireCodec(spec: OperationSpec): boolean {
  return !!(
    spec.queryStyles ||
    spec.headerParams ||
    spec.cookieParams ||
    spec.requestBodies ||
    spec.response ||
    spec.responseByStatus
  );
}

/** True when the body is what the runtime sends without `requestBodies`: one JSON object. */
function plainJsonBody(op: OperationModel): boolean {
  return (
    op.bodies.length <= 1 &&
    (!op.body || (op.body.kind === 'json' && op.body.contentType === 'application/json' && !op.body.whole))
  );
}

function requestBodySpec(b: BodyModel): RequestBodySpec {
  const objectKind = b.kind !== 'binary' && b.kind !== 'text';
  const files = b.fields.filter((f) => f.file).map((f) => f.name);
  return {
    contentType: b.contentType,
    kind: b.kind,
    ...(objectKind ? { fields: b.fields.map((f) => f.name) } : {}),
    ...(b.whole ? { whole: true } : {}),
    ...(files.length ? { files } : {}),
    ...(b.encoding ? { encoding: b.encoding } : {}),
  };
}

/** Parameter locations and styles beyond path + form-style query (written only when used). */
function wireSpecOf(op: OperationModel): Partial<OperationSpec> {
  const styles = op.queryParams.filter((q) => q.style).map((q) => [q.name, q.style!] as const);
  const allowEmpty = op.queryParams.filter((q) => q.allowEmptyValue).map((q) => q.name);
  const exploded = op.headerParams.filter((h) => h.explode).map((h) => h.name);
  return {
    ...(styles.length ? { queryStyles: Object.fromEntries(styles) } : {}),
    ...(allowEmpty.length ? { allowEmpty } : {}),
    ...(op.headerParams.length ? { headerParams: op.headerParams.map((h) => h.name) } : {}),
    ...(exploded.length ? { explodeHeaders: exploded } : {}),
    ...(op.cookieParams.length ? { cookieParams: op.cookieParams.map((c) => c.name) } : {}),
  };
}

/**
 * The spec as operations.ts writes it: fields equal to their default (contract/operation-entry.ts;
 * `pathParams`: the names its path gives, in order) left out; `operation()` fills them back at load.
 */
export function operationEntryOf(spec: OperationSpec): Partial<OperationSpec> {
  const entry: Partial<OperationSpec> = {};
  for (const [name, value] of Object.entries(spec) as [keyof OperationSpec, unknown][]) {
    const fallback =
      name === 'pathParams'
        ? pathParamsOf(spec.path)
        : (OPERATION_DEFAULTS as Partial<Record<keyof OperationSpec, unknown>>)[name];
    if (fallback === undefined || jsonLiteral(value) !== jsonLiteral(fallback))
      (entry as Record<string, unknown>)[name] = value;
  }
  return entry;
}

export function emitOperations(model: ApiModel, validatorImport?: (op: OperationModel) => string): Map<string, string> {
  const statements: (string | StatementStructures)[] = [
    `import type { OperationSpec } from './operation.js';`,
    `import { operation } from './internal/operation-entry.js';`,
  ];
  const components = new Map(model.schemas.map((s) => [s.name, s.schema]));
  const specs = new Map(model.operations.map((op) => [op, operationSpecOf(op, components)]));
  // Only entries that need the wire codec reference it (an app calling JSON operations never bundles it).
  if ([...specs.values()].some(needsWireCodec))
    statements.push(`import { wireCodec } from './internal/wire-codec.js';`);
  for (const op of model.operations) {
    const spec = jsonLiteral(operationEntryOf(specs.get(op)!));
    const codec = needsWireCodec(specs.get(op)!) ? ', wire: wireCodec' : '';
    const loader = `${codec}${validatorImport ? `, loadValidator: () => import(${stringLiteral(validatorImport(op))})` : ''}`;
    statements.push({
      kind: StructureKind.VariableStatement,
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: jsDocs(
        op.isTokenExchange
          ? doc`${op.id}: ${op.method} ${op.path} (the token exchange: the seed gives it no retry class, so it is never resent after a failure).`
          : doc`${op.id}: ${op.method} ${op.path} (retry class ${op.retryClass}).`,
      ),
      // pure: a bundler drops the entries an app does not call
      declarations: [
        {
          name: operationConstName(op),
          type: 'OperationSpec',
          initializer: `/* @__PURE__ */ operation(${spec.slice(0, -1)}${loader}})`,
        },
      ],
    });
  }
  statements.push({
    kind: StructureKind.VariableStatement,
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: jsDocs("Every operation by its op name (the spec's operationId)."),
    declarations: [
      {
        name: 'operations',
        initializer: `{ ${model.operations.map((op) => `${stringLiteral(op.id)}: ${operationConstName(op)}`).join(', ')} } as const`,
      },
    ],
  });
  return new Map([[OPERATIONS_FILE, doNotEditHeader(model.source) + renderSource(statements)]]);
}
