/**
 * Component schema names → TypeScript type names (issue 26). OpenAPI allows `^[a-zA-Z0-9.\-_]+$`
 * (`chat-message`, `v1.User`); a type name must be an identifier. The rule (`safeTypeName`,
 * spec-text.ts): a safe name stays as written; any other becomes its letters and digits with each
 * word capitalised (`Schema` before a leading digit, after a reserved word or a name the package
 * uses). Collisions are resolved deterministically: names that are already safe keep theirs,
 * the renamed ones take `_2`, `_3`, … in the sorted order of their spec names. Each rename is a
 * warning at the component.
 *
 * Applied to the document before the model is built: the component's key and every `$ref` to it
 * are rewritten, so everything downstream sees only safe names. The wire does not carry component
 * names, except an implicit discriminator (a branch selected by its component name): that one
 * gets an explicit mapping entry under the spec's name, so the value on the wire is unchanged.
 * Pure: returns a new document when something is renamed.
 */
import type { OpenApiDocument } from '../load-spec.js';
import type { GeneratorWarning } from '../model.js';
import { safeTypeName } from '../emit/spec-text.js';
import { pointerOf, pointerSegment, quoted } from '../spec-error.js';
import { componentNameOf } from './refs.js';

const PREFIX = '#/components/schemas/';

/** Spec name → type name, for every component schema whose name is not a safe identifier. */
export function componentRenames(names: readonly string[]): Map<string, string> {
  const taken = new Set(names.filter((n) => safeTypeName(n) === n));
  const renames = new Map<string, string>();
  for (const name of [...names].sort()) {
    if (taken.has(name)) continue;
    const base = safeTypeName(name);
    let candidate = base;
    for (let n = 2; taken.has(candidate); n++) candidate = `${base}_${n}`;
    taken.add(candidate);
    renames.set(name, candidate);
  }
  return renames;
}

export function renameComponents(doc: OpenApiDocument): { doc: OpenApiDocument; warnings: GeneratorWarning[] } {
  const schemas = doc.components?.schemas;
  if (!schemas || typeof schemas !== 'object') return { doc, warnings: [] };
  const renames = componentRenames(Object.keys(schemas));
  if (!renames.size) return { doc, warnings: [] };
  const warnings = [...renames].map(([from, to]) => ({
    pointer: pointerOf('components', 'schemas', from),
    rule: 'component-renamed',
    message: `the schema name ${quoted(from)} is not a safe TypeScript identifier: its type is named ${to} (letters and digits, each word capitalised; _2, _3… on a collision)`,
  }));
  const byRef = new Map([...renames].map(([from, to]) => [PREFIX + pointerSegment(from), PREFIX + pointerSegment(to)]));
  const rewrite = (node: any): any => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!node || typeof node !== 'object') return node;
    const out: Record<string, any> = {};
    for (const [k, v] of Object.entries(node))
      out[k] = k === '$ref' && typeof v === 'string' ? (byRef.get(v) ?? v) : rewrite(v);
    if (out.discriminator && typeof out.discriminator === 'object' && Array.isArray(out.oneOf ?? out.anyOf))
      out.discriminator = keepWireValues(node, out.discriminator);
    return out;
  };
  // an implicit value (the spec's component name) or a mapping by bare name keeps its wire value
  const keepWireValues = (original: any, disc: Record<string, any>) => {
    const mapping: Record<string, string> = {};
    for (const [value, target] of Object.entries<string>(disc.mapping ?? {}))
      mapping[value] =
        typeof target === 'string' && renames.has(target)
          ? PREFIX + pointerSegment(renames.get(target)!)
          : (byRef.get(target) ?? target);
    const mappedNames = new Set(Object.values<string>(disc.mapping ?? {}).map((t) => componentNameOf(t) ?? t));
    for (const branch of original.oneOf ?? original.anyOf) {
      const name = componentNameOf(branch?.$ref);
      if (name !== undefined && renames.has(name) && !mappedNames.has(name))
        mapping[name] = PREFIX + pointerSegment(renames.get(name)!);
    }
    return Object.keys(mapping).length ? { ...disc, mapping } : disc;
  };
  const out = rewrite(doc);
  out.components.schemas = Object.fromEntries(
    Object.entries(out.components.schemas).map(([name, schema]) => [renames.get(name) ?? name, schema]),
  );
  return { doc: out, warnings };
}
