/**
 * Every folder of the hand-written runtime says in a README whether it is public (a package entry
 * re-exports it), internal or not shipped, and what belongs there; the READMEs are for readers of
 * this repository and are not copied into the package (emit-runtime-copy.ts ships `.ts` only).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emitRuntimeCopy } from '../generator/emit/emit-runtime-copy.js';
import { readTree } from '../generator/read-inputs.js';
import { repoRoot } from './helpers/seed.js';

const runtime = join(repoRoot, 'templates/runtime');
const folders = readdirSync(runtime, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);

describe('runtime folder READMEs', () => {
  it.each(folders)('%s/README.md says public, internal or not shipped, and what does not belong', (folder) => {
    const path = join(runtime, folder, 'README.md');
    expect(existsSync(path), `${folder}/README.md`).toBe(true);
    const text = readFileSync(path, 'utf8');
    expect(text.split('\n')[0]).toMatch(new RegExp(`^# ${folder}/ — (public|internal|not shipped)\\b`));
    expect(text).toMatch(/^Not here:/m);
  });

  it('are not copied into the package', () => {
    const shipped = [...emitRuntimeCopy(readTree(runtime)).keys()];
    expect(shipped.length).toBeGreaterThan(100);
    expect(shipped.filter((p) => !p.endsWith('.ts'))).toEqual([]);
  });
});
