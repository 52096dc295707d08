/** OpenAPI document → ApiModel. Pure: no I/O, deterministic order. */
import type { HttpMethod } from '../templates/runtime/contract/operation-spec.js';
import { OPERATION_EXTENSIONS, type OperationReadContext } from './extensions/index.js';
import { collectProvenance } from './extensions/x-assumed.js';
import { dedupeHeaderName } from './extensions/x-dedupe-key.js';
import { buildHelperMethods } from './build-helpers.js';
import { deref, METHODS, splitPathKey, type OpenApiDocument } from './load-spec.js';
import type {
  ApiModel,
  BodyModel,
  FieldModel,
  ErrorResponseModel,
  GeneratorWarning,
  JsonSchema,
  OperationModel,
} from './model.js';
import { operationNames, pascalCase } from './names.js';
import { wireBodies, wireParams, wireResponses } from './build-wire.js';
import { BODY_PARAM } from '../templates/runtime/contract/operation-spec.js';
import { SpecError, collectSpecErrors, pointerOf, quoted, type SpecProblem } from './spec-error.js';
import { checkDerivedNames } from './transform/derived-names.js';
import { buildWebhooks } from './build-webhooks.js';
import { INLINE_NODES_PER_OPERATION } from './check-schemas.js';

const PREFIX = '/{org_name}/{app_name}';
const CLIENT_FILLED = new Set(['org_name', 'app_name']);

/** `unvalidated`: pointers of operations whose schemas inline beyond the limit (check-schemas.ts): not validated by the client. */
export function buildApiModel(
  doc: OpenApiDocument,
  source = 'spec/openapi.yaml',
  unvalidated: ReadonlySet<string> = new Set(),
): ApiModel {
  const operations: OperationModel[] = [];
  const warnings: GeneratorWarning[] = [];
  // Every operation's problems are gathered, so the author sees them all in one run.
  const problems: SpecProblem[] = [];
  for (const path of Object.keys(doc.paths).sort()) {
    const item = doc.paths[path];
    for (const method of METHODS) {
      if (!item[method]) continue;
      const op = collectSpecErrors(problems, () => operationModel(doc, path, method, item, warnings));
      if (op && unvalidated.has(pointerOf('paths', path, method)))
        op.unvalidated = `its schemas with their $refs inlined come to over ${INLINE_NODES_PER_OPERATION.toLocaleString('en')} nodes, the most one operation's validator may hold`;
      if (op) operations.push(op);
    }
  }
  if (problems.length) throw SpecError.of(problems);
  operations.sort((a, b) => a.id.localeCompare(b.id));
  const byNamespace = new Map<string, OperationModel[]>();
  for (const op of operations) byNamespace.set(op.namespace, [...(byNamespace.get(op.namespace) ?? []), op]);
  const helpers = buildHelperMethods(doc, operations);
  const namespaces = [...byNamespace.keys()].sort().map((name) => ({
    name,
    className: pascalCase(name),
    operations: byNamespace.get(name)!,
    helpers: helpers.filter((h) => h.namespace === name),
  }));
  const schemas = Object.keys(doc.components?.schemas ?? {})
    .sort()
    .map((name) => ({ name, schema: doc.components.schemas[name] }));
  const model: ApiModel = {
    title: typeof doc.info?.title === 'string' ? doc.info.title : 'API',
    version: typeof doc.info?.version === 'string' ? doc.info.version : '0.0.0',
    source,
    operations,
    namespaces,
    schemas,
    provenance: collectProvenance(doc, ''),
    webhooks: [],
    warnings,
  };
  const taken = checkDerivedNames(model);
  model.webhooks = buildWebhooks(doc, operations, taken, warnings);
  return model;
}

function operationModel(
  doc: OpenApiDocument,
  specPath: string,
  method: (typeof METHODS)[number],
  item: any,
  warnings: GeneratorWarning[],
): OperationModel {
  const op = item[method];
  const at = pointerOf('paths', specPath, method);
  const id: string = op.operationId;
  const names = operationNames(id);
  const isTokenExchange = Array.isArray(op.security) && op.security.length === 0;
  if (!specPath.startsWith(PREFIX))
    throw new SpecError(
      at,
      'path-prefix',
      `${id}: every path must start with ${PREFIX}`,
      `write the path as ${PREFIX}/…`,
    );

  const { pathParams, queryParams, headerParams, cookieParams } = operationParams(
    doc,
    { specPath, item, op, at, id },
    warnings,
  );
  const nonBody = new Set([...pathParams, ...queryParams, ...headerParams, ...cookieParams].map((p) => p.name));
  const bodies = wireBodies(doc, id, at, deref(doc, op.requestBody, `${at}/requestBody`), nonBody, warnings);
  const body = bodies[0] ?? null;
  checkFlatParams(at, id, [pathParams, queryParams, headerParams, cookieParams], bodies);
  const { successStatuses, response, responseKind, statusResponses, successMediaTypes } = operationResponses(
    doc,
    op,
    at,
    method,
    warnings,
  );

  const fromExtensions = extensionFields(doc, { op, at, id, queryParams, body, response });

  return {
    id,
    ...names,
    method: method.toUpperCase() as HttpMethod,
    specPath,
    path: pathOf(specPath),
    tag: typeof op.tags?.[0] === 'string' ? op.tags[0] : names.namespace,
    summary: typeof op.summary === 'string' ? op.summary : id,
    description: typeof op.description === 'string' ? op.description : '',
    auth: !isTokenExchange,
    isTokenExchange,
    pathParams,
    queryParams,
    headerParams,
    cookieParams,
    deprecated: op.deprecated === true,
    body,
    bodies,
    paramsRequired:
      pathParams.length > 0 ||
      [...queryParams, ...headerParams, ...cookieParams].some((q) => q.required) ||
      !!body?.fields.some((f) => f.required),
    retryClass: 'N',
    retryClassWhen: [],
    ...fromExtensions,
    successStatuses,
    successMediaTypes,
    response,
    responseKind,
    ...(statusResponses ? { statusResponses } : {}),
    provenance: collectProvenance(op, at),
    errorResponses: errorResponsesOf(doc, at, op.responses),
  };
}

/** The path, query, header and cookie parameters of an operation, path parameters in template order. */
function operationParams(
  doc: OpenApiDocument,
  { specPath, item, op, at, id }: { specPath: string; item: any; op: any; at: string; id: string },
  warnings: GeneratorWarning[],
) {
  const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: any, i: number) =>
    deref(doc, p, `${at}/parameters/${i}`),
  );
  const { pathParams, queryParams, headerParams, cookieParams } = wireParams(
    doc,
    id,
    at,
    params,
    dedupeHeaderName(op),
    warnings,
  );
  const placeholders = [...specPath.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).filter((n) => !CLIENT_FILLED.has(n));
  for (const name of placeholders) {
    if (!pathParams.some((p) => p.name === name))
      throw new SpecError(
        at,
        'path-parameter-undeclared',
        `${id}: {${name}} in the path has no parameter`,
        `declare a parameter with name: ${name} and in: path`,
      );
  }
  pathParams.sort((a, b) => placeholders.indexOf(a.name) - placeholders.indexOf(b.name));

  return { pathParams, queryParams, headerParams, cookieParams };
}

/** One flat params object: a name may stand in one place only (checked for every media type). */
function checkFlatParams(
  at: string,
  id: string,
  [pathParams, queryParams, headerParams, cookieParams]: [FieldModel[], FieldModel[], FieldModel[], FieldModel[]],
  bodies: BodyModel[],
): void {
  for (const b of bodies.length ? bodies : [null]) {
    const seen = new Map<string, string>();
    for (const [where, fields] of [
      ['path', pathParams],
      ['query', queryParams],
      ['header', headerParams],
      ['cookie', cookieParams],
      ['body', b?.fields ?? []],
    ] as const) {
      for (const f of fields) {
        const other = seen.get(f.name);
        if (other && b && (b.kind === 'binary' || b.kind === 'text') && f.name === BODY_PARAM) {
          throw new SpecError(
            at,
            'param-name-reserved',
            `${id}: the ${other} parameter "${BODY_PARAM}" clashes with the params field that carries the ${b.contentType} body`,
            'rename the parameter',
          );
        }
        if (other)
          throw new SpecError(
            at,
            'param-name-clash',
            `${id}: ${quoted(f.name)} is both a ${other} and a ${where} field${b ? ` (${b.contentType})` : ''}`,
            'rename one of them: params are one flat object, so names must differ',
          );
        seen.set(f.name, where);
      }
    }
  }
}

/** The success statuses and how the first one's body is read (a HEAD answer has none). */
function operationResponses(
  doc: OpenApiDocument,
  op: any,
  at: string,
  method: (typeof METHODS)[number],
  warnings: GeneratorWarning[],
) {
  const id: string = op.operationId;
  const successStatuses = Object.keys(op.responses ?? {})
    .filter((s) => /^2\d\d$/.test(s))
    .map(Number)
    .sort();
  if (!successStatuses.length)
    warnings.push({
      pointer: `${at}/responses`,
      rule: 'no-success-response',
      message: `${id}: no 2xx response: any 2xx answer is read as ${op.responses?.default ? 'the default response' : 'JSON of unknown shape'} says`,
    });
  const wire = wireResponses(doc, at, op.responses, successStatuses);
  // a HEAD answer never has a body, whatever its content says (the headers are the result)
  const {
    response,
    responseKind,
    statusResponses,
    mediaTypes: successMediaTypes,
  } = method === 'head' ? { ...wire, response: {}, responseKind: 'empty' as const, statusResponses: undefined } : wire;

  return { successStatuses, response, responseKind, statusResponses, successMediaTypes };
}

/** The OperationModel fields the operation's extensions feed (each module's `read`, generator/extensions/). */
function extensionFields(doc: OpenApiDocument, ctx: Omit<OperationReadContext, 'resolve'>): Partial<OperationModel> {
  const full = { ...ctx, resolve: (schema: JsonSchema | undefined) => derefSchema(doc, schema, `${ctx.at}/responses`) };
  return Object.assign({}, ...OPERATION_EXTENSIONS.map((e) => e.read?.(ctx.op[e.name], full)));
}

/** The non-2xx responses and the error codes their JSON examples show (`error.code`). */
function errorResponsesOf(
  doc: OpenApiDocument,
  at: string,
  responses: Record<string, unknown> | undefined,
): ErrorResponseModel[] {
  return Object.entries(responses ?? {})
    .filter(([status]) => !/^2(\d\d|XX)$/i.test(status))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, r]) => {
      const response = deref(doc, r, `${at}/responses/${status}`);
      const examples = response?.content?.['application/json']?.examples;
      const codes = Object.values<any>(examples && typeof examples === 'object' ? examples : {}).map(
        (e) => e?.value?.error?.code,
      );
      return { status, codes: [...new Set(codes.filter((c): c is string => typeof c === 'string'))] };
    });
}

/** The path the client fills and sends: without the prefix and a `#fragment`, with a fixed `?query` (load-spec.ts splitPathKey). */
function pathOf(specPath: string): string {
  const { template, query } = splitPathKey(specPath);
  return template.slice(PREFIX.length) + (query !== undefined ? `?${query}` : '');
}

function derefSchema(doc: OpenApiDocument, schema: any, at: string): JsonSchema | undefined {
  let s = schema;
  for (let i = 0; s && typeof s.$ref === 'string' && i < 10; i++) s = deref(doc, s, at);
  return s;
}
