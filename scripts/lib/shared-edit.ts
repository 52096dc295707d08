/**
 * The review cost of a small spec edit (issues 15 and 18): one optional field added to the most
 * shared component schema (the object schema the most operations reach), and which generated
 * files that rewrites. Used by scripts/measure-shared-edit.ts and by test/shared-validators.test.ts.
 */
import { parse, stringify } from 'yaml';
import { buildApiModel } from '../../generator/build-model.js';
import { generate, type GeneratorInput } from '../../generator/generate.js';
import { parseSpec } from '../../generator/load-spec.js';

export interface SharedEditResult {
  schema: string;
  reachedBy: number;
  filesChanged: number;
  /** Lines of the changed files that the file did not hold before the edit. */
  linesChanged: number;
  /** Changed files by their first two path segments (`src/validators`, `src/types`…). */
  byKind: Record<string, number>;
  changed: string[];
}

/** Object component schema → how many operations reach it (params, body, response; refs followed). */
export function operationsReaching(openapiText: string): Map<string, number> {
  const model = buildApiModel(parseSpec(openapiText));
  const components = new Map(model.schemas.map((s) => [s.name, s.schema]));
  const reach = (node: unknown, seen: Set<string>): void => {
    if (Array.isArray(node)) return node.forEach((n) => reach(n, seen));
    if (!node || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')) {
        const name = v.slice('#/components/schemas/'.length);
        if (!seen.has(name)) {
          seen.add(name);
          reach(components.get(name), seen);
        }
      } else reach(v, seen);
    }
  };
  const counts = new Map<string, number>();
  for (const op of model.operations) {
    const seen = new Set<string>();
    reach([op.pathParams, op.queryParams, op.body, op.response], seen);
    for (const name of seen)
      if (components.get(name)?.type === 'object' || components.get(name)?.properties)
        counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts;
}

/** The object component schema the most operations reach. */
export function mostSharedSchema(openapiText: string): { name: string; operations: number } {
  const [name, operations] = [...operationsReaching(openapiText)].sort(
    (a, b) => b[1] - a[1] || a[0].localeCompare(b[0]),
  )[0]!;
  return { name, operations };
}

/** The spec text with one optional string field `probe_note` added to the component `schema`. */
export function withProbeField(openapiText: string, schema: string): string {
  const doc = parse(openapiText);
  (doc.components.schemas[schema].properties ??= {}).probe_note = {
    type: 'string',
    description: 'An optional field added by the measurement.',
  };
  return stringify(doc);
}

/** Generates `input` before and after adding an optional string field to `schema` (default: the most shared one). */
export async function measureSharedEdit(input: GeneratorInput, schema?: string): Promise<SharedEditResult> {
  const target =
    schema === undefined
      ? mostSharedSchema(input.openapiText)
      : { name: schema, operations: operationsReaching(input.openapiText).get(schema) ?? 0 };
  const before = await generate(input);
  const after = await generate({ ...input, openapiText: withProbeField(input.openapiText, target.name) });
  const paths = new Set([...before.files.keys(), ...after.files.keys()]);
  const changed = [...paths].filter((path) => before.files.get(path) !== after.files.get(path)).sort();
  const linesChanged = changed.reduce((sum, path) => {
    const a = new Set(before.files.get(path)?.split('\n') ?? []);
    return sum + (after.files.get(path)?.split('\n') ?? []).filter((l) => !a.has(l)).length;
  }, 0);
  const kinds = [...new Set(changed.map((p) => p.split('/').slice(0, 2).join('/')))];
  const byKind = Object.fromEntries(
    kinds.map((k) => [k, changed.filter((p) => p.startsWith(`${k}/`) || p === k).length]),
  );
  return {
    schema: target.name,
    reachedBy: target.operations,
    filesChanged: changed.length,
    linesChanged,
    byKind,
    changed,
  };
}
