/**
 * `npm run generate`: spec/openapi.yaml → generated/ (the package im-server-sdk).
 * `npm run generate -- --check`: write nothing; exit 1 naming every file that differs.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from '../generator/generate.js';
import { DiskGeneratorCache, generatorFingerprint } from '../generator/disk-cache.js';
import { readGeneratorInput, readTree } from '../generator/read-inputs.js';
import { SpecError } from '../generator/spec-error.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = join(root, 'generated');
/** Folders of generated/ that the generator does not own. */
const NOT_OURS = new Set(['dist', 'node_modules']);

async function main(): Promise<number> {
  const check = process.argv.includes('--check');
  const started = performance.now();
  // --no-cache: format and compile everything afresh (what a fresh clone does on its first run).
  const cache = process.argv.includes('--no-cache') ? undefined : new DiskGeneratorCache(join(root, 'node_modules/.cache/im-openapi/generator-cache.json'), generatorFingerprint(root));
  const { model, files } = await generate(readGeneratorInput(root), cache);
  cache?.save();
  for (const w of model.warnings) console.warn(`warning: ${w.pointer}: ${w.message}`);
  const cacheNote = cache ? `, cache ${cache.hits} hit(s) ${cache.misses} miss(es)` : ', no cache';
  const existing = readTree(outDir, NOT_OURS);
  const changed = [...files].filter(([path, text]) => existing.get(path) !== text).map(([path]) => path);
  const extra = [...existing.keys()].filter((path) => !files.has(path));
  const ms = Math.round(performance.now() - started);
  if (check) {
    if (!changed.length && !extra.length) {
      console.log(`generated/ is up to date (${files.size} files, ${model.operations.length} operations, ${ms} ms${cacheNote})`);
      return 0;
    }
    console.error('generated/ is stale: run `npm run generate` and commit the result.');
    for (const path of changed) console.error(`  ${existing.has(path) ? 'differs' : 'missing'}: generated/${path}`);
    for (const path of extra) console.error(`  not generated (would be removed): generated/${path}`);
    return 1;
  }
  for (const path of changed) {
    mkdirSync(dirname(join(outDir, path)), { recursive: true });
    writeFileSync(join(outDir, path), files.get(path)!);
  }
  for (const path of extra) rmSync(join(outDir, path));
  console.log(`generated ${files.size} files (${changed.length} written, ${extra.length} removed) for ${model.operations.length} operations in ${ms} ms${cacheNote}`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    if (error instanceof SpecError) console.error(error.message);
    else console.error(error);
    process.exit(1);
  },
);
