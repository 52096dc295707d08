/**
 * From a spec edit to a safe release (issue 15): the package's prepack builds from clean and
 * checks before anything is packed, a deleted operation never ships from a stale build, the
 * version is the maintainer's and survives generate, and the release script's pieces.
 */
import { execFile, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { generate } from '../generator/generate.js';
import { readGeneratorInput } from '../generator/read-inputs.js';
import { generateToTempDir, writeGeneratedFiles } from '../scripts/lib/generate-to-dir.js';
import { changelogSection, nextVersion, withSection } from '../scripts/release.js';
import { repoRoot } from './helpers/seed.js';

const temps: string[] = [];
afterAll(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** npm pack (prepack builds from clean): async, since a pack of a minute on a loaded machine would starve vitest's worker RPC. */
async function pack(dir: string): Promise<{ status: number | null; files: string[]; out: string; tarball?: string }> {
  const dest = mkdtempSync(join(tmpdir(), 'im-packed-'));
  temps.push(dest);
  const r = await promisify(execFile)('npm', ['pack', '--json', '--pack-destination', dest, '--loglevel=error'], { cwd: dir, encoding: 'utf8', timeout: 240_000, env: { ...process.env, npm_config_update_notifier: 'false' } }).then(
    (ok) => ({ status: 0, stdout: ok.stdout, stderr: ok.stderr }),
    (err: { code?: number; stdout?: string; stderr?: string }) => ({ status: typeof err.code === 'number' ? err.code : 1, stdout: err.stdout ?? '', stderr: err.stderr ?? '' }),
  );
  if (r.status !== 0) return { status: r.status, files: [], out: `${r.stdout}${r.stderr}` };
  const [info] = JSON.parse(r.stdout);
  return { status: 0, files: info.files.map((f: { path: string }) => f.path), out: r.stderr, tarball: join(dest, info.filename) };
}

describe('npm pack of a freshly generated package', () => {
  it('builds dist/ first (fresh clone: no dist), then leaves a deleted operation out of the next pack', async () => {
    const { dir } = await generateToTempDir(repoRoot, 'test/fixtures/mini-openapi.yaml');
    temps.push(dir);
    const first = await pack(dir);
    expect(first.status, first.out).toBe(0);
    expect(first.files).toEqual(expect.arrayContaining(['dist/esm/index.js', 'dist/esm/index.d.ts', 'dist/esm/funcs/index.js', 'dist/esm/funcs/friends.d.ts', 'package.json', 'README.md', 'CHANGELOG.md']));
    expect(first.files.filter((f) => f.startsWith('scripts/') || f.startsWith('src/'))).toEqual([]);
    const packedText = (tarball: string): string => {
      const extracted = mkdtempSync(join(tmpdir(), 'im-unpacked-'));
      temps.push(extracted);
      spawnSync('tar', ['-xzf', tarball, '-C', extracted]);
      return readdirSync(join(extracted, 'package/dist/esm'), { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.js'))
        .map((f) => readFileSync(join(extracted, 'package/dist/esm', f), 'utf8'))
        .join('\n');
    };
    expect(packedText(first.tarball!)).toContain('"friends.list"');

    // The maintainer deletes friends.list (the only friends operation) and regenerates in place.
    const doc = parse(readFileSync(join(repoRoot, 'test/fixtures/mini-openapi.yaml'), 'utf8'));
    delete doc.paths['/{org_name}/{app_name}/users/{username}/friends'];
    const { files } = await generate({ ...readGeneratorInput(repoRoot), openapiText: stringify(doc), openapiSource: 'test/fixtures/mini-openapi.yaml' });
    writeGeneratedFiles(dir, files);
    const second = await pack(dir);
    expect(second.status, second.out).toBe(0);
    expect(second.files.filter((f) => f.includes('friends'))).toEqual([]);
    // The fake service's hand-written handlers (templates/runtime/testing/ops/) name the seed's
    // operations; such a handler stays, never routed to: the fake's routes and response catalog come
    // from the spec. Every other mention of the deleted operation must be gone.
    expect(packedText(second.tarball!).replace(/"friends\.list": \(c\) =>/g, '')).not.toContain('friends.list');
  }, 300_000);

  it('refuses to pack, naming the fix, where the build tools are not installed', async () => {
    const { dir } = await generateToTempDir(repoRoot, 'test/fixtures/mini-openapi.yaml');
    temps.push(dir);
    unlinkSync(join(dir, 'node_modules'));
    const r = await pack(dir);
    expect(r.status).not.toBe(0);
    expect(r.out).toMatch(/prepack refused: the build \(scripts\/build.mjs\) failed:\s+build failed: esbuild is not installed\. Run `npm install` in .* first/);
  }, 120_000);
});

describe('the version is the maintainer\'s', () => {
  it('a version bumped with npm version in generated/ survives npm run generate and --check', () => {
    const copy = mkdtempSync(join(tmpdir(), 'im-repo-'));
    temps.push(copy);
    for (const part of ['generator', 'scripts', 'spec', 'templates', 'package.json', 'package-lock.json', 'tsconfig.json']) cpSync(join(repoRoot, part), join(copy, part), { recursive: true });
    cpSync(join(repoRoot, 'generated'), join(copy, 'generated'), { recursive: true, filter: (src) => !/[/\\](dist|node_modules)$/.test(src) });
    symlinkSync(join(repoRoot, 'node_modules'), join(copy, 'node_modules'), 'dir');
    const bumped = spawnSync('npm', ['version', 'patch', '--no-git-tag-version'], { cwd: join(copy, 'generated'), encoding: 'utf8' });
    expect(bumped.status, bumped.stderr).toBe(0);
    const version = JSON.parse(readFileSync(join(copy, 'generated/package.json'), 'utf8')).version;
    expect(version).not.toBe(JSON.parse(readFileSync(join(repoRoot, 'generated/package.json'), 'utf8')).version);
    const tsx = join(repoRoot, 'node_modules/tsx/dist/cli.mjs');
    const gen = spawnSync(process.execPath, [tsx, 'scripts/generate.ts', '--no-cache'], { cwd: copy, encoding: 'utf8', timeout: 120_000 });
    expect(gen.status, gen.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(copy, 'generated/package.json'), 'utf8')).version).toBe(version);
    const check = spawnSync(process.execPath, [tsx, 'scripts/generate.ts', '--check', '--no-cache'], { cwd: copy, encoding: 'utf8', timeout: 120_000 });
    expect(check.status, `${check.stdout}${check.stderr}`).toBe(0);
  }, 180_000);
});

describe('release pieces', () => {
  it.each([
    ['0.1.0', 'major', '1.0.0'],
    ['0.1.0', 'minor', '0.2.0'],
    ['1.4.9', 'patch', '1.4.10'],
  ] as const)('nextVersion(%s, %s) = %s', (from, bump, want) => expect(nextVersion(from, bump)).toBe(want));

  it('a release section goes on top of the changelog, under its version', () => {
    const report = { base: 'HEAD:spec/openapi.yaml', bump: 'major' as const, counts: { breaking: 1, addition: 0, 'non-breaking': 0 }, changes: [{ class: 'breaking' as const, kind: 'operation-removed', operation: 'users.disable', message: 'users.disable (POST /users/{username}/disable) was removed' }] };
    const first = withSection('# Changelog\n\nWritten by `npm run release`. No release yet.\n', changelogSection('1.0.0', report));
    expect(first).toBe('# Changelog\n\nWritten by `npm run release`.\n\n## 1.0.0\n\nCompared with `HEAD:spec/openapi.yaml`. Version bump: **major**.\n\n### Breaking changes (1)\n\n- `operation-removed` users.disable (POST /users/{username}/disable) was removed\n');
    const second = withSection(first, changelogSection('1.1.0', { ...report, bump: 'minor', counts: { breaking: 0, addition: 1, 'non-breaking': 0 }, changes: [{ class: 'addition', kind: 'operation-added', operation: 'users.archive', message: 'users.archive was added' }] }));
    expect(second.indexOf('## 1.1.0')).toBeLessThan(second.indexOf('## 1.0.0'));
  });
});
