/**
 * Emits `src/validators/<funcName>.ts`: one request validator per operation, compiled at
 * generate time by Ajv (draft 2020-12) into standalone code, loaded lazily by the runtime
 * through the operation table's `loadValidator: () => import('./validators/<funcName>.js')`.
 *
 * Each module exports `validate(params): ValidationIssue[] | null`. Ajv's standalone code
 * `require()`s a few helpers from the ajv package even in ESM mode; they are rewritten to
 * imports of `src/internal/ajv-runtime.ts` (hand-written runtime), so the package keeps zero
 * runtime dependencies and works as ESM and CJS. Any other `require` fails the generation.
 * The modules are TypeScript files holding plain JavaScript under `// @ts-nocheck`; tsc
 * compiles them into both builds.
 *
 * Shared component schemas (issues 15 and 18): a component reached as is by two or more
 * operations in one view (request params or response drift) and not on a `$ref` cycle is compiled
 * once, into `src/validators/shared/<Name>.<request|response>.ts` (exports `validate`, the raw Ajv
 * function). Operation modules (and shared modules that reach other shared components) stand a
 * `{ "x-im-shared": "<Name>.<view>" }` keyword where the inlined component was; its code calls the
 * imported function as Ajv's own `$ref` calls a compiled schema, passing the instance path on and
 * nesting the errors' schemaPaths under the calling keyword (ajvNestErrors), so the issue mapping
 * words them exactly as when the component was inlined. So a one-field change to a widely used
 * component rewrites its shared module, not every operation module. Recursive components stay
 * `$defs` of each module (an import cycle would read an uninitialised binding at module top);
 * a tree with `unevaluated*` keywords stays fully inline (a called function's evaluated
 * properties are not merged). Still lazy: an operation module imports only what it reaches.
 *
 * Deterministic: one fresh Ajv instance per module (its generated names depend only on that
 * module's schema) and schemas built in a fixed key order.
 */
import { _, Name, nil, type KeywordCxt } from 'ajv';
import Ajv2020Module from 'ajv/dist/2020.js';
import namesModule from 'ajv/dist/compile/names.js';
import { callValidateCode } from 'ajv/dist/vocabularies/code.js';
import standaloneModule from 'ajv/dist/standalone/index.js';
import { ajvFormats } from '../../templates/runtime/contract/ajv-formats.js';
import { ANNOTATION_FORMATS, CHECKED_FORMATS } from '../transform/formats.js';
import { createHash } from 'node:crypto';
import type { GeneratorCache } from '../format.js';
import type { ApiModel, JsonSchema, OperationModel } from '../model.js';
import {
  inlineContext,
  inlinedComponentOf,
  inlineSchema,
  recursiveComponents,
  withDefs,
  type SchemaView,
} from '../transform/inline-schema.js';
import { componentMap, driftComponentMap, paramsSchemaOf, responseDriftSchemaOf } from './params-schema.js';
import { doNotEditHeader } from './source-file.js';
import { doc, docComment, fileStem, jsonLiteral, lineComment, structuralKey } from './spec-text.js';
import { SpecError, pointerOf } from '../spec-error.js';

export const VALIDATORS_DIR = 'src/validators';

export function validatorFile(op: OperationModel): string {
  return `${VALIDATORS_DIR}/${fileStem(op.funcName)}.ts`;
}

/** The import path that `src/operations.ts` uses for an operation's validator. */
export function validatorImport(op: OperationModel): string {
  return `./validators/${fileStem(op.funcName)}.js`;
}

/** The keyword that stands for a shared component's validator in a compiled schema. */
export const SHARED_KEYWORD = 'x-im-shared';
const VIEW_FILE_NAMES: Record<SchemaView, string> = { write: 'request', read: 'response' };

/** `<Name>.<request|response>`: the key, file stem and keyword value of one shared module. */
export function sharedKey(component: string, view: SchemaView): string {
  return `${component}.${VIEW_FILE_NAMES[view]}`;
}

export function sharedFile(key: string): string {
  return `${VALIDATORS_DIR}/shared/${fileStem(key)}.ts`;
}

/**
 * The identifier a module imports a shared validator as: `shared_` + the key, `.` → `$` and any
 * other character that is not a letter or digit → `_<hex>_` (injective, so two keys never clash).
 */
export function sharedIdentifier(key: string): string {
  return `shared_${key.replace(/[^A-Za-z0-9]/g, (c) => (c === '.' ? '$' : `_${c.charCodeAt(0).toString(16)}_`))}`;
}

/** `require(...)` expressions of Ajv standalone code → names exported by internal/ajv-runtime.ts. */
const RUNTIME_REQUIRES: Record<string, string> = {
  'require("ajv/dist/runtime/ucs2length").default': 'ajvUcs2length',
  'require("ajv/dist/runtime/equal").default': 'ajvDeepEqual',
};
/** Name of the formats table in ajv-formats.ts (`code.formats` below); Ajv's code reads `ajvFormats["date-time"]`. */
const FORMATS_NAME = 'ajvFormats';
/** ajv-runtime.ts helper the shared keyword's code calls. */
const NEST_ERRORS = 'ajvNestErrors';
const RUNTIME_NAMES = [...Object.values(RUNTIME_REQUIRES), FORMATS_NAME, NEST_ERRORS].sort();
const N: typeof namesModule.default = (namesModule as any).default ?? namesModule;

// ajv and its standalone module are CommonJS with a `default` export.
const AjvClass: typeof Ajv2020Module.default = (Ajv2020Module as any).default ?? Ajv2020Module;
const toStandalone: typeof standaloneModule.default = (standaloneModule as any).default ?? standaloneModule;

function newAjv() {
  const ajv = new AjvClass({
    allErrors: true,
    // issues are worded by internal/validation-issues.ts: Ajv's own message strings would only grow the code
    messages: false,
    // our schemas: unknown keywords are a generator bug (annotations and x- keywords are dropped
    // by params-schema.ts before compiling), so strict mode stays on…
    strict: true,
    // each params schema is checked against the 2020-12 meta-schema once, by checkSchema();
    // compiling the meta-schema in every per-operation instance would cost ~2 s per generation
    validateSchema: false,
    // …except strictTypes: `minLength`/`pattern` beside a type list (path parameters accept
    // strings or numbers) and types spelled by component refs that we inline are fine.
    strictTypes: false,
    strictTuples: false,
    // …and strictRequired: `then: { required: [x] }` and `oneOf: [{ required: [x] }, …]` name
    // properties defined beside them, the standard idioms of conditional requirement (issue 26)
    strictRequired: false,
    validateFormats: true,
    // lines: the code is written as Ajv emits it (one statement a line) and not re-formatted by
    // Prettier, which would take ~4.5 s for ~1 MB of machine-written code (see generate.ts).
    code: { source: true, esm: true, lines: true, formats: _`ajvFormats` },
  });
  // Checked formats call ajvFormats[name] at run time; annotation formats emit no code.
  for (const [name, type] of Object.entries(CHECKED_FORMATS))
    ajv.addFormat(name, { type, validate: ajvFormats[name]!.validate } as never);
  for (const name of ANNOTATION_FORMATS) ajv.addFormat(name, true);
  ajv.addKeyword({ keyword: SHARED_KEYWORD, schemaType: 'string', code: sharedCallCode });
  return ajv;
}

/**
 * Code of `{ "x-im-shared": key }`: calls the imported shared validator the way Ajv's `$ref` calls
 * a compiled schema (callRef: same arguments, so instance paths come out whole), then appends its
 * errors with their schemaPaths nested under this keyword (see ajvNestErrors in ajv-runtime.ts).
 * The identifiers are free names of the generated code, bound by the module's imports.
 */
function sharedCallCode(cxt: KeywordCxt): void {
  const { gen } = cxt;
  const fn = new Name(sharedIdentifier(cxt.schema as string));
  cxt.result(callValidateCode(cxt, fn, nil), undefined, () => {
    gen.assign(
      N.vErrors,
      _`${new Name(NEST_ERRORS)}(${N.vErrors}, ${fn}.errors, ${`${cxt.it.errSchemaPath}/${SHARED_KEYWORD}`})`,
    );
    gen.assign(N.errors, _`${N.vErrors}.length`);
  });
}

/**
 * Import lines of the runtime names a module's code uses (`dir`: path up to `internal/`). The
 * format checks come from their own module, so a validator without a checked format (most) does
 * not load them.
 */
function runtimeImportLines(imports: readonly string[], dir: string): string[] {
  const helpers = imports.filter((name) => name !== FORMATS_NAME);
  return [
    ...(helpers.length ? [`import { ${helpers.join(', ')} } from '${dir}ajv-runtime.js';`] : []),
    ...(imports.includes(FORMATS_NAME) ? [`import { ${FORMATS_NAME} } from '${dir}ajv-formats.js';`] : []),
  ];
}

export class ValidatorEmitError extends Error {}

let metaAjv: InstanceType<typeof AjvClass> | undefined;

/** Refuses a schema to compile (params, response drift or shared component) that is not valid JSON Schema 2020-12 (a generator bug). */
function checkSchema(where: string, schema: object): void {
  metaAjv ??= new AjvClass({ strict: true });
  if (!metaAjv.validateSchema(schema)) {
    throw new ValidatorEmitError(
      `${where}: the schema to compile is not valid JSON Schema 2020-12: ${metaAjv.errorsText(metaAjv.errors)}`,
    );
  }
}

/** Standalone code with the helper requires rewritten to ajv-runtime.ts names; returns code and names used. */
function standaloneCode(
  ajv: InstanceType<typeof AjvClass>,
  exports: Record<string, string>,
  where: string,
): { code: string; imports: string[] } {
  let code = toStandalone(ajv, exports) as string;
  for (const [expr, name] of Object.entries(RUNTIME_REQUIRES)) code = code.split(expr).join(name);
  const leftover = /require\([^)]*\)/.exec(code);
  if (leftover) {
    throw new ValidatorEmitError(
      `${where}: the Ajv standalone code needs ${leftover[0]}; add that helper to templates/runtime/internal/ajv-runtime.ts and to RUNTIME_REQUIRES in generator/emit/emit-validators.ts`,
    );
  }
  code = code.replace(/^"use strict";/, '');
  // Ajv declares each schema as a constant (`const schema0 = {…}`, the whole schema on one line)
  // that the code rarely reads: dropped when unread, so the package does not carry every schema
  // twice and a schema edit changes only the code that checks it.
  code = code.replace(/^const (schema\d+) = .*;\n/gm, (line, name: string) =>
    code.match(new RegExp(`\\b${name}\\b`, 'g'))!.length > 1 ? line : '',
  );
  return { code, imports: RUNTIME_NAMES.filter((name) => new RegExp(`\\b${name}\\b`).test(code)) };
}

/** What one operation's validator module is compiled from. */
export interface ValidatorSchemas {
  params: JsonSchema;
  response: JsonSchema | boolean;
}

function validatorSchemasOf(model: ApiModel, op: OperationModel): ValidatorSchemas {
  return { params: paramsSchemaOf(model, op), response: responseDriftSchemaOf(model, op) };
}

/** Ajv standalone code for one op, with helper requires rewritten; returns code and names used. */
export function compileValidatorCode(
  model: ApiModel,
  op: OperationModel,
  schemas: ValidatorSchemas = validatorSchemasOf(model, op),
): { code: string; imports: string[] } {
  const ajv = newAjv();
  const id = `urn:im-server-sdk:params:${op.id}`;
  const schema = { $id: id, ...schemas.params };
  checkSchema(op.id, schema);
  ajv.addSchema(schema);
  const responseId = `urn:im-server-sdk:response:${op.id}`;
  const driftSchema = schemas.response;
  const response =
    typeof driftSchema === 'boolean'
      ? { $id: responseId, ...(driftSchema ? {} : { not: {} }) }
      : { $id: responseId, ...driftSchema };
  checkSchema(op.id, response);
  ajv.addSchema(response);
  const { code, imports } = standaloneCode(ajv, { validateParams: id, validateResponseBody: responseId }, op.id);
  return {
    code: code
      .replace(/export const validateParams = (\w+);/, 'const validateParams = $1;')
      .replace(/export const validateResponseBody = (\w+);/, 'const validateResponseBody = $1;'),
    imports,
  };
}

/** The shared modules a compiled schema calls (`x-im-shared` values), sorted. */
function sharedKeysIn(schema: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const s of schema) sharedKeysIn(s, out);
  else if (schema && typeof schema === 'object') {
    for (const [k, v] of Object.entries(schema)) {
      if (k === SHARED_KEYWORD && typeof v === 'string') out.add(v);
      else sharedKeysIn(v, out);
    }
  }
  return out;
}

/** `import { validate as shared_X$request } from '<dir>X.request.js';` per shared module called. */
function sharedImports(schemas: unknown, dir: string): string[] {
  return [...sharedKeysIn(schemas)]
    .sort()
    .map((key) => `import { validate as ${sharedIdentifier(key)} } from '${dir}${fileStem(key)}.js';`);
}

function validatorModule(model: ApiModel, op: OperationModel, schemas: ValidatorSchemas, int64: boolean): string {
  const { code, imports } = compileValidatorCode(model, op, schemas);
  const context = jsonLiteral({ pathParams: op.pathParams.map((p) => p.name) });
  // int64 fields may hold bigints (lossless-json.ts): the validator sees them as numbers.
  const arg = (name: string) => (int64 ? `bigintsAsNumbers(${name})` : name);
  return [
    doNotEditHeader(model.source).trimEnd(),
    lineComment(`@ts-nocheck: Ajv standalone code (plain JavaScript) validating the params of ${op.id}.`),
    `import type { ValidationIssue } from '../operation.js';`,
    ...runtimeImportLines(imports, '../internal/'),
    `import { issuesFromAjv } from '../internal/validation-issues.js';`,
    ...(int64 ? [`import { bigintsAsNumbers } from '../internal/lossless-json.js';`] : []),
    ...sharedImports(schemas, './shared/'),
    '',
    code,
    '',
    `const context = ${context};`,
    '',
    docComment(
      doc`Validates the flat params of \`${op.id}\` (path, query and body fields): null when valid, else the issues.`,
    ),
    'export function validate(params: unknown): ValidationIssue[] | null {',
    `  return validateParams(${arg('params')}) ? null : issuesFromAjv(validateParams.errors, params, context);`,
    '}',
    '',
    docComment(
      doc`Reports how a response body of \`${op.id}\` differs from the spec (unknown fields of documented shapes, new enum values, type changes): null when it matches. Never used to refuse a response.`,
    ),
    'export function validateResponse(body: unknown): ValidationIssue[] | null {',
    `  return validateResponseBody(${arg('body')}) ? null : issuesFromAjv(validateResponseBody.errors, body, { pathParams: [], response: true });`,
    '}',
    '',
  ].join('\n');
}

/** Ajv's `unevaluated*` keywords need the evaluated properties of every subschema: such a tree stays inline. */
function usesUnevaluated(schema: unknown): boolean {
  return /"unevaluated(Properties|Items)"/.test(structuralKey(schema));
}

const SUBSCHEMA_KEYWORDS = [
  'properties',
  'patternProperties',
  'items',
  'prefixItems',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  '$defs',
];

/**
 * Objects, lists and unions get a module of their own: they are what gains fields. A scalar leaf
 * (a string with a pattern, an enum of values) costs less inlined than the call, the import and
 * the module around it, and its edits are rarer. An open object without fields (`OpenResult`) is
 * shared too, or documenting its first field would move it into a module and rewrite every
 * operation that returns it.
 */
function isStructure(schema: JsonSchema): boolean {
  const types: unknown[] = Array.isArray(schema.type) ? schema.type : [schema.type];
  return (
    types.includes('object') ||
    types.includes('array') ||
    SUBSCHEMA_KEYWORDS.some((k) => k in schema) ||
    (typeof schema.additionalProperties === 'object' && schema.additionalProperties !== null)
  );
}

/** The shared keys of the components a tree holds as is (anywhere, also inside other components). */
function componentsIn(schema: unknown, view: SchemaView, out: Set<string>): void {
  if (Array.isArray(schema)) for (const s of schema) componentsIn(s, view, out);
  else if (schema && typeof schema === 'object') {
    const name = inlinedComponentOf(schema);
    if (name !== undefined && isStructure(schema as JsonSchema)) out.add(sharedKey(name, view));
    for (const v of Object.values(schema)) componentsIn(v, view, out);
  }
}

/**
 * A copy of a compiled schema with every component object whose key is `shared` replaced by
 * `{ "x-im-shared": key }` (the root itself too unless `keepRoot`), and the `$defs` that are no
 * longer referenced dropped (the shared module holds its own).
 */
function withSharedRefs<T>(schema: T, view: SchemaView, shared: ReadonlySet<string>, keepRoot: boolean): T {
  if (usesUnevaluated(schema)) return schema;
  const walk = (node: unknown, root: boolean): unknown => {
    if (Array.isArray(node)) return node.map((n) => walk(n, false));
    if (!node || typeof node !== 'object') return node;
    const name = root && keepRoot ? undefined : inlinedComponentOf(node);
    if (name !== undefined && shared.has(sharedKey(name, view))) return { [SHARED_KEYWORD]: sharedKey(name, view) };
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v, false)]));
  };
  const out = walk(schema, true);
  return (out && typeof out === 'object' && '$defs' in out ? pruneDefs(out as JsonSchema) : out) as T;
}

/** `schema` without the `$defs` entries that nothing outside them (transitively) references. */
function pruneDefs(schema: JsonSchema): JsonSchema {
  const { $defs, ...rest } = schema;
  const refsIn = (node: unknown, out: Set<string>): Set<string> => {
    const m = /"\$ref":"#\/\$defs\/([^"]+)"/g;
    for (const hit of structuralKey(node).matchAll(m)) out.add(hit[1]!);
    return out;
  };
  const used = refsIn(rest, new Set());
  for (const todo = [...used]; todo.length; ) {
    for (const n of refsIn($defs[todo.pop()!], new Set())) if (!used.has(n)) used.add(n), todo.push(n);
  }
  const kept = Object.keys($defs).filter((n) => used.has(n));
  return kept.length ? { ...rest, $defs: Object.fromEntries(kept.map((n) => [n, $defs[n]])) } : rest;
}

/** One shared module: the component's validator, compiled alone (exports `validate`). */
function sharedModule(
  model: ApiModel,
  key: string,
  component: string,
  view: SchemaView,
  schema: JsonSchema | boolean,
): string {
  const ajv = newAjv();
  const id = `urn:im-server-sdk:shared:${key}`;
  const root = typeof schema === 'boolean' ? { $id: id, ...(schema ? {} : { not: {} }) } : { $id: id, ...schema };
  checkSchema(key, root);
  ajv.addSchema(root);
  const { code, imports } = standaloneCode(ajv, { validate: id }, key);
  const as = view === 'write' ? 'in request params (readOnly fields refused)' : 'in responses (the drift check)';
  return [
    doNotEditHeader(model.source).trimEnd(),
    lineComment(
      `@ts-nocheck: Ajv standalone code (plain JavaScript) validating the component schema ${component} ${as}; called by the validators of the operations that reach it.`,
    ),
    ...runtimeImportLines(imports, '../../internal/'),
    ...sharedImports(schema, './'),
    '',
    code.trim(),
    '',
  ].join('\n');
}

const operationPointer = (op: OperationModel) => pointerOf('paths', op.specPath, op.method.toLowerCase());

/**
 * Runs one step of turning the spec's schemas into validator code; when Ajv or the inlining
 * cannot take them (a construct the spec checks let through), the spec author gets a SpecError
 * at the operation or component, with Ajv's reason, instead of a stack trace.
 */
function compiling<T>(pointer: string, what: string, step: () => T): T {
  try {
    return step();
  } catch (error) {
    if (error instanceof SpecError) throw error;
    const reason = String((error as Error)?.message ?? error)
      .split('\n')[0]!
      .slice(0, 300);
    throw new SpecError(
      pointer,
      'schema-compile',
      `the validator of ${what} cannot be compiled from its schemas: ${reason}`,
      'simplify the schema construct named there (every keyword must be JSON Schema 2020-12 that Ajv compiles in strict mode)',
    );
  }
}

function cacheKey(cache: GeneratorCache | undefined, parts: unknown[]): string {
  return cache ? `validator\0${createHash('sha256').update(structuralKey(parts)).digest('hex')}` : '';
}

/**
 * `cache` (optional): module text by its inputs (the compiled schemas, after shared components are
 * replaced by their keyword), so that a run after a spec edit compiles only the modules whose
 * schemas changed. The CLI's cache is dropped whenever the generator's own code changes, so it
 * never outlives the code that wrote it.
 */
export function emitValidators(model: ApiModel, cache?: GeneratorCache): Map<string, string> {
  const files = new Map<string, string>();
  // Component maps once per model; each operation's schemas once, for the plan, the key and the compile.
  const components = componentMap(model);
  const driftComponents = driftComponentMap(model);
  const recursive = recursiveComponents(components);
  // an operation whose schemas cannot be inlined or compiled falls back to no validation (typed as
  // written): a fallback warning at the operation, never the whole document refused
  const fallback = (op: OperationModel, reason: string) => {
    model.warnings.push({
      pointer: operationPointer(op),
      rule: 'validator-fallback',
      fallback: true,
      message: `${op.id}: ${reason}: its params and response are not validated by the client (typed as written)`,
    });
    return { op, params: {}, response: true };
  };
  const full = model.operations.map((op) => {
    if (op.unvalidated) return fallback(op, op.unvalidated);
    try {
      return compiling(operationPointer(op), op.id, () => ({
        op,
        params: paramsSchemaOf(model, op, components, recursive),
        response: responseDriftSchemaOf(model, op, driftComponents, recursive),
      }));
    } catch (error) {
      if (!(error instanceof SpecError)) throw error;
      return fallback(op, error.problems[0]!.message);
    }
  });
  // A component (per view) is shared when two or more operations reach it as is.
  const reach = new Map<string, number>();
  for (const { params, response } of full) {
    const keys = new Set<string>();
    if (!usesUnevaluated(params)) componentsIn(params, 'write', keys);
    if (!usesUnevaluated(response)) componentsIn(response, 'read', keys);
    for (const k of keys) reach.set(k, (reach.get(k) ?? 0) + 1);
  }
  // Keys are file names: only names made of letters, digits, `.`, `_` and `-` (what OpenAPI allows
  // for component names), and none that differs from another only by case (one file on macOS).
  const candidates = [...reach].filter(([k, n]) => n >= 2 && /^[A-Za-z0-9._-]+$/.test(k)).map(([k]) => k);
  const folded = (k: string) => k.toLowerCase();
  const shared = new Set(
    candidates.filter((k) => candidates.filter((c) => folded(c) === folded(k)).length === 1).sort(),
  );
  // a shared component whose module cannot be compiled is not shared: each operation that reaches
  // it compiles it inline, or falls back on its own
  for (
    let failed = compileShared(model, shared, components, driftComponents, recursive, cache, files);
    failed.length;
    failed = compileShared(model, shared, components, driftComponents, recursive, cache, files)
  ) {
    for (const key of failed) shared.delete(key);
    files.clear();
  }
  for (const { op, params, response } of full) {
    const schemas: ValidatorSchemas = {
      params: withSharedRefs(params, 'write', shared, false),
      response: withSharedRefs(response, 'read', shared, false),
    };
    // int64 fields inside shared components count too: the whole params are converted up front
    const int64 = structuralKey([params, response]).includes('"format":"int64"');
    const k = cacheKey(cache, [
      model.source,
      op.id,
      op.funcName,
      op.pathParams.map((p) => p.name),
      schemas.params,
      schemas.response,
      int64,
    ]);
    let text = cache?.get(k);
    if (text === undefined) {
      try {
        text = compiling(operationPointer(op), op.id, () => validatorModule(model, op, schemas, int64));
      } catch (error) {
        if (!(error instanceof SpecError)) throw error;
        fallback(op, error.problems[0]!.message);
        text = validatorModule(model, op, { params: {}, response: true }, false);
      }
      cache?.set(k, text);
    }
    files.set(validatorFile(op), text);
  }
  return files;
}

/** Compiles every shared module into `files`; returns the keys whose module could not be compiled. */
function compileShared(
  model: ApiModel,
  shared: Set<string>,
  components: Map<string, JsonSchema>,
  driftComponents: Map<string, JsonSchema>,
  recursive: ReturnType<typeof recursiveComponents>,
  cache: GeneratorCache | undefined,
  files: Map<string, string>,
): string[] {
  const failed: string[] = [];
  for (const key of shared) {
    const dot = key.lastIndexOf('.');
    const name = key.slice(0, dot);
    const view: SchemaView = key.slice(dot + 1) === VIEW_FILE_NAMES.write ? 'write' : 'read';
    const ctx = inlineContext(view === 'write' ? components : driftComponents, view, recursive);
    const pointer = pointerOf('components', 'schemas', name);
    try {
      const inlined = compiling(pointer, name, () =>
        inlineSchema(ctx.components.get(name), ctx, `#/components/schemas/${name}`),
      );
      const schema = withSharedRefs(
        typeof inlined === 'boolean' ? inlined : withDefs(inlined, ctx),
        view,
        shared,
        true,
      );
      const k = cacheKey(cache, ['shared', model.source, key, schema]);
      let text = cache?.get(k);
      if (text === undefined) {
        text = compiling(pointer, name, () => sharedModule(model, key, name, view, schema));
        cache?.set(k, text);
      }
      files.set(sharedFile(key), text);
    } catch (error) {
      if (!(error instanceof SpecError)) throw error;
      failed.push(key);
    }
  }
  return failed;
}
