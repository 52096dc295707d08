/** Type-level contract: test/types/consumer.ts compiles, and each of its @ts-expect-error lines is a real error. */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/seed.js';

describe('generated types', () => {
  it('wrong param names and types are compile errors; right ones compile', () => {
    const result = spawnSync(
      process.execPath,
      [`${repoRoot}node_modules/typescript/bin/tsc`, '-p', 'test/types/tsconfig.json'],
      { cwd: repoRoot, encoding: 'utf8' },
    );
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  }, 120_000);

  it('the package examples type-check against the generated package', () => {
    const result = spawnSync(
      process.execPath,
      [`${repoRoot}node_modules/typescript/bin/tsc`, '-p', 'test/types/tsconfig.examples.json'],
      { cwd: repoRoot, encoding: 'utf8' },
    );
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  }, 120_000);
});
