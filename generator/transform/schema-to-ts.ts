/**
 * JSON Schema (2020-12, as the spec writes it) → a TypeScript type expression.
 * Open shapes stay open (an index signature), open enums stay open (`(string & {})`), so the
 * types compile when the service adds fields and values.
 */
import type { ApiModel, JsonSchema } from '../model.js';
import { discriminatedOf } from './discriminator.js';
import { isInt64 } from './formats.js';
import { propertyDoc } from './jsdoc.js';
import { isHiddenIn, viewDependentSchemas, writableName } from './views.js';
import { literalType, propertyKey } from '../emit/spec-text.js';

export interface TypeContext {
  /** How a `#/components/schemas/X` reference is written (e.g. `X` or `Schemas.X`). */
  refName(name: string): string;
  /**
   * `read` (default): what the service answers — writeOnly properties left out. `write`: what the
   * client sends — readOnly properties left out, and a component that differs between the views
   * named by its write view (`XWritable`, see transform/views.ts).
   */
  view?: 'read' | 'write';
  /** Component schemas: discriminator mappings and the views need them (without: plain unions). */
  components?: ReadonlyMap<string, JsonSchema>;
  /** Components whose write view differs from the read view (they have an `XWritable` type). */
  writable?: ReadonlySet<string>;
}

const SCHEMA_REF = /^#\/components\/schemas\/(.+)$/;

const perModel = new WeakMap<object, { components: Map<string, JsonSchema>; writable: Set<string> }>();

/** A TypeContext for a model's component schemas (components and writable set computed once per model). */
export function typeContextOf(
  model: ApiModel,
  refName: (name: string) => string,
  view: 'read' | 'write' = 'read',
): TypeContext {
  let shared = perModel.get(model);
  if (!shared) {
    const components = new Map(model.schemas.map((s) => [s.name, s.schema]));
    shared = { components, writable: viewDependentSchemas(components) };
    perModel.set(model, shared);
  }
  return { refName, view, ...shared };
}

export function typeOf(schema: JsonSchema | undefined, ctx: TypeContext): string {
  if (!schema || Object.keys(schema).length === 0) return 'unknown';
  if (typeof schema.$ref === 'string') {
    const m = schema.$ref.match(SCHEMA_REF);
    if (!m) return 'unknown';
    return ctx.refName(ctx.view === 'write' && ctx.writable?.has(m[1]!) ? writableName(m[1]!) : m[1]!);
  }
  if ('const' in schema) return literal(schema.const);
  const disc = ctx.components ? discriminatedOf(schema, ctx.components) : undefined;
  if (disc) {
    // A TS discriminated union: each branch's property is the literal(s) that select it.
    const key = propertyKey(disc.propertyName);
    const branches = union(
      disc.branches.map((b) => `(${wrap(typeOf(b.schema, ctx))} & { ${key}: ${union(b.values.map(literal))} })`),
    );
    // properties beside the oneOf/anyOf hold in every branch
    return schema.properties ? `${objectType(schema, ctx)} & (${branches})` : branches;
  }
  if (Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf)) {
    const branches: JsonSchema[] = schema.anyOf ?? schema.oneOf;
    const known = openStringEnumValues(branches);
    if (known) return union([...known.map(literal), '(string & {})']);
    // A named enum or any other string (a response field whose values may grow): keep it open.
    const last = branches[branches.length - 1];
    if (branches.length > 1 && isPlainString(last) && branches.slice(0, -1).every((b) => typeof b.$ref === 'string')) {
      return union([...branches.slice(0, -1).map((b) => typeOf(b, ctx)), '(string & {})']);
    }
    // a primitive `type` beside the oneOf/anyOf holds too (JSON Schema's keywords are a conjunction:
    // `type: boolean` with `oneOf: [boolean, enum [auto]]` is a boolean)
    const sibling = siblingPrimitiveType(schema);
    const all = union(branches.map((b) => typeOf(b, ctx)));
    return sibling ? `(${all}) & (${sibling})` : all;
  }
  if (Array.isArray(schema.allOf)) {
    const parts = schema.allOf.map((b: JsonSchema) => wrap(typeOf(b, ctx)));
    // Own properties beside allOf (a subtype that narrows or adds fields) are part of the type.
    const { allOf: _allOf, ...own } = schema;
    if (own.properties) parts.push(objectType(own, ctx));
    return parts.join(' & ');
  }
  if (Array.isArray(schema.enum)) return union(schema.enum.map(literal));
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length > 1) return union(types.map((t) => typeOf({ ...schema, type: t }, ctx)));
  switch (types[0]) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      // int64 beyond 2^53 travels as a bigint (templates/runtime/internal/lossless-json.ts)
      return isInt64(schema) ? 'number | bigint' : 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return Array.isArray(schema.prefixItems) ? tupleType(schema, ctx) : `${wrap(typeOf(schema.items, ctx))}[]`;
    case 'object':
      return objectType(schema, ctx);
    default:
      return schema.properties ? objectType(schema, ctx) : 'unknown';
  }
}

/** `{ a: string; b?: number; [key: string]: unknown }` */
export function objectType(schema: JsonSchema, ctx: TypeContext): string {
  const required = new Set<string>(Array.isArray(schema.required) ? schema.required : []);
  const properties =
    schema.properties && typeof schema.properties === 'object' && !Array.isArray(schema.properties)
      ? schema.properties
      : {};
  const members = Object.entries<JsonSchema>(properties)
    .filter(([, s]) => !isHiddenIn(s, ctx.view ?? 'read', ctx.components))
    .map(([name, s]) => `${propertyDoc(s)}${propertyKey(name)}${required.has(name) ? '' : '?'}: ${typeOf(s, ctx)};`);
  const extra = schema.additionalProperties;
  if (extra === true || extra === undefined) members.push('[key: string]: unknown;');
  else if (extra && typeof extra === 'object') {
    const valueType = typeOf(extra, ctx);
    // An index signature must admit every declared property's type too.
    members.push(`[key: string]: ${members.length ? 'unknown' : valueType};`);
  }
  return members.length ? `{\n${members.join('\n')}\n}` : 'Record<string, never>';
}

/** `prefixItems` → a tuple: elements past `minItems` optional, the rest `items` (none when `items: false` or `maxItems` ends the prefix). */
function tupleType(schema: JsonSchema, ctx: TypeContext): string {
  const prefix: JsonSchema[] = schema.prefixItems;
  const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
  const head = prefix.map((p, i) => `${typeOf(p, ctx)}${i >= min ? '?' : ''}`);
  const closed = schema.items === false || (typeof schema.maxItems === 'number' && schema.maxItems <= prefix.length);
  return `[${[...head, ...(closed ? [] : [`...${wrap(typeOf(schema.items, ctx))}[]`])].join(', ')}]`;
}

/** The primitive types a schema's own `type` allows (beside a oneOf/anyOf), or undefined when it says none or an object/array. */
function siblingPrimitiveType(schema: JsonSchema): string | undefined {
  const types: unknown[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const map: Record<string, string> = {
    string: 'string',
    integer: 'number',
    number: 'number',
    boolean: 'boolean',
    null: 'null',
  };
  if (!types.length || types.some((t) => typeof t !== 'string' || !map[t])) return undefined;
  return union(types.map((t) => map[t as string]!));
}

/**
 * The known values of an open string enum — `anyOf: [{enum: [...]}, {type: string}]` or
 * `anyOf: [{const: a}, {const: b}, …, {type: string}]` — or undefined when it is not one.
 */
export function openStringEnumValues(branches: JsonSchema[]): string[] | undefined {
  const last = branches[branches.length - 1];
  if (branches.length < 2 || last?.type !== 'string' || last.enum || 'const' in last) return undefined;
  const values: unknown[] = branches
    .slice(0, -1)
    .flatMap((b) => (Array.isArray(b.enum) ? b.enum : 'const' in b ? [b.const] : [undefined]));
  return values.every((v) => typeof v === 'string') ? (values as string[]) : undefined;
}

function isPlainString(schema: JsonSchema | undefined): boolean {
  return schema?.type === 'string' && !schema.enum && !('const' in schema) && !schema.$ref;
}

/** A spec value as a literal type (spec-text.ts). */
export const literal = literalType;

function union(parts: string[]): string {
  const unique = [...new Set(parts)];
  return unique.length === 1 ? unique[0]! : unique.join(' | ');
}

/**
 * `type` as an operand of `[]`, `&` or another union: parenthesised unless it is one name or one
 * object literal. `{ a } | { b }` starts with `{` and ends with `}` but is a union: `[]` after it
 * would bind to the last branch only (`A | B[]`, issue 26), so braces are matched, not assumed.
 */
export function wrap(type: string): string {
  if (/^[\w.$]+$/.test(type)) return type;
  return isOneObjectLiteral(type) ? type : `(${type})`;
}

/** True when `type` is a single `{ … }`: its first brace closes at its last character. */
function isOneObjectLiteral(type: string): boolean {
  if (!type.startsWith('{') || !type.endsWith('}')) return false;
  let depth = 0;
  let quote: string | undefined;
  for (let i = 0; i < type.length; i++) {
    const c = type[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
      continue;
    }
    // doc comments of members hold free text: skipped whole
    if (c === '/' && type[i + 1] === '*') {
      const end = type.indexOf('*/', i + 2);
      i = end < 0 ? type.length : end + 1;
      continue;
    }
    if (c === '/' && type[i + 1] === '/') {
      const end = type.indexOf('\n', i);
      i = end < 0 ? type.length : end;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '{' || c === '(' || c === '[' || c === '<') depth++;
    else if (c === '}' || c === ')' || c === ']' || c === '>') {
      depth--;
      if (depth === 0 && i < type.length - 1) return false;
    }
  }
  return true;
}
