/**
 * The API surface of a model, as callers of the SDK meet it: per operation its method and path,
 * retry class, paging, and every params field and result field (nested fields by dotted path,
 * component $refs followed, cycles cut) with its type, requiredness and enum values. The change
 * report compares two surfaces; it never diffs YAML text or generated files.
 */
import type { ApiModel, FieldModel, JsonSchema, OperationModel } from '../model.js';

export interface FieldSurface {
  /** `text`, `items[].id`, `content.width` */
  path: string;
  type: string;
  required: boolean;
  /** Known values when the field is an enum (closed unless `openEnum`). */
  enum?: string[];
  openEnum?: boolean;
  deprecated?: boolean;
  /** Validation bounds (minLength, maximum, pattern, …) as the spec writes them. */
  constraints?: Record<string, number | string>;
}

/** Keywords whose change can refuse a value that was accepted (or accept one that was refused). */
export const CONSTRAINT_KEYWORDS = ['minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minItems', 'maxItems', 'pattern', 'multipleOf'] as const;

function constraintsOf(schema: JsonSchema | undefined): Pick<FieldSurface, 'constraints'> {
  if (!schema) return {};
  const out: Record<string, number | string> = {};
  for (const k of CONSTRAINT_KEYWORDS) if (typeof schema[k] === 'number' || typeof schema[k] === 'string') out[k] = schema[k];
  return Object.keys(out).length ? { constraints: out } : {};
}

export interface OperationSurface {
  id: string;
  method: string;
  path: string;
  retryClass: string;
  /** `N when online_only = true; …` */
  retryClassWhen: string;
  paging?: string;
  successStatuses: number[];
  /** Where each params field lives: `path`, `query`, `header`, `cookie`, `body`. */
  params: Map<string, FieldSurface & { in: string }>;
  result: Map<string, FieldSurface>;
  /** True when the params object accepts fields the spec does not list (open body). */
  paramsOpen: boolean;
  deprecated: boolean;
}

const MAX_DEPTH = 6;
const REF = /^#\/components\/schemas\/(.+)$/;

export function surfaceOf(model: ApiModel): Map<string, OperationSurface> {
  const components = new Map(model.schemas.map((s) => [s.name, s.schema]));
  const out = new Map<string, OperationSurface>();
  for (const op of model.operations) out.set(op.id, operationSurface(op, components));
  return out;
}

function operationSurface(op: OperationModel, components: Map<string, JsonSchema>): OperationSurface {
  const params = new Map<string, FieldSurface & { in: string }>();
  const addParams = (fields: readonly FieldModel[], where: string, required?: boolean) => {
    for (const f of fields) {
      for (const s of fieldsOf(f.schema, f.name, required ?? f.required, components, 0, [])) params.set(s.path, { ...s, in: where });
    }
  };
  addParams(op.pathParams, 'path', true);
  addParams(op.queryParams, 'query');
  addParams(op.headerParams, 'header');
  addParams(op.cookieParams, 'cookie');
  // every media type's fields (a field of any of them is one the caller may pass)
  for (const body of op.bodies) addParams(body.fields, 'body');
  const result = new Map<string, FieldSurface>();
  const response = op.pagination && op.itemSchema ? { type: 'object', properties: { [`${op.pagination.itemsField}[]`]: op.itemSchema } } : op.response;
  for (const s of fieldsOf(response, '', true, components, 0, [])) if (s.path) result.set(s.path, s);
  const when = op.retryClassWhen
    .map((c) => `${c.class} when ${c.all.map((t) => ('equals' in t ? `${t.field} = ${JSON.stringify(t.equals)}` : `${t.field} ${t.present ? 'given' : 'absent'}`)).join(' and ')}`)
    .join('; ');
  return {
    id: op.id,
    method: op.method,
    path: op.path,
    retryClass: op.isTokenExchange ? '—' : op.retryClass,
    retryClassWhen: when,
    ...(op.pagination ? { paging: op.pagination.kind } : {}),
    successStatuses: [...op.successStatuses],
    params,
    result,
    paramsOpen: !!op.body?.open,
    deprecated: op.deprecated,
  };
}

/** The field itself and its nested fields, by dotted path. */
function fieldsOf(schema: JsonSchema | undefined, path: string, required: boolean, components: Map<string, JsonSchema>, depth: number, seen: string[]): FieldSurface[] {
  const resolved = resolve(schema, components, seen);
  const here: FieldSurface = { path, type: typeSummary(resolved.schema, components), required, ...enumOf(resolved.schema, components), ...constraintsOf(resolved.schema), ...(resolved.schema?.deprecated ? { deprecated: true } : {}) };
  const out = [here];
  if (depth >= MAX_DEPTH || !resolved.schema) return out;
  const s = resolved.schema;
  const objects = [s, ...((s.allOf as JsonSchema[] | undefined) ?? []).map((p) => resolve(p, components, resolved.seen).schema ?? {})];
  for (const part of objects) {
    const req = new Set<string>(part.required ?? []);
    for (const [name, child] of Object.entries<JsonSchema>(part.properties ?? {})) {
      out.push(...fieldsOf(child, path ? `${path}.${name}` : name, req.has(name), components, depth + 1, resolved.seen));
    }
  }
  if (s.type === 'array' || s.items) {
    const item = resolve(s.items, components, resolved.seen);
    if (item.schema?.properties || item.schema?.allOf) out.push(...fieldsOf(s.items, `${path}[]`, true, components, depth + 1, resolved.seen).slice(1));
  }
  return out;
}

function resolve(schema: JsonSchema | undefined, components: Map<string, JsonSchema>, seen: string[]): { schema: JsonSchema | undefined; seen: string[] } {
  let s = schema;
  let trail = seen;
  for (let i = 0; s && typeof s.$ref === 'string' && i < 10; i++) {
    const name = REF.exec(s.$ref)?.[1];
    if (!name || trail.includes(name)) return { schema: undefined, seen: trail };
    trail = [...trail, name];
    s = components.get(name);
  }
  return { schema: s, seen: trail };
}

/** A short, comparable type: `string`, `integer|null`, `array<string>`, `object`, `ref:User`. */
function typeSummary(schema: JsonSchema | undefined, components: Map<string, JsonSchema>): string {
  if (!schema) return 'any';
  const types = Array.isArray(schema.type) ? [...schema.type].sort() : schema.type ? [schema.type] : [];
  const base = types.length ? types.join('|') : schema.properties ? 'object' : schema.enum || 'const' in schema ? typeof (schema.enum?.[0] ?? schema.const) : schema.oneOf || schema.anyOf ? 'union' : schema.allOf ? 'object' : 'any';
  if (types.includes('array')) return `array<${typeSummary(resolve(schema.items, components, []).schema, components)}>`;
  return schema.format ? `${base}(${schema.format})` : base;
}

function enumOf(schema: JsonSchema | undefined, components: Map<string, JsonSchema>): Pick<FieldSurface, 'enum' | 'openEnum'> {
  if (!schema) return {};
  if (Array.isArray(schema.enum)) return { enum: schema.enum.map(String).sort() };
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(branches)) {
    const resolved = branches.map((b) => resolve(b, components, []).schema ?? {});
    const values = resolved.flatMap((b) => (Array.isArray(b.enum) ? b.enum : 'const' in b ? [b.const] : []));
    const open = resolved.some((b) => b.type === 'string' && !b.enum && !('const' in b));
    if (values.length) return { enum: values.map(String).sort(), ...(open ? { openEnum: true } : {}) };
  }
  return {};
}
