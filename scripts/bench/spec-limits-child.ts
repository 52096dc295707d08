/**
 * Child of scripts/bench/spec-limits.ts: one `generate()` of the spec at argv[2] in a fresh
 * process, no cache, as `npm run generate` does after reading its inputs (the limit on input
 * size is the CLI's default unless argv[3] gives one). Prints one JSON line: accepted (files) or
 * refused (the SpecError's rule), and generate()'s own wall time; the parent measures peak RSS.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generate } from '../../generator/generate.js';
import { readGeneratorInput } from '../../generator/read-inputs.js';
import { SpecError } from '../../generator/spec-error.js';

const [specPath, maxBytes] = process.argv.slice(2);
if (!specPath) throw new Error('usage: spec-limits-child.ts <spec.yaml> [max spec bytes]');
const root = fileURLToPath(new URL('../..', import.meta.url));
const started = performance.now();
let out: Record<string, unknown>;
try {
  const input = { ...readGeneratorInput(root), openapiText: readFileSync(specPath, 'utf8'), ...(maxBytes ? { maxSpecBytes: Number(maxBytes) } : {}) };
  const { files } = await generate(input);
  out = { result: 'accepted', files: files.size };
} catch (error) {
  if (!(error instanceof SpecError)) throw error;
  out = { result: 'refused', rule: error.rule };
}
console.log(JSON.stringify({ ...out, generateMs: Math.round(performance.now() - started) }));
