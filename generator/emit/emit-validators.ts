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
 * The sharing plan and keyword are shared-validators.ts; Ajv set-up and its standalone code, ajv-standalone.ts.
 *
 * Deterministic: one fresh Ajv instance per module (its generated names depend only on that
 * module's schema) and schemas built in a fixed key order.
 */
import { createHash } from 'node:crypto';
import type { GeneratorCache } from '../format.js';
import type { ApiModel, JsonSchema, OperationModel } from '../model.js';
import {
  inlineContext,
  inlineSchema,
  recursiveComponents,
  withDefs,
  type SchemaView,
} from '../transform/inline-schema.js';
import { checkSchema, newAjv, runtimeImportLines, standaloneCode } from './ajv-standalone.js';
import { componentMap, driftComponentMap, paramsSchemaOf, responseDriftSchemaOf } from './params-schema.js';
import { sharedComponentKeys, sharedImports, splitSharedKey, withSharedRefs } from './shared-validators.js';
import { doNotEditHeader } from './source-file.js';
import { doc, docComment, fileStem, jsonLiteral, lineComment, structuralKey } from './spec-text.js';
import { SpecError, pointerOf } from '../spec-error.js';

export const VALIDATORS_DIR = 'src/validators';

export function validatorFile(op: OperationModel): string {
  return `${VALIDATORS_DIR}/${fileStem(op.funcName)}.ts`;
}

/** The file of one shared module (`<Name>.<request|response>`). */
export function sharedFile(key: string): string {
  return `${VALIDATORS_DIR}/shared/${fileStem(key)}.ts`;
}

/** The import path that `src/operations.ts` uses for an operation's validator. */
export function validatorImport(op: OperationModel): string {
  return `./validators/${fileStem(op.funcName)}.js`;
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
export function emitValidators(
  model: ApiModel,
  cache?: GeneratorCache,
  moduleOf: typeof validatorModule = validatorModule, // a test seam: no spec found fails only at compile
): Map<string, string> {
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
  const shared = sharedComponentKeys(full);
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
        text = compiling(operationPointer(op), op.id, () => moduleOf(model, op, schemas, int64));
        // only a compiled module is kept: a fallback compiles again next run, so its warning is
        // reported on every run (a cached fallback would pass --strict silently)
        cache?.set(k, text);
      } catch (error) {
        if (!(error instanceof SpecError)) throw error;
        fallback(op, error.problems[0]!.message);
        text = validatorModule(model, op, { params: {}, response: true }, false);
      }
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
    const { name, view } = splitSharedKey(key);
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
