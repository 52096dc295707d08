/**
 * The JSON Schema (2020-12) of one operation's FLAT params object: path parameters, query
 * parameters and body fields under their wire names, as the request validator checks them.
 *
 * - required as the model says; unknown fields refused unless the body is open;
 * - path parameters also get the path-safety rules (non-empty, not `.`/`..`, no `/`, no control
 *   characters: `minLength: 1` and PATH_SEGMENT_PATTERN) so the error names the field and rule;
 * - the list field that the batch helper splits (x-batch-split) loses its `maxItems`;
 * - schemas are transformed by transform/inline-schema.ts in the write view (refs inlined but
 *   recursive ones, readOnly refused, discriminator selection, allOf merged, annotations dropped);
 * - a body that is a union (top-level oneOf/anyOf) gives a union of flat objects: each branch
 *   with the path and query fields, selected by the discriminator when there is one.
 * Pure and deterministic.
 */
import { PATH_SEGMENT_PATTERN } from '../../templates/runtime/contract/path-rules.js';
import type { ApiModel, BodyModel, FieldModel, JsonSchema, OperationModel } from '../model.js';
import { isHiddenIn } from '../transform/views.js';
import { structuralKey } from './spec-text.js';
import {
  inlineContext,
  inlineSchema,
  recursiveComponents,
  withDefs,
  type InlineContext,
} from '../transform/inline-schema.js';

export { ParamsSchemaError } from '../transform/inline-schema.js';

export function componentMap(model: ApiModel): Map<string, JsonSchema> {
  return new Map(model.schemas.map((s) => [s.name, s.schema]));
}

const PATH_SAFE_TYPES = ['string', 'number', 'integer'];

/** The spec's schema of a path parameter plus the path-safety rules. */
function pathParamSchema(spec: JsonSchema | boolean): JsonSchema {
  const safety = { minLength: 1, pattern: PATH_SEGMENT_PATTERN };
  if (typeof spec === 'object') {
    const types: string[] | undefined =
      spec.type === undefined ? undefined : Array.isArray(spec.type) ? spec.type : [spec.type];
    const plain = types && !['pattern', 'anyOf', 'oneOf', 'allOf', 'not', 'if', '$ref'].some((k) => k in spec);
    const allowed = types?.filter((t) => PATH_SAFE_TYPES.includes(t)) ?? [];
    if (plain && allowed.length) {
      return {
        ...spec,
        type: allowed.length === 1 ? allowed[0] : allowed,
        minLength: Math.max(spec.minLength ?? 0, 1),
        pattern: PATH_SEGMENT_PATTERN,
      };
    }
  }
  return { allOf: [spec, { type: ['string', 'number'], ...safety }] };
}

function fieldSchema(op: OperationModel, field: FieldModel, ctx: InlineContext, where: string): JsonSchema | boolean {
  const schema = inlineSchema(field.schema, ctx, `${op.id}: ${where} ${field.name}`);
  if (op.batchSplit?.field === field.name && typeof schema === 'object' && 'maxItems' in schema) {
    // the batch helper splits this list into requests of batchSplit.max: any length is fine
    const { maxItems: _dropped, ...rest } = schema;
    return rest;
  }
  return schema;
}

/** The params schema of one operation (without $id). */
export function paramsSchemaOf(
  model: ApiModel,
  op: OperationModel,
  components = componentMap(model),
  recursive = recursiveComponents(components),
): JsonSchema {
  const ctx = inlineContext(components, 'write', recursive);
  const flat = nonBodyParams(op, ctx);
  const bodies = op.bodies.length ? op.bodies : op.body ? [op.body] : [];
  const union = bodies.length === 1 ? bodies[0]!.union : undefined;
  const body: BodyContext = { op, ctx, components, bodies };
  return withDefs(union ? unionBodySchema(body, union, flat) : mediaTypesSchema(body, flat), ctx);
}

/** Properties and required names of the flat params so far. */
interface FlatParams {
  properties: Record<string, JsonSchema | boolean>;
  required: string[];
}

/** Path, query, header and cookie parameters (path parameters always required). */
function nonBodyParams(op: OperationModel, ctx: InlineContext): FlatParams {
  const properties: Record<string, JsonSchema | boolean> = {};
  const required: string[] = [];
  for (const p of op.pathParams) {
    properties[p.name] = pathParamSchema(fieldSchema(op, p, ctx, 'path parameter'));
    required.push(p.name);
  }
  for (const q of op.queryParams) {
    properties[q.name] = fieldSchema(op, q, ctx, 'query parameter');
    if (q.required) required.push(q.name);
  }
  for (const [where, list] of [
    ['header parameter', op.headerParams],
    ['cookie parameter', op.cookieParams],
  ] as const) {
    for (const p of list) {
      properties[p.name] = fieldSchema(op, p, ctx, where);
      if (p.required) required.push(p.name);
    }
  }
  return { properties, required };
}

interface BodyContext {
  op: OperationModel;
  ctx: InlineContext;
  components: Map<string, JsonSchema>;
  bodies: readonly BodyModel[];
}

/**
 * A binary `body` and multipart files are Blobs/bytes/streams, which JSON Schema cannot
 * describe (the runtime checks them); a readOnly body field must be absent (`false`: the issue
 * says "read-only"), even if required.
 */
function bodyFieldSchema({ op, ctx, components }: BodyContext, b: BodyModel, f: FieldModel): JsonSchema | boolean {
  return b.kind === 'binary' || f.file
    ? true
    : isHiddenIn(f.schema, 'write', components)
      ? false
      : fieldSchema(op, f, ctx, 'body field');
}

/**
 * Several media types (or one, or none): every field of any of them, required only where all
 * require it (the runtime checks the picked one's shape).
 */
function mediaTypesSchema(body: BodyContext, { properties, required }: FlatParams): JsonSchema {
  const { bodies } = body;
  const bodySchemas = new Map<string, (JsonSchema | boolean)[]>();
  for (const b of bodies) {
    for (const f of b.fields) {
      const schema = bodyFieldSchema(body, b, f);
      bodySchemas.set(f.name, [...(bodySchemas.get(f.name) ?? []), schema]);
      if (
        schema !== false &&
        f.required &&
        bodies.every((o) => o.fields.some((g) => g.name === f.name && g.required)) &&
        !required.includes(f.name)
      )
        required.push(f.name);
    }
  }
  for (const [name, schemas] of bodySchemas) {
    const distinct = [...new Map(schemas.map((s) => [structuralKey(s), s])).values()];
    properties[name] = distinct.length === 1 ? distinct[0]! : distinct.includes(true) ? true : { anyOf: distinct };
  }
  // required-only branches of a single body (anyOf: [{ required: [a] }, { required: [b] }]) hold on the flat params
  const constraint = bodies.length === 1 ? bodies[0]!.constraint : undefined;
  return {
    type: 'object',
    properties,
    ...(required.length ? { required } : {}),
    additionalProperties: bodies.some((b) => b.open),
    ...(constraint ? { [constraint.keyword]: constraint.branches.map((b) => ({ required: b.required })) } : {}),
  };
}

/** A union body (top-level oneOf/anyOf): a union of flat objects, each with the common fields. */
function unionBodySchema(
  body: BodyContext,
  union: NonNullable<BodyModel['union']>,
  { properties, required }: FlatParams,
): JsonSchema {
  const flat = (fields: readonly FieldModel[], open: boolean): JsonSchema => {
    const props = { ...properties };
    const req = [...required];
    for (const f of fields) {
      props[f.name] = bodyFieldSchema(body, body.bodies[0]!, f);
      if (f.required && props[f.name] !== false) req.push(f.name);
    }
    return { type: 'object', properties: props, ...(req.length ? { required: req } : {}), additionalProperties: open };
  };
  const branches = union.variants.map((v) => flat(v.fields, v.open));
  const disc = union.discriminator;
  if (!disc) return { type: 'object', [union.keyword]: branches };
  return {
    type: 'object',
    required: [disc.propertyName],
    properties: { [disc.propertyName]: { enum: union.variants.flatMap((v) => v.values ?? []) } },
    allOf: union.variants.map((v, i) => ({
      if: {
        properties: { [disc.propertyName]: v.values!.length === 1 ? { const: v.values![0] } : { enum: v.values } },
        required: [disc.propertyName],
      },
      then: branches[i],
    })),
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
  for (const [key, value] of Object.entries(src))
    out[key] = key === 'enum' || key === 'const' ? value : driftSchema(value);
  const branches = src.anyOf as JsonSchema[] | undefined;
  if (
    Array.isArray(branches) &&
    branches.length === 2 &&
    Array.isArray(branches[0]!.enum) &&
    branches[1]!.type === 'string' &&
    !branches[1]!.enum
  ) {
    delete out.anyOf;
    Object.assign(out, branches[0]);
  }
  if (
    src.properties &&
    !src['x-not-documented'] &&
    src.additionalProperties !== false &&
    typeof src.additionalProperties !== 'object'
  )
    out.additionalProperties = false;
  return out;
}

/** The component schemas as the drift check sees them (build once per model, not per operation). */
export function driftComponentMap(model: ApiModel): Map<string, JsonSchema> {
  return new Map(model.schemas.map((s) => [s.name, driftSchema(s.schema) as JsonSchema]));
}

/** The drift-reporting schema of an operation's first success response (without $id). */
export function responseDriftSchemaOf(
  model: ApiModel,
  op: OperationModel,
  components = driftComponentMap(model),
  recursive = recursiveComponents(components),
): JsonSchema | boolean {
  const ctx = inlineContext(components, 'read', recursive);
  const schema = inlineSchema(driftSchema(op.response), ctx, `${op.id}: response`);
  return typeof schema === 'boolean' ? schema : withDefs(schema, ctx);
}
