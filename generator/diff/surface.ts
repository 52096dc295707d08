/**
 * The API surface of a model, as callers of the SDK meet it: per operation its SDK call
 * (`im.calls.stats()`), its params, result, page and item type names, retry class, paging, media
 * types and success statuses, and every params and result field (nested fields by dotted path,
 * component $refs followed, cycles cut; `oneOf`/`anyOf` branches under `<Key>`) with what a
 * caller can see of it: JSON types, enum and const values, branches, discriminator mapping,
 * validation bounds, format, default, deprecation. The change report compares two surfaces
 * (compare.ts); it never diffs YAML text or generated files.
 */
import { itemTypeName, paramsTypeName, resultTypeName } from '../emit/emit-namespace-types.js';
import { OPERATION_EXTENSIONS } from '../extensions/index.js';
import { typeContextOf, typeOf, type TypeContext } from '../transform/schema-to-ts.js';
import type { ApiModel, FieldModel, JsonSchema, OperationModel } from '../model.js';
import { discriminatedOf } from '../transform/discriminator.js';
import { CHECKED_FORMATS } from '../transform/formats.js';
import { componentNameOf } from '../transform/refs.js';
import type { FieldSurface, OperationSurface } from './types.js';

export type { FieldSurface, OperationSurface } from './types.js';

/** Keywords whose change can refuse a value that was accepted (or accept one that was refused). */
export const CONSTRAINT_KEYWORDS = [
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
  'pattern',
  'multipleOf',
  'uniqueItems',
] as const;

const MAX_DEPTH = 6;
const RESPONSE_TYPES: Record<string, string> = { text: 'string', binary: 'BinaryResponse', empty: 'void' };

interface Walk {
  components: Map<string, JsonSchema>;
  ctx: TypeContext;
  out: Map<string, FieldSurface>;
  where?: string;
}

export function surfaceOf(model: ApiModel): Map<string, OperationSurface> {
  const components = new Map(model.schemas.map((s) => [s.name, s.schema]));
  const read = typeContextOf(model, (n) => n, 'read');
  const write = typeContextOf(model, (n) => n, 'write');
  const out = new Map<string, OperationSurface>();
  for (const op of model.operations) out.set(op.id, operationSurface(op, components, read, write));
  return out;
}

/** Every params field a caller may pass: parameters, and the fields of every request media type. */
function paramsSurface(op: OperationModel, components: Map<string, JsonSchema>, write: TypeContext) {
  const params = new Map<string, FieldSurface>();
  const addParams = (fields: readonly FieldModel[], where: string, required?: boolean) => {
    for (const f of fields) {
      const extra = {
        ...(f.deprecated ? { deprecated: true } : {}),
        ...(f.default !== undefined ? { default: JSON.stringify(f.default) } : {}),
      };
      fieldsOf(f.schema, f.name, required ?? f.required, { components, ctx: write, out: params, where }, 0, [], extra);
    }
  };
  addParams(op.pathParams, 'path', true);
  addParams(op.queryParams, 'query');
  addParams(op.headerParams, 'header');
  addParams(op.cookieParams, 'cookie');
  // every media type's fields (a field of any of them is one the caller may pass)
  for (const body of op.bodies) {
    if (body.union) {
      // a top-level oneOf/anyOf body: its branches as the params' own ('' path), their fields flat
      const keys = body.union.variants.map((v, i) => (v.values?.length ? v.values.join('|') : `#${i}`));
      const mapping = Object.fromEntries(
        body.union.variants.flatMap((v, i) => (v.values ?? []).map((value) => [value, keys[i]!])),
      );
      params.set('', {
        path: '',
        type: keys.join(' | '),
        required: true,
        branches: keys.sort(),
        ...(Object.keys(mapping).length ? { mapping } : {}),
      });
      for (const v of body.union.variants)
        addParams(
          v.fields.map((f) => ({
            ...f,
            required:
              f.required && body.union!.variants.every((w) => w.fields.some((g) => g.name === f.name && g.required)),
          })),
          'body',
        );
    } else addParams(body.fields, 'body');
  }
  return params;
}

function operationSurface(
  op: OperationModel,
  components: Map<string, JsonSchema>,
  read: TypeContext,
  write: TypeContext,
): OperationSurface {
  const params = paramsSurface(op, components, write);
  const result = new Map<string, FieldSurface>();
  // a text, binary or empty response has no fields: its whole type is what the SDK gives
  if (op.responseKind === 'json') fieldsOf(op.response, '', true, { components, ctx: read, out: result }, 0, []);
  else
    result.set('', {
      path: '',
      type: RESPONSE_TYPES[op.responseKind] ?? op.responseKind,
      types: [op.responseKind],
      required: true,
    });
  const p = op.pagination;
  return {
    id: op.id,
    call: `im.${op.namespace}.${op.methodName}()`,
    paramsType: paramsTypeName(op),
    resultType: resultTypeName(op),
    ...(p ? { itemType: itemTypeName(op) } : {}),
    method: op.method,
    path: op.path,
    retryClass: '',
    retryClassWhen: '',
    ...Object.assign({}, ...OPERATION_EXTENSIONS.map((e) => e.surface?.(op))),
    successStatuses: [...op.successStatuses],
    responseKind: op.responseKind,
    ...(op.statusResponses
      ? { statusShapes: op.statusResponses.map((r) => `${r.status} ${r.kind} ${oneLine(typeOf(r.schema, read))}`) }
      : {}),
    requestMedia: op.bodies.map((b) => b.contentType),
    paramsRequired: op.paramsRequired,
    params,
    result,
    paramsOpen: !!op.body?.open,
    deprecated: op.deprecated,
  };
}

/** The field itself and its nested fields (properties, array items, union branches) by path. */
function fieldsOf(
  schema: JsonSchema | undefined,
  path: string,
  required: boolean,
  w: Walk,
  depth: number,
  seen: string[],
  extra: Partial<FieldSurface> = {},
): void {
  const resolved = resolve(schema, w.components, seen);
  const s = resolved.schema;
  const here: FieldSurface = {
    path,
    type: oneLine(typeOf(schema, w.ctx)),
    required,
    ...typesOf(s, w.components),
    ...enumOf(s, w.components),
    ...(s && 'const' in s ? { const: JSON.stringify(s.const) } : {}),
    ...(s && s.default !== undefined ? { default: JSON.stringify(s.default) } : {}),
    ...(s?.deprecated ? { deprecated: true } : {}),
    ...constraintsOf(s),
    ...(w.where ? { in: w.where } : {}),
    ...extra,
  };
  const branches = here.enum ? [] : branchesOf(s, w.components, w.ctx);
  if (branches.length) {
    here.branches = branches.map((b) => b.key).sort();
    const mapping = Object.fromEntries(branches.flatMap((b) => b.values.map((v) => [v, b.key])));
    if (Object.keys(mapping).length) here.mapping = mapping;
  }
  if (!w.out.has(path) || path === '') w.out.set(path, here);
  if (depth >= MAX_DEPTH || !s) return;
  const objects = [
    s,
    ...((s.allOf as JsonSchema[] | undefined) ?? []).map((p) => resolve(p, w.components, resolved.seen).schema ?? {}),
  ];
  for (const part of objects) {
    const req = new Set<string>(part.required ?? []);
    for (const [name, child] of Object.entries<JsonSchema>(part.properties ?? {})) {
      fieldsOf(child, path ? `${path}.${name}` : name, req.has(name), w, depth + 1, resolved.seen);
    }
  }
  if (s.items) fieldsOf(s.items, `${path}[]`, true, w, depth + 1, resolved.seen);
  for (const b of branches) if (b.follow) fieldsOf(b.schema, `${path}<${b.key}>`, true, w, depth + 1, resolved.seen);
}

interface Branch {
  key: string;
  values: string[];
  schema: JsonSchema;
  /** Whether the branch's fields are compared by key (a named or discriminated branch). */
  follow: boolean;
}

function branchesOf(schema: JsonSchema | undefined, components: Map<string, JsonSchema>, ctx: TypeContext): Branch[] {
  const list = (schema?.oneOf ?? schema?.anyOf) as JsonSchema[] | undefined;
  if (!schema || !Array.isArray(list)) return [];
  let disc: ReturnType<typeof discriminatedOf>;
  try {
    disc = discriminatedOf(schema, components);
  } catch {
    disc = undefined; // the generator refuses such a spec itself
  }
  return list.map((b, i) => {
    const name = componentNameOf(b.$ref);
    const values = disc?.branches[i]?.values ?? [];
    const key = name ?? (values.length ? values.join('|') : oneLine(typeOf(b, ctx)));
    return { key, values, schema: b, follow: name !== undefined || values.length > 0 };
  });
}

function resolve(
  schema: JsonSchema | undefined,
  components: Map<string, JsonSchema>,
  seen: string[],
): { schema: JsonSchema | undefined; seen: string[] } {
  let s = schema;
  let trail = seen;
  for (let i = 0; s && typeof s.$ref === 'string' && i < 10; i++) {
    const name = componentNameOf(s.$ref);
    if (!name || trail.includes(name)) return { schema: undefined, seen: trail };
    trail = [...trail, name];
    s = components.get(name);
  }
  return { schema: s, seen: trail };
}

/** The JSON types a value may have; undefined when any is allowed (no `type`, an unknown shape). */
function typesOf(
  schema: JsonSchema | undefined,
  components: Map<string, JsonSchema>,
  depth = 0,
): Pick<FieldSurface, 'types'> {
  if (!schema || depth > 4) return {};
  if (Array.isArray(schema.type)) return { types: [...new Set<string>(schema.type)].sort() };
  if (typeof schema.type === 'string') return { types: [schema.type] };
  const values: unknown[] | undefined =
    'const' in schema ? [schema.const] : Array.isArray(schema.enum) ? schema.enum : undefined;
  if (values) return { types: [...new Set(values.map(jsonTypeOf))].sort() };
  if (schema.properties) return { types: ['object'] };
  const list = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  if (Array.isArray(list)) {
    const parts = list.map((b) => typesOf(resolve(b, components, []).schema, components, depth + 1).types);
    return parts.every(Boolean) ? { types: [...new Set(parts.flat() as string[])].sort() } : {};
  }
  return {};
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function enumOf(
  schema: JsonSchema | undefined,
  components: Map<string, JsonSchema>,
): Pick<FieldSurface, 'enum' | 'openEnum'> {
  if (!schema) return {};
  if (Array.isArray(schema.enum)) return { enum: schema.enum.map((v: unknown) => JSON.stringify(v)).sort() };
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (!Array.isArray(branches)) return {};
  const resolved = branches.map((b) => resolve(b, components, []).schema ?? {});
  const valued = resolved.filter((b) => Array.isArray(b.enum) || 'const' in b);
  const open = resolved.filter((b) => b.type === 'string' && !b.enum && !('const' in b) && !b.properties);
  // an enum only when every branch is a value list, but for at most one plain string (an open enum)
  if (!valued.length || valued.length + open.length !== resolved.length || open.length > 1) return {};
  const values = valued.flatMap((b) => (Array.isArray(b.enum) ? b.enum : [b.const]));
  return { enum: values.map((v) => JSON.stringify(v)).sort(), ...(open.length ? { openEnum: true } : {}) };
}

function constraintsOf(schema: JsonSchema | undefined): Pick<FieldSurface, 'constraints'> {
  if (!schema) return {};
  const out: Record<string, number | string> = {};
  for (const k of CONSTRAINT_KEYWORDS)
    if (typeof schema[k] === 'number' || typeof schema[k] === 'string' || schema[k] === true)
      out[k] = schema[k] === true ? 'true' : schema[k];
  // only a format the validators check can refuse a value (an annotation format never does)
  if (typeof schema.format === 'string' && schema.format in CHECKED_FORMATS) out.format = schema.format;
  return Object.keys(out).length ? { constraints: out } : {};
}

/** A TypeScript type on one line without its doc comments, shortened for a message. */
export function oneLine(type: string, max = 90): string {
  const flat = type
    .replace(/\/\*\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/\{ /g, '{ ')
    .replace(/; \}/g, ' }')
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
