/**
 * Child of scripts/bench/spec-limits.ts: one `generate()` of the spec at argv[2] in a fresh
 * process, no cache, read as `npm run generate -- --spec <file>` reads it (the size checked
 * before the text is read; the limit is the CLI's default unless argv[3] gives one). Prints one JSON line: accepted (files) or
 * refused (the SpecError's rule), and generate()'s own wall time; the parent measures peak RSS.
 */
import { fileURLToPath } from 'node:url';
import { generate } from '../../generator/generate.js';
import { readGeneratorInput, readSpecFile } from '../../generator/read-inputs.js';
import { SpecError } from '../../generator/spec-error.js';

const [specPath, maxBytes] = process.argv.slice(2);
if (!specPath) throw new Error('usage: spec-limits-child.ts <spec.yaml> [max spec bytes]');
const root = fileURLToPath(new URL('../..', import.meta.url));
const started = performance.now();
let out: Record<string, unknown>;
try {
  const max = maxBytes ? Number(maxBytes) : undefined;
  const input = {
    ...readGeneratorInput(root, 'spec/openapi.yaml', max),
    openapiText: readSpecFile(specPath, 'spec/openapi.yaml', max),
  };
  const { files } = await generate(input);
  out = { result: 'accepted', files: files.size };
} catch (error) {
  if (!(error instanceof SpecError)) throw error;
  out = { result: 'refused', rule: error.rule };
}
console.log(JSON.stringify({ ...out, generateMs: Math.round(performance.now() - started) }));
