/**
 * A spec schema → the schema a validator is compiled from (JSON Schema 2020-12), for one view:
 * `write` (request params: what the client sends) or `read` (the response drift check).
 *
 * - component `$ref`s are inlined, so an error's schemaPath is a path in one schema (the issue
 *   mapping folds `anyOf` by it) — except components on a `$ref` cycle, which stay `$ref`s to
 *   `$defs` of the root (only the ones the operation reaches), so recursive trees validate;
 * - annotations (description, x-*, examples, example, default…) and unknown formats are dropped;
 * - `readOnly` properties are refused in the write view (a `false` schema: the issue mapping
 *   words it "read-only"), `writeOnly` ones are not required in the read view;
 * - a `discriminator` selects the branch by its property (`if`/`then` per value), so only the
 *   errors of the selected branch are reported and an unknown value is one `enum` error;
 * - `allOf` of object shapes is merged into one object, so closedness is judged on the merged
 *   shape (a closed part admits the fields the other parts declare).
 * Pure and deterministic.
 */
import type { JsonSchema } from '../model.js';
import { discriminatedOf } from './discriminator.js';
import { componentNameOf, componentRefsOf } from './refs.js';
import { isKnownFormat } from './formats.js';

/** Keywords that hold one subschema, a map of subschemas, or a list of subschemas. */
export const ONE_SCHEMA = new Set([
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
]);
export const SCHEMA_MAP = new Set(['properties', 'patternProperties', 'dependentSchemas', '$defs']);
export const SCHEMA_LIST = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
/** Annotations that do not validate (dropped). */
export const ANNOTATIONS = new Set([
  'description',
  'title',
  'examples',
  'example',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$comment',
  'externalDocs',
  'xml',
  'discriminator',
]);

export class ParamsSchemaError extends Error {}

/**
 * Inlined schema object → the component it was inlined from (non-recursive components only).
 * emit-validators.ts reads it to compile a component reached by several operations once, in a
 * shared module, where the object stands as is (not merged into an allOf or extended beside a
 * `$ref`: those build new objects, which keep the component inlined). A side table, so the
 * schemas themselves stay plain JSON Schema.
 */
const inlinedFrom = new WeakMap<object, string>();

/** The component an inlined schema object stands for, as is; undefined for any other object. */
export function inlinedComponentOf(schema: unknown): string | undefined {
  return schema && typeof schema === 'object' ? inlinedFrom.get(schema) : undefined;
}

export type SchemaView = 'read' | 'write';

export interface InlineContext {
  readonly components: ReadonlyMap<string, JsonSchema>;
  readonly view: SchemaView;
  /** Components on a `$ref` cycle (see recursiveComponents). */
  readonly recursive: ReadonlySet<string>;
  /** Recursive components reached so far → their inlined schema (filled by withDefs). */
  readonly defs: Map<string, JsonSchema | boolean | undefined>;
}

export function inlineContext(
  components: ReadonlyMap<string, JsonSchema>,
  view: SchemaView,
  recursive = recursiveComponents(components),
): InlineContext {
  return { components, view, recursive, defs: new Map() };
}

/** The names of the components that reach themselves through `$ref`s. */
export function recursiveComponents(components: ReadonlyMap<string, JsonSchema>): Set<string> {
  const edges = new Map<string, Set<string>>();
  for (const [name, schema] of components) edges.set(name, componentRefsOf(schema));
  const out = new Set<string>();
  for (const start of components.keys()) {
    const seen = new Set<string>();
    const todo = [...(edges.get(start) ?? [])];
    while (todo.length) {
      const n = todo.pop()!;
      if (n === start) {
        out.add(start);
        break;
      }
      if (seen.has(n)) continue;
      seen.add(n);
      todo.push(...(edges.get(n) ?? []));
    }
  }
  return out;
}

/** `root` with the `$defs` of every recursive component it reaches (transitively). */
export function withDefs(root: JsonSchema, ctx: InlineContext): JsonSchema {
  for (
    let pending = [...ctx.defs].filter(([, s]) => s === undefined);
    pending.length;
    pending = [...ctx.defs].filter(([, s]) => s === undefined)
  ) {
    for (const [name] of pending)
      ctx.defs.set(name, inlineBody(ctx.components.get(name)!, ctx, `#/components/schemas/${name}`));
  }
  if (!ctx.defs.size) return root;
  const names = [...ctx.defs.keys()].sort();
  const out = { ...root, $defs: Object.fromEntries(names.map((n) => [n, ctx.defs.get(n)!])) };
  // a component at the root (a response that is one component) still stands as is: its defs are its own
  const from = inlinedFrom.get(root);
  if (from !== undefined) inlinedFrom.set(out, from);
  return out;
}

/** Resolves and inlines component refs, drops annotations, applies the view (see the file comment). */
export function inlineSchema(schema: unknown, ctx: InlineContext, where: string): JsonSchema | boolean {
  if (typeof schema === 'boolean') return schema;
  if (!schema || typeof schema !== 'object' || Array.isArray(schema))
    throw new ParamsSchemaError(`${where}: not a schema`);
  const src = schema as JsonSchema;
  let out = inlineBody(src, ctx, where);
  if (typeof src.$ref === 'string') {
    const name = componentNameOf(src.$ref);
    const target = name === undefined ? undefined : ctx.components.get(name);
    if (name === undefined || !target) throw new ParamsSchemaError(`${where}: cannot resolve $ref ${src.$ref}`);
    let resolved: JsonSchema | boolean;
    if (ctx.recursive.has(name)) {
      if (!ctx.defs.has(name)) ctx.defs.set(name, undefined);
      resolved = { $ref: `#/$defs/${name}` };
    } else {
      resolved = inlineSchema(target, ctx, `#/components/schemas/${name}`);
      if (typeof resolved === 'object') inlinedFrom.set(resolved, name);
    }
    // 2020-12: $ref beside other keywords means both apply; merge when they do not overlap.
    if (typeof out === 'object' && Object.keys(out).length === 0) return resolved;
    if (
      typeof resolved === 'object' &&
      typeof out === 'object' &&
      !('$ref' in resolved) &&
      Object.keys(out).every((k) => !(k in resolved))
    )
      out = { ...resolved, ...out };
    else out = { allOf: [resolved, out] };
  }
  return out;
}

/** Every keyword of `src` but `$ref`, transformed. */
function inlineBody(src: JsonSchema | boolean, ctx: InlineContext, where: string): JsonSchema | boolean {
  if (typeof src === 'boolean') return src;
  const out: JsonSchema = {};
  for (const key of Object.keys(src)) {
    const value = src[key];
    if (key === '$ref' || ANNOTATIONS.has(key) || key.startsWith('x-')) continue;
    if (key === 'format' && (typeof value !== 'string' || !isKnownFormat(value))) continue;
    if (ONE_SCHEMA.has(key)) out[key] = inlineSchema(value, ctx, `${where}/${key}`);
    else if (SCHEMA_MAP.has(key)) {
      out[key] = Object.fromEntries(
        Object.keys(value).map((k) => [k, inlineSchema(value[k], ctx, `${where}/${key}/${k}`)]),
      );
    } else if (SCHEMA_LIST.has(key))
      out[key] = (value as unknown[]).map((s, i) => inlineSchema(s, ctx, `${where}/${key}/${i}`));
    else out[key] = value;
  }
  applyView(src, out, ctx);
  const selected = selectByDiscriminator(src, out, ctx, where);
  return mergeAllOf(selected);
}

function flag(schema: unknown, key: 'readOnly' | 'writeOnly', ctx: InlineContext): boolean {
  if (!schema || typeof schema !== 'object') return false;
  const s = schema as JsonSchema;
  if (s[key] === true) return true;
  const name = componentNameOf(s.$ref);
  return name !== undefined && ctx.components.get(name)?.[key] === true;
}

/** write view: readOnly properties refused; read view: writeOnly properties not required. */
function applyView(src: JsonSchema, out: JsonSchema, ctx: InlineContext): void {
  if (!src.properties || !out.properties) return;
  const hidden = Object.keys(src.properties).filter((k) =>
    flag(src.properties[k], ctx.view === 'write' ? 'readOnly' : 'writeOnly', ctx),
  );
  if (!hidden.length) return;
  // A `false` schema: the value must be absent (the issue mapping says "read-only").
  if (ctx.view === 'write') for (const k of hidden) out.properties[k] = false;
  if (Array.isArray(out.required)) {
    out.required = out.required.filter((k: string) => !hidden.includes(k));
    if (!out.required.length) delete out.required;
  }
}

/**
 * `oneOf`/`anyOf` + discriminator → the property must be one of the values, and each value's
 * `if`/`then` applies its branch only (so the errors of the other branches never show).
 */
function selectByDiscriminator(src: JsonSchema, out: JsonSchema, ctx: InlineContext, where: string): JsonSchema {
  const disc = discriminatedOf(src, ctx.components, where);
  if (!disc) return out;
  const key = src.oneOf ? 'oneOf' : 'anyOf';
  const branches: (JsonSchema | boolean)[] = out[key];
  const { [key]: _dropped, ...rest } = out;
  const p = disc.propertyName;
  // An object shape beside the union (properties that hold in every branch) is merged into each
  // branch, so a closed branch admits them and a closed holder admits the branch's fields.
  const holder = Object.keys(rest).length && isObjectShape(rest) && !rest.allOf ? rest : undefined;
  const selection: JsonSchema = {
    type: 'object',
    required: [p],
    properties: { [p]: { enum: disc.values } },
    allOf: disc.branches.map((b, i) => ({
      if: { properties: { [p]: b.values.length === 1 ? { const: b.values[0] } : { enum: b.values } }, required: [p] },
      then: holder ? mergeAllOf({ allOf: [holder, branches[i]] }) : branches[i],
    })),
  };
  if (holder || !Object.keys(rest).length) return selection;
  return { ...rest, allOf: [...(rest.allOf ?? []), selection] };
}

const MERGEABLE = new Set(['type', 'properties', 'required', 'additionalProperties', 'allOf']);

function isObjectShape(s: JsonSchema | boolean): s is JsonSchema {
  if (typeof s !== 'object') return false;
  if (!Object.keys(s).every((k) => MERGEABLE.has(k))) return false;
  if (s.type !== undefined && s.type !== 'object') return false;
  return s.additionalProperties === undefined || typeof s.additionalProperties === 'boolean';
}

/**
 * `allOf` of object shapes (type/properties/required/additionalProperties only) → one object.
 * Closed when any part is closed: the author closed the composed shape, not one part of it.
 */
export function mergeAllOf(schema: JsonSchema | boolean): JsonSchema | boolean {
  if (typeof schema !== 'object' || !Array.isArray(schema.allOf)) return schema;
  const { allOf, ...own } = schema;
  const parts: (JsonSchema | boolean)[] = [own, ...allOf.map(mergeAllOf)];
  if (!parts.every(isObjectShape) || (parts as JsonSchema[]).some((p) => p.allOf)) return schema;
  const properties: Record<string, JsonSchema | boolean> = {};
  const required: string[] = [];
  let closed = false;
  let typed = false;
  for (const part of parts as JsonSchema[]) {
    for (const [k, v] of Object.entries<JsonSchema | boolean>(part.properties ?? {})) {
      properties[k] = k in properties ? mergeAllOf({ allOf: [properties[k], v] }) : v;
    }
    for (const r of part.required ?? []) if (!required.includes(r)) required.push(r);
    if (part.additionalProperties === false) closed = true;
    if (part.type === 'object') typed = true;
  }
  return {
    ...(typed ? { type: 'object' } : {}),
    ...(Object.keys(properties).length ? { properties } : {}),
    ...(required.length ? { required } : {}),
    ...(closed ? { additionalProperties: false } : {}),
  };
}
