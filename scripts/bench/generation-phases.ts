/**
 * Child process: where the generator's time goes. Runs the same steps as generator/generate.ts
 * (parse → model → each emitter → format) one by one with wall and CPU time per step, then the
 * real `generate()` once for the total, and counts the output by kind. Prints one JSON line.
 * argv[2] (optional): another spec to read instead of spec/openapi.yaml (the scale bench's).
 * If generate.ts gains a step, the sum of the phases and the real total drift apart: the report
 * shows both.
 */
const importStarted = performance.now();
const { readGeneratorInput } = await import('../../generator/read-inputs.js');
const { generate } = await import('../../generator/generate.js');
const { parseSpec } = await import('../../generator/load-spec.js');
const { buildApiModel } = await import('../../generator/build-model.js');
const { buildCallbackModel } = await import('../../generator/build-callback-model.js');
const { emitCallbackTypes } = await import('../../generator/emit/emit-callback-types.js');
const { emitEntryPoints } = await import('../../generator/emit/emit-entry-points.js');
const { emitNamespaceTypes } = await import('../../generator/emit/emit-namespace-types.js');
const { emitOperations } = await import('../../generator/emit/emit-operations.js');
const { emitFuncsAndResources } = await import('../../generator/emit/emit-funcs-and-resources.js');
const { emitPackageFiles } = await import('../../generator/emit/emit-package-files.js');
const { emitRuntimeCopy } = await import('../../generator/emit/emit-runtime-copy.js');
const { emitSchemaTypes } = await import('../../generator/emit/emit-schema-types.js');
const { emitValidators, validatorImport } = await import('../../generator/emit/emit-validators.js');
const { formatFiles } = await import('../../generator/format.js');
const importMs = performance.now() - importStarted;

const root = new URL('../..', import.meta.url).pathname;
const phases: { name: string; wallMs: number; cpuMs: number }[] = [];
async function phase<T>(name: string, f: () => T | Promise<T>): Promise<T> {
  const c = process.cpuUsage();
  const s = performance.now();
  const r = await f();
  const u = process.cpuUsage(c);
  phases.push({ name, wallMs: performance.now() - s, cpuMs: (u.user + u.system) / 1000 });
  return r;
}

const specPath = process.argv[2];
const { readFileSync } = await import('node:fs');
const input = await phase('read inputs', () => ({
  ...readGeneratorInput(root),
  ...(specPath ? { openapiText: readFileSync(specPath, 'utf8') } : {}),
}));
const doc = await phase('parse YAML', () => parseSpec(input.openapiText, input.openapiSource));
const model = await phase('build model', () => buildApiModel(doc, input.openapiSource));
const maps = [
  await phase('emit schema types', () => emitSchemaTypes(model)),
  await phase('emit operation table', () => emitOperations(model, validatorImport)),
  await phase('emit namespace types', () => emitNamespaceTypes(model)),
  await phase('emit operations code (ts-morph)', () => emitFuncsAndResources(model)),
  await phase('emit entry points', () => emitEntryPoints(model)),
  await phase('emit validators (Ajv standalone)', () => emitValidators(model)),
  await phase('copy runtime', () => emitRuntimeCopy(input.runtimeFiles)),
  await phase('emit package files', () => emitPackageFiles(model, input.packageTemplates, {})),
  await phase('callbacks model + payload types', () =>
    emitCallbackTypes(buildCallbackModel(input.callbacksText!, input.callbacksSource)),
  ),
];
const files = new Map<string, string>();
for (const m of maps) for (const [p, t] of m) files.set(p, t);
const asIs = new Set([...maps[6]!.keys(), ...(input.staticFiles ?? new Map()).keys()]);
for (const [p, t] of input.staticFiles ?? []) files.set(p, t);
// what formatFiles hands to the formatter: .ts and .json, not validators, not hand-written copies
const formatted = [...files.keys()].filter(
  (p) => !asIs.has(p) && !p.startsWith('src/validators/') && /\.(ts|json)$/.test(p),
).length;
await phase('format (Biome, all files but validators and copies)', () => formatFiles(files, undefined, { asIs }));

const c = process.cpuUsage();
const s = performance.now();
const out = await generate(input);
const u = process.cpuUsage(c);
const realGenerate = { wallMs: performance.now() - s, cpuMs: (u.user + u.system) / 1000 };

const kinds: Record<string, { files: number; lines: number }> = {};
const kindOf = (p: string) =>
  p.startsWith('src/validators/')
    ? 'request validators'
    : p.startsWith('src/callbacks') || p.startsWith('src/bin/') || p.startsWith('src/stores/')
      ? 'callback kit + payload types'
      : p.startsWith('src/types/')
        ? 'types'
        : p.startsWith('src/core/') ||
            p.startsWith('src/internal/') ||
            p.startsWith('src/helpers/') ||
            p === 'src/operation.ts'
          ? 'runtime (copied)'
          : p.startsWith('src/')
            ? 'client (resources, funcs, operation table, entry points)'
            : 'docs, package.json, examples';
for (const [p, t] of out.files) {
  const k = kindOf(p);
  kinds[k] ??= { files: 0, lines: 0 };
  kinds[k]!.files++;
  kinds[k]!.lines += t.split('\n').length - (t.endsWith('\n') ? 1 : 0);
}
console.log(
  JSON.stringify({
    importMs,
    phases,
    formattedFiles: formatted,
    realGenerate,
    operations: out.model.operations.length,
    files: out.files.size,
    kinds,
  }),
);
