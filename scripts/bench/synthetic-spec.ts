/**
 * A bigger spec for the scale bench: spec/openapi.yaml with every namespace repeated under new
 * names, `factor` times in all (1 = the spec itself). Copy k renames, so that the result stays a
 * valid spec that generates with zero errors:
 * - paths: `/{org_name}/{app_name}/users` → `/{org_name}/{app_name}/r2/users`;
 * - operationIds: `users.get` → `users_r2.get` (and any value naming an operationId, e.g.
 *   x-pending-helper's `decide`);
 * - tags: `Users` → `Users r2` (added to the top-level tags);
 * - components (schemas, parameters, responses, request bodies…; not security schemes):
 *   `User` → `UserR2`, with every `#/components/...` reference inside the copy renamed alike.
 * Made in memory for a temp folder, never committed.
 */
import { parse, stringify } from 'yaml';

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

export function syntheticSpec(specText: string, factor: number): { text: string; operations: number } {
  const doc = parse(specText);
  const components: Record<string, Record<string, unknown>> = doc.components ?? {};
  const operationIds = new Set<string>();
  for (const item of Object.values<any>(doc.paths))
    for (const m of METHODS) if (item?.[m]?.operationId) operationIds.add(item[m].operationId);
  const paths: Record<string, unknown> = { ...doc.paths };
  const tags: { name: string }[] = [...(doc.tags ?? [])];
  const renamedComponents: Record<string, Record<string, unknown>> = {};
  for (let k = 2; k <= factor; k++) {
    const suffix = `r${k}`;
    const rename = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(rename);
      if (typeof node === 'string') {
        const ref = /^#\/components\/([^/]+)\/(.+)$/.exec(node);
        if (ref && ref[1] !== 'securitySchemes') return `#/components/${ref[1]}/${ref[2]}R${k}`;
        if (operationIds.has(node)) return node.replace('.', `_${suffix}.`);
        return node;
      }
      if (!node || typeof node !== 'object') return node;
      const out: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(node)) {
        if (key === 'tags' && Array.isArray(value)) out[key] = value.map((t) => `${t} ${suffix}`);
        else out[key] = rename(value);
      }
      return out;
    };
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      paths[path.replace(/^(\/\{org_name\}\/\{app_name\})?/, (prefix) => `${prefix}/${suffix}`)] = rename(item);
    }
    for (const t of doc.tags ?? []) tags.push({ ...t, name: `${t.name} ${suffix}` });
    for (const [kind, entries] of Object.entries(components)) {
      if (kind === 'securitySchemes') continue;
      renamedComponents[kind] ??= {};
      for (const [name, value] of Object.entries(entries)) renamedComponents[kind]![`${name}R${k}`] = rename(value);
    }
  }
  for (const [kind, entries] of Object.entries(renamedComponents))
    components[kind] = { ...components[kind], ...entries };
  const out = { ...doc, tags, paths, components };
  let operations = 0;
  for (const item of Object.values<any>(paths)) for (const m of METHODS) if (item?.[m]) operations++;
  return { text: stringify(out, { lineWidth: 0 }), operations };
}
