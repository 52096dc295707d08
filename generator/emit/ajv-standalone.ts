/**
 * Ajv (draft 2020-12) set up for the validator modules, and its standalone code made fit for the
 * package: the helper `require()`s rewritten to imports of internal/ajv-runtime.ts and
 * internal/ajv-formats.ts (zero runtime dependencies, ESM and CJS), unread schema constants dropped,
 * and the `x-im-shared` keyword compiled into a call of the imported shared validator.
 */
import { _, Name, nil, type KeywordCxt } from 'ajv';
import Ajv2020Module from 'ajv/dist/2020.js';
import namesModule from 'ajv/dist/compile/names.js';
import { callValidateCode } from 'ajv/dist/vocabularies/code.js';
import standaloneModule from 'ajv/dist/standalone/index.js';
import { ajvFormats } from '../../templates/runtime/contract/ajv-formats.js';
import { meta } from '../check-schemas.js';
import { ANNOTATION_FORMATS, CHECKED_FORMATS } from '../transform/formats.js';
import { SHARED_KEYWORD, sharedIdentifier } from './shared-validators.js';

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

export function newAjv() {
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
export function runtimeImportLines(imports: readonly string[], dir: string): string[] {
  const helpers = imports.filter((name) => name !== FORMATS_NAME);
  return [
    ...(helpers.length ? [`import { ${helpers.join(', ')} } from '${dir}ajv-runtime.js';`] : []),
    ...(imports.includes(FORMATS_NAME) ? [`import { ${FORMATS_NAME} } from '${dir}ajv-formats.js';`] : []),
  ];
}

export class ValidatorEmitError extends Error {}

/**
 * Refuses a schema to compile (params, response drift or shared component) that is not valid JSON
 * Schema 2020-12 (a generator bug). With check-schemas.ts's Ajv: one meta-schema compiled per run.
 */
export function checkSchema(where: string, schema: object): void {
  const metaAjv = meta();
  if (!metaAjv.validateSchema(schema)) {
    throw new ValidatorEmitError(
      `${where}: the schema to compile is not valid JSON Schema 2020-12: ${metaAjv.errorsText(metaAjv.errors)}`,
    );
  }
}

/** Standalone code with the helper requires rewritten to ajv-runtime.ts names; returns code and names used. */
export function standaloneCode(
  ajv: InstanceType<typeof AjvClass>,
  exports: Record<string, string>,
  where: string,
): { code: string; imports: string[] } {
  let code = toStandalone(ajv, exports) as string;
  for (const [expr, name] of Object.entries(RUNTIME_REQUIRES)) code = code.split(expr).join(name);
  const leftover = /require\([^)]*\)/.exec(code);
  if (leftover) {
    throw new ValidatorEmitError(
      `${where}: the Ajv standalone code needs ${leftover[0]}; add that helper to templates/runtime/internal/ajv-runtime.ts and to RUNTIME_REQUIRES in generator/emit/ajv-standalone.ts`,
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
