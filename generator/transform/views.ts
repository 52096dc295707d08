/**
 * The read and write views of one schema (readOnly / writeOnly, as hey-api's `…Writable`):
 * `X` is the read view (what the service answers: readOnly kept, writeOnly left out) and
 * `XWritable` the write view (what the client sends: readOnly left out, writeOnly kept). A
 * `XWritable` type exists only for components whose views differ, directly or through a `$ref`.
 * Pure.
 */
import type { JsonSchema } from '../model.js';
import { componentNameOf, componentRefsOf } from './refs.js';

export type View = 'read' | 'write';

export const writableName = (name: string) => `${name}Writable`;

/** True when a property with this schema is left out of the given view. */
export function isHiddenIn(schema: unknown, view: View, components?: ReadonlyMap<string, JsonSchema>): boolean {
  if (!schema || typeof schema !== 'object') return false;
  const s = schema as JsonSchema;
  const key = view === 'write' ? 'readOnly' : 'writeOnly';
  if (s[key] === true) return true;
  const name = componentNameOf(s.$ref);
  return name !== undefined && components?.get(name)?.[key] === true;
}

const SUBSCHEMA_KEYS = [
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'prefixItems',
  'allOf',
  'anyOf',
  'oneOf',
  'properties',
  'patternProperties',
  '$defs',
];

/** Does this schema (not following refs) have a readOnly or writeOnly property somewhere? */
function hasViewProperty(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(hasViewProperty);
  if (!node || typeof node !== 'object') return false;
  const s = node as JsonSchema;
  if (
    s.properties &&
    Object.values<JsonSchema>(s.properties).some((p) => p && (p.readOnly === true || p.writeOnly === true))
  )
    return true;
  return SUBSCHEMA_KEYS.some(
    (k) =>
      k in s &&
      (k === 'properties' || k === 'patternProperties' || k === '$defs'
        ? Object.values(s[k] ?? {}).some(hasViewProperty)
        : hasViewProperty(s[k])),
  );
}

/** The components whose write view differs from their read view (sorted). */
export function viewDependentSchemas(components: ReadonlyMap<string, JsonSchema>): Set<string> {
  const out = new Set([...components].filter(([, s]) => hasViewProperty(s)).map(([n]) => n));
  const refs = new Map([...components].map(([n, s]) => [n, componentRefsOf(s)]));
  for (let grew = true; grew; ) {
    grew = false;
    for (const [name, targets] of refs) {
      if (!out.has(name) && [...targets].some((t) => out.has(t))) {
        out.add(name);
        grew = true;
      }
    }
  }
  return new Set([...out].sort());
}
