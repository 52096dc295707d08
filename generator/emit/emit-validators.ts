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
 * Deterministic: one fresh Ajv instance per operation (its generated names depend only on
 * that operation's schema) and schemas built in a fixed key order.
 */
import { _ } from 'ajv';
import Ajv2020Module from 'ajv/dist/2020.js';
import standaloneModule from 'ajv/dist/standalone/index.js';
import { ajvFormats } from '../../templates/runtime/internal/ajv-runtime.js';
import { ANNOTATION_FORMATS, CHECKED_FORMATS } from '../transform/formats.js';
import { createHash } from 'node:crypto';
import type { GeneratorCache } from '../format.js';
import type { ApiModel, JsonSchema, OperationModel } from '../model.js';
import { recursiveComponents } from '../transform/inline-schema.js';
import { componentMap, driftComponentMap, paramsSchemaOf, responseDriftSchemaOf } from './params-schema.js';
import { doNotEditHeader } from './source-file.js';

export const VALIDATORS_DIR = 'src/validators';

export function validatorFile(op: OperationModel): string {
  return `${VALIDATORS_DIR}/${op.funcName}.ts`;
}

/** The import path that `src/operations.ts` uses for an operation's validator. */
export function validatorImport(op: OperationModel): string {
  return `./validators/${op.funcName}.js`;
}

/** `require(...)` expressions of Ajv standalone code → names exported by internal/ajv-runtime.ts. */
const RUNTIME_REQUIRES: Record<string, string> = {
  'require("ajv/dist/runtime/ucs2length").default': 'ajvUcs2length',
  'require("ajv/dist/runtime/equal").default': 'ajvDeepEqual',
};
/** Name of the formats table in ajv-runtime.ts (`code.formats` below); Ajv's code reads `ajvFormats["date-time"]`. */
const FORMATS_NAME = 'ajvFormats';
const RUNTIME_NAMES = [...Object.values(RUNTIME_REQUIRES), FORMATS_NAME].sort();

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
    validateFormats: true,
    // lines: the code is written as Ajv emits it (one statement a line) and not re-formatted by
    // Prettier, which would take ~4.5 s for ~1 MB of machine-written code (see generate.ts).
    code: { source: true, esm: true, lines: true, formats: _`ajvFormats` },
  });
  // Checked formats call ajvFormats[name] at run time; annotation formats emit no code.
  for (const [name, type] of Object.entries(CHECKED_FORMATS)) ajv.addFormat(name, { type, validate: ajvFormats[name]!.validate } as never);
  for (const name of ANNOTATION_FORMATS) ajv.addFormat(name, true);
  return ajv;
}

export class ValidatorEmitError extends Error {}

let metaAjv: InstanceType<typeof AjvClass> | undefined;

/** Refuses a params schema that is not valid JSON Schema 2020-12 (a generator bug). */
function checkSchema(op: OperationModel, schema: object): void {
  metaAjv ??= new AjvClass({ strict: true });
  if (!metaAjv.validateSchema(schema)) {
    throw new ValidatorEmitError(`${op.id}: the params schema is not valid JSON Schema 2020-12: ${metaAjv.errorsText(metaAjv.errors)}`);
  }
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
export function compileValidatorCode(model: ApiModel, op: OperationModel, schemas: ValidatorSchemas = validatorSchemasOf(model, op)): { code: string; imports: string[] } {
  const ajv = newAjv();
  const id = `urn:im-server-sdk:params:${op.id}`;
  const schema = { $id: id, ...schemas.params };
  checkSchema(op, schema);
  ajv.addSchema(schema);
  const responseId = `urn:im-server-sdk:response:${op.id}`;
  const driftSchema = schemas.response;
  const response = typeof driftSchema === 'boolean' ? { $id: responseId, ...(driftSchema ? {} : { not: {} }) } : { $id: responseId, ...driftSchema };
  checkSchema(op, response);
  ajv.addSchema(response);
  let code = toStandalone(ajv, { validateParams: id, validateResponseBody: responseId }) as string;
  for (const [expr, name] of Object.entries(RUNTIME_REQUIRES)) code = code.split(expr).join(name);
  const leftover = /require\([^)]*\)/.exec(code);
  if (leftover) {
    throw new ValidatorEmitError(`${op.id}: the Ajv standalone code needs ${leftover[0]}; add that helper to templates/runtime/internal/ajv-runtime.ts and to RUNTIME_REQUIRES in generator/emit/emit-validators.ts`);
  }
  code = code
    .replace(/^"use strict";/, '')
    .replace(/export const validateParams = (\w+);/, 'const validateParams = $1;')
    .replace(/export const validateResponseBody = (\w+);/, 'const validateResponseBody = $1;');
  const imports = RUNTIME_NAMES.filter((name) => new RegExp(`\\b${name}\\b`).test(code));
  return { code, imports };
}

function validatorModule(model: ApiModel, op: OperationModel, schemas: ValidatorSchemas): string {
  const { code, imports } = compileValidatorCode(model, op, schemas);
  const context = JSON.stringify({ pathParams: op.pathParams.map((p) => p.name) });
  // int64 fields may hold bigints (lossless-json.ts): the validator sees them as numbers.
  const int64 = JSON.stringify(schemas).includes('"format":"int64"');
  const arg = (name: string) => (int64 ? `bigintsAsNumbers(${name})` : name);
  return [
    doNotEditHeader(model.source).trimEnd(),
    `// @ts-nocheck: Ajv standalone code (plain JavaScript) validating the params of ${op.id}.`,
    `import type { ValidationIssue } from '../operation.js';`,
    ...(imports.length ? [`import { ${imports.join(', ')} } from '../internal/ajv-runtime.js';`] : []),
    `import { issuesFromAjv } from '../internal/validation-issues.js';`,
    ...(int64 ? [`import { bigintsAsNumbers } from '../internal/lossless-json.js';`] : []),
    '',
    code,
    '',
    `const context = ${context};`,
    '',
    `/** Validates the flat params of \`${op.id}\` (path, query and body fields): null when valid, else the issues. */`,
    'export function validate(params: unknown): ValidationIssue[] | null {',
    `  return validateParams(${arg('params')}) ? null : issuesFromAjv(validateParams.errors, params, context);`,
    '}',
    '',
    `/** Reports how a response body of \`${op.id}\` differs from the spec (unknown fields of documented shapes, new enum values, type changes): null when it matches. Never used to refuse a response. */`,
    'export function validateResponse(body: unknown): ValidationIssue[] | null {',
    `  return validateResponseBody(${arg('body')}) ? null : issuesFromAjv(validateResponseBody.errors, body, { pathParams: [], response: true });`,
    '}',
    '',
  ].join('\n');
}

/**
 * `cache` (optional): module text by its inputs (the op's params and response schemas), so that a
 * run after a spec edit compiles only the operations whose schemas changed. The CLI's cache is
 * dropped whenever the generator's own code changes, so it never outlives the code that wrote it.
 */
export function emitValidators(model: ApiModel, cache?: GeneratorCache): Map<string, string> {
  const files = new Map<string, string>();
  // Component maps once per model; each operation's schemas once, for the key and the compile.
  const components = componentMap(model);
  const driftComponents = driftComponentMap(model);
  const recursive = recursiveComponents(components);
  for (const op of model.operations) {
    const schemas: ValidatorSchemas = { params: paramsSchemaOf(model, op, components, recursive), response: responseDriftSchemaOf(model, op, driftComponents, recursive) };
    const key = cache ? `validator\0${createHash('sha256').update(JSON.stringify([model.source, op.id, op.funcName, op.pathParams.map((p) => p.name), schemas.params, schemas.response])).digest('hex')}` : '';
    let text = cache?.get(key);
    if (text === undefined) {
      text = validatorModule(model, op, schemas);
      cache?.set(key, text);
    }
    files.set(validatorFile(op), text);
  }
  return files;
}
