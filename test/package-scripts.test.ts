/**
 * The package's build and prepack scripts in a fresh clone without `npm install`: each names the
 * missing tool once, with the fix, before it removes or builds anything.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/seed.js';

// under the system's temp folder: no node_modules on the way up (asserted below)
const clone = mkdtempSync(join(tmpdir(), 'im-scripts-'));

beforeAll(() => {
  mkdirSync(join(clone, 'scripts'));
  for (const script of ['build.mjs', 'prepack.mjs'])
    copyFileSync(join(repoRoot, 'generated/scripts', script), join(clone, 'scripts', script));
  writeFileSync(
    join(clone, 'package.json'),
    JSON.stringify({ name: 'x', version: '0.0.0', type: 'module', exports: { '.': './dist/esm/index.js' } }),
  );
  mkdirSync(join(clone, 'dist'));
});
afterAll(() => rmSync(clone, { recursive: true, force: true }));

function run(script: string): { status: number | null; stderr: string } {
  writeFileSync(join(clone, 'dist', 'earlier-build.js'), '');
  const r = spawnSync(process.execPath, [join(clone, 'scripts', script)], {
    cwd: clone,
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...process.env, IM_PREPACK_RUNNING: '' },
  });
  return { status: r.status, stderr: r.stderr };
}

describe('package scripts without their devDependencies', () => {
  it.each(['build.mjs', 'prepack.mjs'])(
    '%s stops naming the missing tool once, and keeps the earlier dist/',
    (script) => {
      expect(existsSync(join(tmpdir(), 'node_modules')) || existsSync('/node_modules')).toBe(false);
      const { status, stderr } = run(script);
      expect(status).toBe(1);
      expect(stderr).toMatch(/esbuild is not installed\. Run `npm install` in .* first/);
      expect(stderr.match(/is not installed/g)).toHaveLength(1);
      expect(existsSync(join(clone, 'dist', 'earlier-build.js'))).toBe(true);
    },
  );
});
