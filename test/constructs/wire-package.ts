/**
 * Generates the constructs fixture (test/fixtures/constructs-openapi.yaml) into a fresh temp
 * directory, once per test file, so the wire tests can import the generated sources (vitest
 * compiles them) and type-check them with tsc.
 */
import { readFileSync } from 'node:fs';
import { readGeneratorInput } from '../../generator/read-inputs.js';
import { generateToTempDir } from '../../scripts/lib/generate-to-dir.js';
import { repoRoot } from '../helpers/seed.js';

export const CONSTRUCTS_SOURCE = 'test/fixtures/constructs-openapi.yaml';

export function constructsInput(openapiText = readFileSync(`${repoRoot}${CONSTRUCTS_SOURCE}`, 'utf8')) {
  return { ...readGeneratorInput(repoRoot), openapiText, openapiSource: CONSTRUCTS_SOURCE };
}

/** Writes the generated package of the fixture into a temp dir; returns the dir. */
export async function generateConstructsPackage(): Promise<string> {
  return (await generateToTempDir(repoRoot, CONSTRUCTS_SOURCE)).dir;
}
