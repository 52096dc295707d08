/**
 * Shared component validators (issues 15 and 18), the schema side: which components are shared
 * (reached as is by two or more operations in one view), the `{ "x-im-shared": key }` keyword that
 * stands for one in a compiled schema, and the imports of the modules a schema calls. Compiling the
 * modules is emit-validators.ts; the keyword's code is ajv-standalone.ts.
 */
import type { JsonSchema } from '../model.js';
import { inlinedComponentOf, type SchemaView } from '../transform/inline-schema.js';
import { fileStem, structuralKey } from './spec-text.js';

/** The keyword that stands for a shared component's validator in a compiled schema. */
export const SHARED_KEYWORD = 'x-im-shared';
const VIEW_FILE_NAMES: Record<SchemaView, string> = { write: 'request', read: 'response' };

/** `<Name>.<request|response>`: the key, file stem and keyword value of one shared module. */
export function sharedKey(component: string, view: SchemaView): string {
  return `${component}.${VIEW_FILE_NAMES[view]}`;
}

/**
 * The identifier a module imports a shared validator as: `shared_` + the key, `.` → `$` and any
 * other character that is not a letter or digit → `_<hex>_` (injective, so two keys never clash).
 */
export function sharedIdentifier(key: string): string {
  return `shared_${key.replace(/[^A-Za-z0-9]/g, (c) => (c === '.' ? '$' : `_${c.charCodeAt(0).toString(16)}_`))}`;
}

/** The shared modules a compiled schema calls (`x-im-shared` values), sorted. */
function sharedKeysIn(schema: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const s of schema) sharedKeysIn(s, out);
  else if (schema && typeof schema === 'object') {
    for (const [k, v] of Object.entries(schema)) {
      if (k === SHARED_KEYWORD && typeof v === 'string') out.add(v);
      else sharedKeysIn(v, out);
    }
  }
  return out;
}

/** `import { validate as shared_X$request } from '<dir>X.request.js';` per shared module called. */
export function sharedImports(schemas: unknown, dir: string): string[] {
  return [...sharedKeysIn(schemas)]
    .sort()
    .map((key) => `import { validate as ${sharedIdentifier(key)} } from '${dir}${fileStem(key)}.js';`);
}

/** Ajv's `unevaluated*` keywords need the evaluated properties of every subschema: such a tree stays inline. */
export function usesUnevaluated(schema: unknown): boolean {
  return /"unevaluated(Properties|Items)"/.test(structuralKey(schema));
}

const SUBSCHEMA_KEYWORDS = [
  'properties',
  'patternProperties',
  'items',
  'prefixItems',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  '$defs',
];

/**
 * Objects, lists and unions get a module of their own: they are what gains fields. A scalar leaf
 * (a string with a pattern, an enum of values) costs less inlined than the call, the import and
 * the module around it, and its edits are rarer. An open object without fields (`OpenResult`) is
 * shared too, or documenting its first field would move it into a module and rewrite every
 * operation that returns it.
 */
function isStructure(schema: JsonSchema): boolean {
  const types: unknown[] = Array.isArray(schema.type) ? schema.type : [schema.type];
  return (
    types.includes('object') ||
    types.includes('array') ||
    SUBSCHEMA_KEYWORDS.some((k) => k in schema) ||
    (typeof schema.additionalProperties === 'object' && schema.additionalProperties !== null)
  );
}

/** The shared keys of the components a tree holds as is (anywhere, also inside other components). */
export function componentsIn(schema: unknown, view: SchemaView, out: Set<string>): void {
  if (Array.isArray(schema)) for (const s of schema) componentsIn(s, view, out);
  else if (schema && typeof schema === 'object') {
    const name = inlinedComponentOf(schema);
    if (name !== undefined && isStructure(schema as JsonSchema)) out.add(sharedKey(name, view));
    for (const v of Object.values(schema)) componentsIn(v, view, out);
  }
}

/**
 * A copy of a compiled schema with every component object whose key is `shared` replaced by
 * `{ "x-im-shared": key }` (the root itself too unless `keepRoot`), and the `$defs` that are no
 * longer referenced dropped (the shared module holds its own).
 */
export function withSharedRefs<T>(schema: T, view: SchemaView, shared: ReadonlySet<string>, keepRoot: boolean): T {
  if (usesUnevaluated(schema)) return schema;
  const walk = (node: unknown, root: boolean): unknown => {
    if (Array.isArray(node)) return node.map((n) => walk(n, false));
    if (!node || typeof node !== 'object') return node;
    const name = root && keepRoot ? undefined : inlinedComponentOf(node);
    if (name !== undefined && shared.has(sharedKey(name, view))) return { [SHARED_KEYWORD]: sharedKey(name, view) };
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v, false)]));
  };
  const out = walk(schema, true);
  return (out && typeof out === 'object' && '$defs' in out ? pruneDefs(out as JsonSchema) : out) as T;
}

/** `schema` without the `$defs` entries that nothing outside them (transitively) references. */
function pruneDefs(schema: JsonSchema): JsonSchema {
  const { $defs, ...rest } = schema;
  const refsIn = (node: unknown, out: Set<string>): Set<string> => {
    const m = /"\$ref":"#\/\$defs\/([^"]+)"/g;
    for (const hit of structuralKey(node).matchAll(m)) out.add(hit[1]!);
    return out;
  };
  const used = refsIn(rest, new Set());
  for (const todo = [...used]; todo.length; ) {
    for (const n of refsIn($defs[todo.pop()!], new Set())) if (!used.has(n)) used.add(n), todo.push(n);
  }
  const kept = Object.keys($defs).filter((n) => used.has(n));
  return kept.length ? { ...rest, $defs: Object.fromEntries(kept.map((n) => [n, $defs[n]])) } : rest;
}

/** Name and view of a shared key (`<Name>.<request|response>`). */
export function splitSharedKey(key: string): { name: string; view: SchemaView } {
  const dot = key.lastIndexOf('.');
  return { name: key.slice(0, dot), view: key.slice(dot + 1) === VIEW_FILE_NAMES.write ? 'write' : 'read' };
}

/**
 * The keys of the components to share: reached as is by two or more operations (params in the write
 * view, response drift in the read view). Keys are file names: only names made of letters, digits,
 * `.`, `_` and `-` (what OpenAPI allows for component names), and none that differs from another
 * only by case (one file on macOS).
 */
export function sharedComponentKeys(schemas: readonly { params: unknown; response: unknown }[]): Set<string> {
  const reach = new Map<string, number>();
  for (const { params, response } of schemas) {
    const keys = new Set<string>();
    if (!usesUnevaluated(params)) componentsIn(params, 'write', keys);
    if (!usesUnevaluated(response)) componentsIn(response, 'read', keys);
    for (const k of keys) reach.set(k, (reach.get(k) ?? 0) + 1);
  }
  const candidates = [...reach].filter(([k, n]) => n >= 2 && /^[A-Za-z0-9._-]+$/.test(k)).map(([k]) => k);
  const folded = (k: string) => k.toLowerCase();
  return new Set(candidates.filter((k) => candidates.filter((c) => folded(c) === folded(k)).length === 1).sort());
}
