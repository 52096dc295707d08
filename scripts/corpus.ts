/**
 * `npx tsx scripts/corpus.ts [namespace…] [--strict]`: the real-world corpus (test/fixtures/corpus,
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

const root = fileURLToPath(new URL('..', import.meta.url));
const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
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
  const output = await generate({ ...readGeneratorInput(root), openapiText: text, openapiSource: 'dist-artifacts/corpus/openapi.yaml', ...(strict ? { strict } : {}) } as never);
  const locate = yamlLocator(text);
  for (const w of output.model.warnings) {
    const at = locate(w.pointer);
    console.log(`warning: ${at ? `${at.line}:${at.col}` : ''} ${w.pointer} ${w.message}`);
  }
  console.log(`${output.model.operations.length} operations, ${output.model.warnings.length} warnings, ${Math.round(performance.now() - started)} ms`);
} catch (error) {
  if (!(error instanceof SpecError)) throw error;
  console.log(formatSpecError(error, { 'dist-artifacts/corpus/openapi.yaml': text }, 'dist-artifacts/corpus/openapi.yaml'));
  console.log(`${error.problems.length} problems, ${Math.round(performance.now() - started)} ms`);
  process.exitCode = 1;
}
