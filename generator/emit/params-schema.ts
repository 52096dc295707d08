/**
 * The JSON Schema (2020-12) of one operation's FLAT params object: path parameters, query
 * parameters and body fields under their wire names, as the request validator checks them.
 *
 * - required as the model says; unknown fields refused unless the body is open;
 * - path parameters also get the path-safety rules (non-empty, not `.`/`..`, no `/`, no control
 *   characters: `minLength: 1` and PATH_SEGMENT_PATTERN) so the error names the field and rule;
 * - the list field that the batch helper splits (x-batch-split) loses its `maxItems`;
 * - component `$ref`s are inlined (request schemas are not recursive), so every error's
 *   schemaPath is a path in this one schema (the issue mapping folds `anyOf` by it);
 * - annotations (description, x-*, examples…) are dropped: they do not validate and would only
 *   grow the emitted code.
 * Pure and deterministic.
 */
import { PATH_SEGMENT_PATTERN } from '../../templates/runtime/internal/validation-issues.js';
import type { ApiModel, FieldModel, JsonSchema, OperationModel } from '../model.js';

const COMPONENT_REF = /^#\/components\/schemas\/([^/]+)$/;

/** Keywords that hold one subschema, a map of subschemas, or a list of subschemas. */
const ONE_SCHEMA = new Set(['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties']);
const SCHEMA_MAP = new Set(['properties', 'patternProperties', 'dependentSchemas', '$defs']);
const SCHEMA_LIST = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
/** Annotations that do not validate (dropped). */
const ANNOTATIONS = new Set(['description', 'title', 'examples', 'example', 'default', 'deprecated', 'readOnly', 'writeOnly', '$comment', 'externalDocs', 'xml', 'discriminator']);

export class ParamsSchemaError extends Error {}

/** Resolves and inlines component refs, drops annotations. `stack` guards against recursion. */
export function inlineSchema(schema: unknown, components: ReadonlyMap<string, JsonSchema>, where: string, stack: readonly string[] = []): JsonSchema | boolean {
  if (typeof schema === 'boolean') return schema;
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) throw new ParamsSchemaError(`${where}: not a schema`);
  const src = schema as JsonSchema;
  let out: JsonSchema = {};
  for (const key of Object.keys(src)) {
    const value = src[key];
    if (key === '$ref') continue;
    if (ANNOTATIONS.has(key) || key.startsWith('x-')) continue;
    if (ONE_SCHEMA.has(key)) out[key] = inlineSchema(value, components, `${where}/${key}`, stack);
    else if (SCHEMA_MAP.has(key)) {
      out[key] = Object.fromEntries(Object.keys(value).map((k) => [k, inlineSchema(value[k], components, `${where}/${key}/${k}`, stack)]));
    } else if (SCHEMA_LIST.has(key)) out[key] = (value as unknown[]).map((s, i) => inlineSchema(s, components, `${where}/${key}/${i}`, stack));
    else out[key] = value;
  }
  if (typeof src.$ref === 'string') {
    const m = COMPONENT_REF.exec(src.$ref);
    const name = m?.[1];
    const target = name === undefined ? undefined : components.get(name);
    if (name === undefined || !target) throw new ParamsSchemaError(`${where}: cannot resolve $ref ${src.$ref}`);
    if (stack.includes(name)) throw new ParamsSchemaError(`${where}: request schema ${name} is recursive; request validators inline components and do not support recursion`);
    const resolved = inlineSchema(target, components, `#/components/schemas/${name}`, [...stack, name]);
    // 2020-12: $ref beside other keywords means both apply; merge when they do not overlap.
    if (Object.keys(out).length === 0) return resolved;
    if (typeof resolved === 'object' && Object.keys(out).every((k) => !(k in resolved))) out = { ...resolved, ...out };
    else out = { allOf: [resolved, out] };
  }
  return out;
}

export function componentMap(model: ApiModel): Map<string, JsonSchema> {
  return new Map(model.schemas.map((s) => [s.name, s.schema]));
}

const PATH_SAFE_TYPES = ['string', 'number', 'integer'];

/** The spec's schema of a path parameter plus the path-safety rules. */
function pathParamSchema(spec: JsonSchema | boolean): JsonSchema {
  const safety = { minLength: 1, pattern: PATH_SEGMENT_PATTERN };
  if (typeof spec === 'object') {
    const types: string[] | undefined = spec.type === undefined ? undefined : Array.isArray(spec.type) ? spec.type : [spec.type];
    const plain = types && !['pattern', 'anyOf', 'oneOf', 'allOf', 'not', 'if', '$ref'].some((k) => k in spec);
    const allowed = types?.filter((t) => PATH_SAFE_TYPES.includes(t)) ?? [];
    if (plain && allowed.length) {
      return { ...spec, type: allowed.length === 1 ? allowed[0] : allowed, minLength: Math.max(spec.minLength ?? 0, 1), pattern: PATH_SEGMENT_PATTERN };
    }
  }
  return { allOf: [spec, { type: ['string', 'number'], ...safety }] };
}

function fieldSchema(op: OperationModel, field: FieldModel, components: Map<string, JsonSchema>, where: string): JsonSchema | boolean {
  const schema = inlineSchema(field.schema, components, `${op.id}: ${where} ${field.name}`);
  if (op.batchSplit?.field === field.name && typeof schema === 'object' && 'maxItems' in schema) {
    // the batch helper splits this list into requests of batchSplit.max: any length is fine
    const { maxItems: _dropped, ...rest } = schema;
    return rest;
  }
  return schema;
}

/** The params schema of one operation (without $id). */
export function paramsSchemaOf(model: ApiModel, op: OperationModel, components = componentMap(model)): JsonSchema {
  const properties: Record<string, JsonSchema | boolean> = {};
  const required: string[] = [];
  for (const p of op.pathParams) {
    properties[p.name] = pathParamSchema(fieldSchema(op, p, components, 'path parameter'));
    required.push(p.name);
  }
  for (const q of op.queryParams) {
    properties[q.name] = fieldSchema(op, q, components, 'query parameter');
    if (q.required) required.push(q.name);
  }
  for (const [where, list] of [['header parameter', op.headerParams], ['cookie parameter', op.cookieParams]] as const) {
    for (const p of list) {
      properties[p.name] = fieldSchema(op, p, components, where);
      if (p.required) required.push(p.name);
    }
  }
  // Body fields (wire part, issue 14): several media types → every field of any of them, required
  // only where all require it (the runtime checks the picked one's shape); a binary `body` and
  // multipart files are Blobs/bytes/streams, which JSON Schema cannot describe: the runtime checks them.
  const bodies = op.bodies.length ? op.bodies : op.body ? [op.body] : [];
  const bodySchemas = new Map<string, (JsonSchema | boolean)[]>();
  for (const b of bodies) {
    for (const f of b.fields) {
      const schema = b.kind === 'binary' || f.file ? true : fieldSchema(op, f, components, 'body field');
      bodySchemas.set(f.name, [...(bodySchemas.get(f.name) ?? []), schema]);
      if (f.required && bodies.every((o) => o.fields.some((g) => g.name === f.name && g.required)) && !required.includes(f.name)) required.push(f.name);
    }
  }
  for (const [name, schemas] of bodySchemas) {
    const distinct = [...new Map(schemas.map((s) => [JSON.stringify(s), s])).values()];
    properties[name] = distinct.length === 1 ? distinct[0]! : distinct.includes(true) ? true : { anyOf: distinct };
  }
  return {
    type: 'object',
    properties,
    ...(required.length ? { required } : {}),
    additionalProperties: bodies.some((b) => b.open),
  };
}

/**
 * A stricter twin of a schema, used to REPORT response drift (never to refuse a response):
 * documented object shapes (properties given, not marked x-not-documented) close, and open enums
 * keep only their known values, so a field or value the service adds later shows up as an issue.
 */
export function driftSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(driftSchema);
  if (!schema || typeof schema !== 'object') return schema;
  const src = schema as JsonSchema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(src)) out[key] = key === 'enum' || key === 'const' ? value : driftSchema(value);
  const branches = src.anyOf as JsonSchema[] | undefined;
  if (Array.isArray(branches) && branches.length === 2 && Array.isArray(branches[0]!.enum) && branches[1]!.type === 'string' && !branches[1]!.enum) {
    delete out.anyOf;
    Object.assign(out, branches[0]);
  }
  if (src.properties && !src['x-not-documented'] && src.additionalProperties !== false && typeof src.additionalProperties !== 'object') out.additionalProperties = false;
  return out;
}

/** The component schemas as the drift check sees them (build once per model, not per operation). */
export function driftComponentMap(model: ApiModel): Map<string, JsonSchema> {
  return new Map(model.schemas.map((s) => [s.name, driftSchema(s.schema) as JsonSchema]));
}

/** The drift-reporting schema of an operation's first success response (without $id). */
export function responseDriftSchemaOf(model: ApiModel, op: OperationModel, components = driftComponentMap(model)): JsonSchema | boolean {
  return inlineSchema(driftSchema(op.response), components, `${op.id}: response`);
}
