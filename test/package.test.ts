/**
 * The publishable package: builds to ESM and CommonJS with .d.ts, packs with no runtime
 * dependency and no test files, and an app calling one standalone function bundles only it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/seed.js';

const pkgDir = join(repoRoot, 'generated');
const work = mkdtempSync(join(tmpdir(), 'im-pkg-'));

beforeAll(() => {
  execFileSync('npm', ['run', '-s', 'build'], { cwd: pkgDir, stdio: 'pipe' });
}, 180_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('npm pack of generated/', () => {
  it('has no runtime dependencies and ships no tests, maps or sources outside dist', () => {
    const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
    expect(pkg.dependencies ?? {}).toEqual({});
    expect(pkg.peerDependencies).toBeUndefined();
    const [packed] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: pkgDir, encoding: 'utf8' }));
    const paths: string[] = packed.files.map((f: { path: string }) => f.path);
    expect(paths).toContain('README.md');
    expect(paths).toContain('dist/esm/index.js');
    expect(paths).toContain('dist/cjs/index.js');
    expect(paths).toContain('dist/cjs/index.d.ts');
    expect(paths.filter((p) => /\.test\.|\.map$|^src\/|^examples\/|^scripts\//.test(p))).toEqual([]);
  }, 240_000); // npm pack runs the package's prepack: a clean build, publint and attw

  it('loads as ESM and as CommonJS', () => {
    const esm = spawnSync(process.execPath, ['--input-type=module', '-e', `import { ImClient, operations } from ${JSON.stringify(join(pkgDir, 'dist/esm/index.js'))}; console.log(typeof ImClient, Object.keys(operations).length)`], { encoding: 'utf8' });
    expect(esm.stderr).toBe('');
    expect(esm.stdout.trim()).toBe('function 178');
    const cjs = spawnSync(process.execPath, ['-e', `const { ImClient, operations } = require(${JSON.stringify(join(pkgDir, 'dist/cjs/index.js'))}); console.log(typeof ImClient, Object.keys(operations).length)`], { encoding: 'utf8' });
    expect(cjs.stderr).toBe('');
    expect(cjs.stdout.trim()).toBe('function 178');
  });
});

describe('standalone functions tree-shake', () => {
  it('an app calling users.get bundles that operation and not an unrelated one', async () => {
    const entry = join(work, 'one-op.mjs');
    writeFileSync(entry, `import { ImCore, usersGet } from ${JSON.stringify(join(pkgDir, 'dist/esm/funcs/index.js'))};\nconst core = new ImCore({ baseUrl: 'http://127.0.0.1:1', appKey: 'o#a', clientId: 'i', clientSecret: 's' });\nusersGet(core, { username: 'alice' }).catch(() => {});\n`);
    const result = await build({ entryPoints: [entry], bundle: true, minify: true, format: 'esm', platform: 'node', write: false, treeShaking: true });
    const code = result.outputFiles[0]!.text;
    expect(code).toContain('users.get');
    for (const unrelated of ['messages.send', 'moderation.decide', 'chatrooms.set_attributes', 'rtc.issue_tickets']) {
      expect(code, unrelated).not.toContain(unrelated);
    }
  });
});
