/**
 * Child process of the scale bench: generates the package for the spec at argv[2] (no cache,
 * as a first run) and writes it under argv[3], the way `npm run generate` does for
 * spec/openapi.yaml. Prints one JSON line: operations, files written, and generate()'s own wall
 * and CPU time (the parent measures the whole process).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from '../../generator/generate.js';
import { readGeneratorInput } from '../../generator/read-inputs.js';

const [specPath, outDir] = process.argv.slice(2);
if (!specPath || !outDir) throw new Error('usage: scale-child.ts <spec.yaml> <out dir>');
const root = fileURLToPath(new URL('../..', import.meta.url));
const input = {
  ...readGeneratorInput(root),
  openapiText: readFileSync(specPath, 'utf8'),
  openapiSource: 'spec/openapi.yaml',
};
const cpu = process.cpuUsage();
const started = performance.now();
const { model, files } = await generate(input);
for (const [path, text] of files) {
  mkdirSync(dirname(join(outDir, path)), { recursive: true });
  writeFileSync(join(outDir, path), text);
}
const used = process.cpuUsage(cpu);
console.log(
  JSON.stringify({
    operations: model.operations.length,
    files: files.size,
    warnings: model.warnings.length,
    generateWallMs: performance.now() - started,
    generateCpuMs: (used.user + used.system) / 1000,
  }),
);
