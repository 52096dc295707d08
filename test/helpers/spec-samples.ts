/**
 * Valid sample params for every operation of spec/openapi.yaml, built from the spec itself:
 * the flat params object of the generated client (path, query and body fields under their wire
 * names), with every required field filled by the smallest value its schema accepts.
 *
 * org_name and app_name are left out: the client fills them from its configuration.
 * Used by the ecosystem tests (the Prism mock must accept every one of these requests).
 */
import { HTTP_METHODS } from './spec.js';

type Schema = Record<string, any>;

export interface SampleOperation {
  operationId: string;
  method: string;
  path: string;
  /** Namespace and method name on the client: `users.batch_create` → ['users', 'batchCreate']. */
  namespace: string;
  methodName: string;
  params: Record<string, unknown>;
}

const CLIENT_FILLED = new Set(['org_name', 'app_name']);

export function camelCase(snake: string): string {
  return snake.replace(/[_-]([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

export function resolveRef(doc: any, node: any): any {
  let seen = 0;
  while (node && typeof node === 'object' && typeof node.$ref === 'string') {
    if (++seen > 20) throw new Error(`$ref loop at ${node.$ref}`);
    const parts = node.$ref.replace(/^#\//, '').split('/').map((p: string) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    node = parts.reduce((n: any, p: string) => n?.[p], doc);
    if (node === undefined) throw new Error(`unresolved $ref`);
  }
  return node;
}

const WORDS: Record<string, string> = {
  username: 'alice',
  target: 'bob',
  friend: 'bob',
  owner: 'alice',
  group_id: 'g-1001',
  chatroom_id: 'r-2001',
  message_id: 'm-3001',
  client_msg_id: 'c-4001',
  grant_type: 'client_credentials',
  client_id: 'demo-client',
  client_secret: 'demo-secret',
  text: 'hello',
  password: 'correct-horse-battery',
};

function sampleString(schema: Schema, name: string): string {
  if (schema.format === 'date-time') return '2026-01-02T03:04:05Z';
  if (schema.format === 'date') return '2026-01-02';
  if (schema.format === 'uri' || schema.format === 'url') return 'https://example.com/callback';
  if (schema.format === 'email') return 'alice@example.com';
  let value = WORDS[name] ?? (name ? `${name.replace(/_/g, '-')}-1` : 'sample');
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? Infinity;
  while (value.length < min) value += 'x';
  if (value.length > max) value = value.slice(0, Math.max(min, max));
  if (schema.pattern && !new RegExp(schema.pattern, 'u').test(value)) {
    throw new Error(`no sample for pattern ${schema.pattern} (field ${name}); add one to WORDS`);
  }
  return value;
}

function sampleNumber(schema: Schema, integer: boolean): number {
  let v = typeof schema.minimum === 'number' ? schema.minimum : 1;
  if (typeof schema.exclusiveMinimum === 'number' && v <= schema.exclusiveMinimum) v = schema.exclusiveMinimum + 1;
  if (typeof schema.maximum === 'number' && v > schema.maximum) v = schema.maximum;
  return integer ? Math.ceil(v) : v;
}

/** The smallest valid value of `schema` (required fields only, one array item or minItems). */
export function sampleValue(doc: any, schemaIn: Schema | undefined, name = '', depth = 0): unknown {
  if (depth > 12) throw new Error(`schema too deep at ${name}`);
  const schema: Schema = resolveRef(doc, schemaIn ?? {}) ?? {};
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if ('example' in schema) return schema.example;
  if (Array.isArray(schema.enum)) return schema.enum.find((e: unknown) => e !== null) ?? schema.enum[0];
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(schema[key])) {
      const branches = schema[key].map((b: Schema) => resolveRef(doc, b));
      const pick = branches.find((b: Schema) => b.type !== 'null') ?? branches[0];
      return sampleValue(doc, pick, name, depth + 1);
    }
  }
  if (Array.isArray(schema.allOf)) {
    return Object.assign({}, ...schema.allOf.map((b: Schema) => sampleValue(doc, b, name, depth + 1)));
  }
  let type = schema.type;
  if (Array.isArray(type)) type = type.find((t: string) => t !== 'null') ?? 'null';
  if (!type) type = schema.properties ? 'object' : schema.items ? 'array' : 'string';
  switch (type) {
    case 'null':
      return null;
    case 'boolean':
      return false;
    case 'integer':
      return sampleNumber(schema, true);
    case 'number':
      return sampleNumber(schema, false);
    case 'string':
      return sampleString(schema, name);
    case 'array': {
      const n = Math.max(1, schema.minItems ?? 0);
      const itemName = name.replace(/s$/, '');
      const items = Array.from({ length: n }, (_, i) => {
        const v = sampleValue(doc, schema.items, itemName, depth + 1);
        return typeof v === 'string' && i > 0 ? `${v}${i}` : v;
      });
      return items;
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      const props: Record<string, Schema> = schema.properties ?? {};
      const required: string[] = [...(schema.required ?? [])];
      if (!required.length && (schema.minProperties ?? 0) > 0) required.push(...Object.keys(props).slice(0, schema.minProperties));
      for (const key of required) out[key] = sampleValue(doc, props[key] ?? {}, key, depth + 1);
      const extra = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : {};
      for (let i = 1; Object.keys(out).length < (schema.minProperties ?? 0); i++) out[`key_${i}`] = sampleValue(doc, extra, `key_${i}`, depth + 1);
      return out;
    }
    default:
      throw new Error(`no sample for type ${String(type)} (field ${name})`);
  }
}

/** One valid call per operation, in spec order. */
export function sampleOperations(doc: any): SampleOperation[] {
  const out: SampleOperation[] = [];
  for (const [path, itemIn] of Object.entries<any>(doc.paths)) {
    const item = resolveRef(doc, itemIn);
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op) continue;
      const params: Record<string, unknown> = {};
      const declared = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: any) => resolveRef(doc, p));
      for (const p of declared) {
        if (CLIENT_FILLED.has(p.name) || p.in === 'header' || p.in === 'cookie') continue;
        if (p.required || p.in === 'path') params[p.name] = sampleValue(doc, p.schema, p.name);
      }
      const body = resolveRef(doc, op.requestBody);
      const bodySchema = body?.content?.['application/json']?.schema;
      if (bodySchema) {
        const value = sampleValue(doc, bodySchema, 'body');
        if (value && typeof value === 'object' && !Array.isArray(value)) Object.assign(params, value);
        else throw new Error(`${op.operationId}: the flat params object needs an object body`);
      }
      const [namespace, rest] = String(op.operationId).split(/\.(.*)/s) as [string, string];
      out.push({ operationId: op.operationId, method: method.toUpperCase(), path, namespace, methodName: camelCase(rest), params });
    }
  }
  return out;
}
