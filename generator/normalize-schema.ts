/**
 * One normalisation pass over the OpenAPI document, run before the model is built, so that every
 * emitter sees OpenAPI 3.1 (JSON Schema 2020-12) only. Pure: returns a new document.
 *
 * - `nullable: true` (3.0) → a `'null'` type or branch: `type: X` → `type: [X, 'null']` (and
 *   `null` added to an `enum`); a `$ref` or `allOf` → `anyOf: [<it>, { type: 'null' }]`; a
 *   `oneOf`/`anyOf` → one more `{ type: 'null' }` branch. Without any of these (nothing says what
 *   is nullable) it is refused with what to write instead. `nullable: false` is dropped.
 *   `allOf: [<X>, { nullable: true }]` (a part that says only nullable) → `anyOf: [{ allOf: [<X>] }, { type: 'null' }]`.
 * - `exclusiveMinimum: true` / `exclusiveMaximum: true` (3.0 booleans) → the 3.1 number form
 *   taken from `minimum` / `maximum`; `false` is dropped; `true` without a bound is refused.
 * - `example` (3.0 singular) stays: an annotation that no emitter validates.
 * - an unknown `format` is a warning naming its JSON pointer (validators ignore it).
 */
import { isKnownFormat } from './transform/formats.js';
import { ONE_SCHEMA, SCHEMA_LIST, SCHEMA_MAP } from './transform/inline-schema.js';
import type { OpenApiDocument } from './load-spec.js';
import type { GeneratorWarning } from './model.js';
import { SpecError, pointerOf, pointerSegment, quoted } from './spec-error.js';

export type { GeneratorWarning };

/** Normalises one schema (and its subschemas); `warnings` collects unknown formats. */
export function normalizeSchema(schema: unknown, pointer: string, warnings: GeneratorWarning[] = []): unknown {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  let src = schema as Record<string, any>;
  // `allOf: [<X>, { nullable: true }]` (3.0's idiom for a nullable $ref): the whole is X or null
  const nullablePart = (p: any) =>
    p &&
    typeof p === 'object' &&
    p.nullable === true &&
    Object.keys(p).every((k) => k === 'nullable' || NULLABLE_PART_ANNOTATIONS.has(k));
  if (Array.isArray(src.allOf) && src.allOf.length > 1 && src.allOf.some(nullablePart)) {
    src = { ...src, allOf: src.allOf.filter((p: any) => !nullablePart(p)), nullable: true };
  }
  let out: Record<string, any> = {};
  for (const [key, value] of Object.entries(src)) {
    const at = `${pointer}/${key}`;
    if (ONE_SCHEMA.has(key)) out[key] = normalizeSchema(value, at, warnings);
    else if (SCHEMA_MAP.has(key) && value && typeof value === 'object') {
      out[key] = Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, normalizeSchema(v, `${at}/${pointerSegment(k)}`, warnings)]),
      );
    } else if (SCHEMA_LIST.has(key) && Array.isArray(value))
      out[key] = value.map((v, i) => normalizeSchema(v, `${at}/${i}`, warnings));
    else out[key] = value;
  }
  for (const [bound, exclusive] of [
    ['minimum', 'exclusiveMinimum'],
    ['maximum', 'exclusiveMaximum'],
  ] as const) {
    if (typeof out[exclusive] !== 'boolean') continue;
    if (out[exclusive] && typeof out[bound] !== 'number') {
      throw new SpecError(
        `${pointer}/${exclusive}`,
        'exclusive-bound',
        `${exclusive}: true (OpenAPI 3.0) needs a numeric ${bound}`,
        `in 3.1 write ${exclusive}: <number> instead`,
      );
    }
    if (out[exclusive]) {
      out[exclusive] = out[bound];
      delete out[bound];
    } else delete out[exclusive];
  }
  if (typeof out.format === 'string' && !isKnownFormat(out.format)) {
    warnings.push({
      pointer: `${pointer}/format`,
      rule: 'unknown-format',
      message: `unknown format ${quoted(out.format)}: an annotation only, not checked by the validators`,
    });
  }
  if ('nullable' in out) out = nullableToNull(out, pointer);
  return out;
}

function nullableToNull(schema: Record<string, any>, pointer: string): Record<string, any> {
  const { nullable, ...rest } = schema;
  if (nullable !== true) return rest;
  if (typeof rest.$ref === 'string' || Array.isArray(rest.allOf)) {
    // the annotations stay beside the anyOf, the validating keywords go into the branch
    const { description, title, deprecated, readOnly, writeOnly, default: dflt, example, examples, ...inner } = rest;
    const annotations = Object.fromEntries(
      Object.entries({ description, title, deprecated, readOnly, writeOnly, default: dflt, example, examples }).filter(
        ([, v]) => v !== undefined,
      ),
    );
    return { ...annotations, anyOf: [inner, { type: 'null' }] };
  }
  for (const key of ['oneOf', 'anyOf'] as const) {
    if (Array.isArray(rest[key])) return { ...rest, [key]: [...rest[key], { type: 'null' }] };
  }
  if (rest.type !== undefined) {
    const types: string[] = Array.isArray(rest.type) ? rest.type : [rest.type];
    const out: Record<string, any> = { ...rest, type: types.includes('null') ? types : [...types, 'null'] };
    if (Array.isArray(rest.enum) && !rest.enum.includes(null)) out.enum = [...rest.enum, null];
    return out;
  }
  throw new SpecError(
    `${pointer}/nullable`,
    'nullable-ambiguous',
    'nullable: true (OpenAPI 3.0) without type, $ref, allOf, anyOf or oneOf says nothing about what may be null',
    'in 3.1 write type: [<type>, "null"] or anyOf: [<schema>, { type: "null" }]',
  );
}

const NULLABLE_PART_ANNOTATIONS = new Set(['description', 'title', 'default', 'deprecated', 'example', 'examples']);

/** Every schema position of the document, normalised; the document itself is not changed. */
export function normalizeDocument(doc: OpenApiDocument): { doc: OpenApiDocument; warnings: GeneratorWarning[] } {
  const warnings: GeneratorWarning[] = [];
  const out: OpenApiDocument = structuredClone(doc);
  const schemaAt = (holder: any, key: string, pointer: string) => {
    if (holder && typeof holder === 'object' && holder[key] !== undefined)
      holder[key] = normalizeSchema(holder[key], pointer, warnings);
  };
  const content = (holder: any, pointer: string) => {
    for (const [type, media] of Object.entries<any>(holder?.content ?? {}))
      schemaAt(media, 'schema', `${pointer}/content/${pointerSegment(type)}/schema`);
  };
  const parameters = (list: any, pointer: string) => {
    if (Array.isArray(list)) list.forEach((p, i) => schemaAt(p, 'schema', `${pointer}/${i}/schema`));
  };
  for (const [name, s] of Object.entries<any>(out.components?.schemas ?? {}))
    out.components.schemas[name] = normalizeSchema(s, pointerOf('components', 'schemas', name), warnings);
  for (const [name, p] of Object.entries<any>(out.components?.parameters ?? {}))
    schemaAt(p, 'schema', `${pointerOf('components', 'parameters', name)}/schema`);
  for (const [name, b] of Object.entries<any>(out.components?.requestBodies ?? {}))
    content(b, pointerOf('components', 'requestBodies', name));
  for (const [name, r] of Object.entries<any>(out.components?.responses ?? {}))
    content(r, pointerOf('components', 'responses', name));
  for (const [path, item] of Object.entries<any>(out.paths ?? {})) {
    parameters(item?.parameters, `${pointerOf('paths', path)}/parameters`);
    for (const [method, op] of Object.entries<any>(item ?? {})) {
      if (!op || typeof op !== 'object' || Array.isArray(op) || method === 'parameters') continue;
      const at = pointerOf('paths', path, method);
      parameters(op.parameters, `${at}/parameters`);
      content(op.requestBody, `${at}/requestBody`);
      for (const [status, r] of Object.entries<any>(op.responses ?? {})) content(r, `${at}/responses/${status}`);
    }
  }
  return { doc: out, warnings };
}
