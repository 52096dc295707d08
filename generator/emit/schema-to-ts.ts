/**
 * JSON Schema (2020-12, as the spec writes it) → a TypeScript type expression.
 * Open shapes stay open (an index signature), open enums stay open (`(string & {})`), so the
 * types compile when the service adds fields and values.
 */
import type { JsonSchema } from '../model.js';
import { propertyKey } from '../names.js';

export interface TypeContext {
  /** How a `#/components/schemas/X` reference is written (e.g. `X` or `Schemas.X`). */
  refName(name: string): string;
}

const SCHEMA_REF = /^#\/components\/schemas\/(.+)$/;

export function typeOf(schema: JsonSchema | undefined, ctx: TypeContext): string {
  if (!schema || Object.keys(schema).length === 0) return 'unknown';
  if (typeof schema.$ref === 'string') {
    const m = schema.$ref.match(SCHEMA_REF);
    return m ? ctx.refName(m[1]!) : 'unknown';
  }
  if ('const' in schema) return literal(schema.const);
  if (Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf)) {
    const branches: JsonSchema[] = schema.anyOf ?? schema.oneOf;
    if (isOpenStringEnum(branches)) {
      return union([...branches[0]!.enum.map(literal), '(string & {})']);
    }
    return union(branches.map((b) => typeOf(b, ctx)));
  }
  if (Array.isArray(schema.allOf)) return schema.allOf.map((b: JsonSchema) => wrap(typeOf(b, ctx))).join(' & ');
  if (Array.isArray(schema.enum)) return union(schema.enum.map(literal));
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length > 1) return union(types.map((t) => typeOf({ ...schema, type: t }, ctx)));
  switch (types[0]) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return `${wrap(typeOf(schema.items, ctx))}[]`;
    case 'object':
      return objectType(schema, ctx);
    default:
      return schema.properties ? objectType(schema, ctx) : 'unknown';
  }
}

/** `{ a: string; b?: number; [key: string]: unknown }` */
export function objectType(schema: JsonSchema, ctx: TypeContext): string {
  const required = new Set<string>(schema.required ?? []);
  const members = Object.entries<JsonSchema>(schema.properties ?? {}).map(
    ([name, s]) => `${docComment(s.description)}${propertyKey(name)}${required.has(name) ? '' : '?'}: ${typeOf(s, ctx)};`,
  );
  const extra = schema.additionalProperties;
  if (extra === true || extra === undefined) members.push('[key: string]: unknown;');
  else if (extra && typeof extra === 'object') {
    const valueType = typeOf(extra, ctx);
    // An index signature must admit every declared property's type too.
    members.push(`[key: string]: ${members.length ? 'unknown' : valueType};`);
  }
  return members.length ? `{\n${members.join('\n')}\n}` : 'Record<string, never>';
}

export function isOpenStringEnum(branches: JsonSchema[]): boolean {
  return (
    branches.length === 2 &&
    Array.isArray(branches[0]!.enum) &&
    branches[0]!.enum.every((v: unknown) => typeof v === 'string') &&
    branches[1]!.type === 'string' &&
    !branches[1]!.enum
  );
}

export function literal(value: unknown): string {
  return value === null ? 'null' : JSON.stringify(value);
}

function union(parts: string[]): string {
  const unique = [...new Set(parts)];
  return unique.length === 1 ? unique[0]! : unique.join(' | ');
}

function wrap(type: string): string {
  return /^[\w.$]+$/.test(type) || /^\{.*\}$/s.test(type) ? type : `(${type})`;
}

export function docComment(text: string | undefined): string {
  if (!text) return '';
  return `/** ${text.replace(/\*\//g, '*\\/').replace(/\n+/g, ' ')} */\n`;
}
