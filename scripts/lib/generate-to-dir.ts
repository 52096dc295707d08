/** Generates a spec into a fresh temp dir as `npm run generate` would write it (fixtures, comparisons). */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { GeneratorCache } from '../../generator/format.js';
import { generate, type GeneratorOutput } from '../../generator/generate.js';
import { readGeneratorInput, readTree } from '../../generator/read-inputs.js';

/** A generator cache in memory (YAML pieces, validators, formatted files by their inputs), for generations in one process. */
export function memoryCache(): GeneratorCache {
  const entries = new Map<string, string>();
  return { get: (k) => entries.get(k), set: (k, v) => void entries.set(k, v) };
}

/** `specPath` is relative to `root`; the package's node_modules links to the repo's (tsc, @types/node). */
export async function generateToTempDir(
  root: string,
  specPath: string,
): Promise<{ dir: string; output: GeneratorOutput }> {
  const input = readGeneratorInput(root);
  const output = await generate({
    ...input,
    openapiText: readFileSync(join(root, specPath), 'utf8'),
    openapiSource: specPath,
  });
  const dir = mkdtempSync(join(tmpdir(), 'im-fixture-pkg-'));
  writeGeneratedFiles(dir, output.files);
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return { dir, output };
}

/** Writes generated files into `dir` as `npm run generate` does: changed files written, files no longer generated removed (dist/ and node_modules/ left alone). */
export function writeGeneratedFiles(dir: string, files: ReadonlyMap<string, string>): void {
  const existing = readTree(dir, new Set(['dist', 'node_modules']));
  for (const [path, text] of files) {
    if (existing.get(path) === text) continue;
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  for (const path of existing.keys()) if (!files.has(path)) rmSync(join(dir, path));
}
