/**
 * Generates the constructs fixture (test/fixtures/constructs-openapi.yaml) into a fresh temp
 * directory, once per test file, so the wire tests can import the generated sources (vitest
 * compiles them) and type-check them with tsc.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { generate } from '../../generator/generate.js';
import { readGeneratorInput } from '../../generator/read-inputs.js';
import { repoRoot } from '../helpers/seed.js';

export const CONSTRUCTS_SOURCE = 'test/fixtures/constructs-openapi.yaml';

export function constructsInput(openapiText = readFileSync(`${repoRoot}${CONSTRUCTS_SOURCE}`, 'utf8')) {
  return { ...readGeneratorInput(repoRoot), openapiText, openapiSource: CONSTRUCTS_SOURCE };
}

/** Writes the generated package of the fixture into a temp dir; returns the dir. */
export async function generateConstructsPackage(prefix = 'im-openapi-wire-'): Promise<string> {
  const { files } = await generate(constructsInput());
  const dir = mkdtempSync(join(tmpdir(), prefix));
  for (const [path, text] of files) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}
