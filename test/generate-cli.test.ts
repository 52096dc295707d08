/**
 * `npm run generate` runs scripts/generate.mjs: scripts/generate.ts bundled once and run on plain
 * node. The bundle is reused while its sources are unchanged, rebuilt when one changes (or with
 * --no-cache), and gives what the tsx run gives.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/seed.js';

const launcher = join(repoRoot, 'scripts/generate.mjs');
const bundle = join(repoRoot, 'node_modules/.cache/im-openapi/generate-cli.cjs');
const manifest = join(repoRoot, 'node_modules/.cache/im-openapi/generate-cli.json');
const run = (...args: string[]) =>
  spawnSync(process.execPath, [launcher, '--check', ...args], { cwd: repoRoot, encoding: 'utf8', timeout: 120_000 });

describe('scripts/generate.mjs', () => {
  it('is what npm run generate runs', () => {
    expect(JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).scripts.generate).toBe(
      'node scripts/generate.mjs',
    );
  });

  it('checks generated/ from the bundle, reuses it while its sources are unchanged, rebuilds it when one changes', () => {
    const first = run();
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/generated\/ is up to date \(\d+ files, 178 operations/);
    const inputs = Object.keys(JSON.parse(readFileSync(manifest, 'utf8')).inputs);
    expect(inputs).toEqual(
      expect.arrayContaining([
        'scripts/generate.ts',
        'generator/generate.ts',
        'generator/format-biome.ts',
        'package-lock.json',
      ]),
    );
    const built = statSync(bundle).mtimeMs;
    // V8's compiled code of the CommonJS packages is kept beside the bundle
    expect(existsSync(join(repoRoot, 'node_modules/.cache/im-openapi/v8'))).toBe(true);
    expect(run().status).toBe(0);
    expect(statSync(bundle).mtimeMs).toBe(built);
    // a source whose hash no longer matches (as after an edit) makes the next run rebuild
    const m = JSON.parse(readFileSync(manifest, 'utf8'));
    m.inputs['generator/generate.ts'] = '0'.repeat(64);
    writeFileSync(manifest, JSON.stringify(m));
    expect(run().status).toBe(0);
    expect(statSync(bundle).mtimeMs).toBeGreaterThan(built);
    expect(JSON.parse(readFileSync(manifest, 'utf8')).inputs['generator/generate.ts']).not.toBe('0'.repeat(64));
  }, 180_000);

  it('a spec error is reported from the bundle as from tsx, located in the file given with --spec', () => {
    const bad = join(repoRoot, 'node_modules/.cache/im-openapi/bad-spec.yaml');
    writeFileSync(
      bad,
      readFileSync(join(repoRoot, 'spec/openapi.yaml'), 'utf8').replace('x-retry-class: Q', 'x-retry-class: Z'),
    );
    const r = run('--spec', bad);
    rmSync(bad);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/spec\/openapi\.yaml:\d+:\d+/);
    expect(r.stderr).toContain('x-retry-class must be one of Q, I, U, D, N, found "Z"');
  }, 120_000);
});
