/**
 * `npx tsx scripts/corpus.ts [namespace…] [--strict] [--out <dir>]`: the real-world corpus (test/fixtures/corpus,
 * issue 26) grafted into test/fixtures/mini-openapi.yaml (test/corpus/graft.ts), written to
 * dist-artifacts/corpus/openapi.yaml and generated into a temp dir. Prints every problem (located)
 * or the fallback count and list. A measurement and a debugging aid; test/corpus.test.ts asserts.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { generate } from '../generator/generate.js';
import { readGeneratorInput } from '../generator/read-inputs.js';
import { SpecError } from '../generator/spec-error.js';
import { formatSpecError, yamlLocator } from '../generator/spec-location.js';
import { CORPUS, graft } from '../test/corpus/graft.js';
import { writeGeneratedFiles } from './lib/generate-to-dir.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const argValue = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const only = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--out');
const strict = process.argv.includes('--strict');
const docs = CORPUS.filter((c) => !only.length || only.includes(c.namespace)).map((c) => ({
  namespace: c.namespace,
  doc: parse(readFileSync(join(root, 'test/fixtures/corpus', c.file), 'utf8'), { maxAliasCount: -1 }),
}));
const base = parse(readFileSync(join(root, 'test/fixtures/mini-openapi.yaml'), 'utf8'));
const text = stringify(graft(base, docs), { aliasDuplicateObjects: false, lineWidth: 0 });
const outDir = join(root, 'dist-artifacts/corpus');
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, 'openapi.yaml'), text);
const started = performance.now();
try {
  const output = await generate({
    ...readGeneratorInput(root),
    openapiText: text,
    openapiSource: 'dist-artifacts/corpus/openapi.yaml',
    ...(strict ? { strict } : {}),
  });
  const locate = yamlLocator(text);
  for (const w of output.model.warnings) {
    const at = locate(w.pointer);
    console.log(
      `${w.fallback ? 'fallback' : 'warning'}: ${at ? `${at.line}:${at.col}` : ''} ${w.rule ?? ''}: ${w.message}`,
    );
  }
  const byRule = new Map<string, number>();
  for (const w of output.model.warnings)
    byRule.set(
      `${w.fallback ? 'fallback' : 'warning'} ${w.rule ?? '?'}`,
      (byRule.get(`${w.fallback ? 'fallback' : 'warning'} ${w.rule ?? '?'}`) ?? 0) + 1,
    );
  for (const [rule, n] of [...byRule].sort()) console.log(`  ${n} × ${rule}`);
  const out = argValue('--out');
  if (out) writeGeneratedFiles(out, output.files);
  console.log(
    `${output.model.operations.length} operations, ${output.model.warnings.filter((w) => w.fallback).length} fallbacks, ${output.model.warnings.length} warnings in all, ${Math.round(performance.now() - started)} ms`,
  );
} catch (error) {
  if (!(error instanceof SpecError)) throw error;
  console.log(
    formatSpecError(error, { 'dist-artifacts/corpus/openapi.yaml': text }, 'dist-artifacts/corpus/openapi.yaml'),
  );
  console.log(`${error.problems.length} problems, ${Math.round(performance.now() - started)} ms`);
  process.exitCode = 1;
}
