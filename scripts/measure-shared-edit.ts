/**
 * `npx tsx scripts/measure-shared-edit.ts [spec]`: how many generated files one optional field
 * added to the most shared component schema (the one the most operations reach) rewrites, and how
 * many lines. The review cost of a small spec edit (issues 15 and 18). Prints one JSON line.
 */
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { buildApiModel } from '../generator/build-model.js';
import { generate } from '../generator/generate.js';
import { parseSpec } from '../generator/load-spec.js';
import { readGeneratorInput } from '../generator/read-inputs.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const input = readGeneratorInput(root, process.argv[2] ?? 'spec/openapi.yaml');

/** Component schemas each operation reaches (params, body, response; refs followed). */
function mostShared(): { name: string; operations: number } {
  const model = buildApiModel(parseSpec(input.openapiText));
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
    for (const name of seen) if (components.get(name)?.type === 'object' || components.get(name)?.properties) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  const [name, operations] = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]!;
  return { name, operations };
}

const target = mostShared();
const before = await generate(input);
const doc = parse(input.openapiText);
(doc.components.schemas[target.name].properties ??= {}).probe_note = { type: 'string', description: 'An optional field added by the measurement.' };
const after = await generate({ ...input, openapiText: stringify(doc) });
const changed = [...after.files].filter(([path, text]) => before.files.get(path) !== text).map(([path]) => path);
const lines = changed.reduce((sum, path) => {
  const a = new Set(before.files.get(path)?.split('\n') ?? []);
  return sum + after.files.get(path)!.split('\n').filter((l) => !a.has(l)).length;
}, 0);
const byKind = Object.fromEntries([...new Set(changed.map((p) => p.split('/').slice(0, 2).join('/')))].map((k) => [k, changed.filter((p) => p.startsWith(k)).length]));
console.log(JSON.stringify({ schema: target.name, reachedBy: target.operations, filesChanged: changed.length, linesChanged: lines, byKind }));
