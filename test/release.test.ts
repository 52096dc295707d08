/**
 * From a spec edit to a safe release (issue 15): the package's prepack builds from clean and
 * checks before anything is packed, a deleted operation never ships from a stale build, the
 * version is the maintainer's and survives generate, and the release script's pieces.
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { generate } from '../generator/generate.js';
import { readGeneratorInput } from '../generator/read-inputs.js';
import { generateToTempDir, writeGeneratedFiles } from '../scripts/lib/generate-to-dir.js';
import { reportOf } from '../generator/diff/report.js';
import { changelogSection, parseChangelog, withSection } from '../scripts/lib/changelog.js';
import { distTag, nextVersion, type NextOptions } from '../scripts/lib/versions.js';
import { repoCopy, runScript } from '../scripts/lib/repo-copy.js';
import { repoRoot } from './helpers/seed.js';

const temps: string[] = [];
afterAll(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** npm pack, awaited without blocking the worker (a long spawnSync starves vitest's worker RPC). */
async function pack(dir: string): Promise<{ status: number | null; files: string[]; out: string; tarball?: string }> {
  const dest = mkdtempSync(join(tmpdir(), 'im-packed-'));
  temps.push(dest);
  const r = await new Promise<{ status: number | null; stdout: string; stderr: string }>((done) => {
    execFile(
      'npm',
      ['pack', '--json', '--pack-destination', dest, '--loglevel=error'],
      {
        cwd: dir,
        encoding: 'utf8',
        timeout: 240_000,
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, npm_config_update_notifier: 'false' },
      },
      (error, stdout, stderr) =>
        done({ status: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
  if (r.status !== 0) return { status: r.status, files: [], out: `${r.stdout}${r.stderr}` };
  const [info] = JSON.parse(r.stdout);
  return {
    status: 0,
    files: info.files.map((f: { path: string }) => f.path),
    out: r.stderr,
    tarball: join(dest, info.filename),
  };
}

describe('npm pack of a freshly generated package', () => {
  it('builds dist/ first (fresh clone: no dist), then leaves a deleted operation out of the next pack', async () => {
    const { dir } = await generateToTempDir(repoRoot, 'test/fixtures/mini-openapi.yaml');
    temps.push(dir);
    const first = await pack(dir);
    expect(first.status, first.out).toBe(0);
    expect(first.files).toEqual(
      expect.arrayContaining([
        'dist/esm/index.js',
        'dist/esm/index.d.ts',
        'dist/esm/funcs/index.js',
        'dist/esm/funcs/friends.d.ts',
        'package.json',
        'README.md',
        'CHANGELOG.md',
      ]),
    );
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
    const { files } = await generate({
      ...readGeneratorInput(repoRoot),
      openapiText: stringify(doc),
      openapiSource: 'test/fixtures/mini-openapi.yaml',
    });
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
    expect(r.out).toMatch(
      /prepack refused: the build \(scripts\/build.mjs\) failed:\s+build failed: esbuild is not installed\. Run `npm install` in .* first/,
    );
  }, 120_000);
});

describe("the version is the maintainer's", () => {
  it('a version bumped with npm version in generated/ survives npm run generate and --check', async () => {
    const copy = repoCopy({ git: false });
    temps.push(copy);
    const bumped = spawnSync('npm', ['version', 'patch', '--no-git-tag-version'], {
      cwd: join(copy, 'generated'),
      encoding: 'utf8',
    });
    expect(bumped.status, bumped.stderr).toBe(0);
    const version = JSON.parse(readFileSync(join(copy, 'generated/package.json'), 'utf8')).version;
    expect(version).not.toBe(JSON.parse(readFileSync(join(repoRoot, 'generated/package.json'), 'utf8')).version);
    // as `npm run generate` runs it (scripts/generate.mjs, the shared generator cache): awaited, so the
    // worker is not blocked, and no cold generation twice (issue 33)
    const gen = await runScript(copy, 'generate.ts', []);
    expect(gen.status, gen.out).toBe(0);
    expect(JSON.parse(readFileSync(join(copy, 'generated/package.json'), 'utf8')).version).toBe(version);
    expect(readFileSync(join(copy, 'generated/src/sdk-version.ts'), 'utf8')).toContain(`'${version}'`);
    const check = await runScript(copy, 'generate.ts', ['--check']);
    expect(check.status, check.out).toBe(0);
  }, 180_000);
});

describe('versions people can rely on (issue 27)', () => {
  it.each([
    // before 1.0, as release-please: a breaking change bumps the minor, an addition the patch
    ['0.1.0', 'major', {}, '0.2.0'],
    ['0.1.0', 'minor', {}, '0.1.1'],
    ['0.1.0', 'patch', {}, '0.1.1'],
    ['0.1.0', 'major', { rules: { preMajorBreaking: 'major', preMajorAddition: 'minor' } }, '1.0.0'],
    ['0.1.0', 'minor', { rules: { preMajorBreaking: 'minor', preMajorAddition: 'minor' } }, '0.2.0'],
    // 1.0 only when asked
    ['0.4.2', 'patch', { graduate: true }, '1.0.0'],
    ['0.4.2', 'patch', { graduate: true, preid: 'rc' }, '1.0.0-rc.0'],
    ['1.4.9', 'patch', {}, '1.4.10'],
    ['1.2.3', 'minor', {}, '1.3.0'],
    ['1.2.3', 'major', {}, '2.0.0'],
    // prerelease channels
    ['1.2.3', 'minor', { preid: 'rc' }, '1.3.0-rc.0'],
    ['1.3.0-rc.0', 'patch', { preid: 'rc' }, '1.3.0-rc.1'],
    ['1.3.0-rc.1', 'minor', {}, '1.3.0'],
    ['1.3.0-rc.1', 'major', { preid: 'rc' }, '2.0.0-rc.0'],
    ['1.3.0-rc.2', 'patch', { preid: 'beta' }, '1.3.0-beta.0'],
    ['2.0.0-rc.1', 'major', {}, '2.0.0'],
    ['2.0.0-rc.1', 'major', { preid: 'rc' }, '2.0.0-rc.2'],
    ['0.3.0-rc.0', 'major', {}, '0.3.0'],
  ] as const)('nextVersion(%s, %s, %j) = %s', (from, bump, options, want) =>
    expect(nextVersion(from, bump, options as NextOptions)).toBe(want),
  );

  it('refuses what it cannot do, naming why', () => {
    expect(() => nextVersion('1.2.0', 'patch', { graduate: true })).toThrow(
      '--graduate: 1.2.0 is already 1.0.0 or later',
    );
    expect(() => nextVersion('1.2.0', 'patch', { preid: '1x' })).toThrow('--preid "1x"');
    expect(() => nextVersion('v1', 'patch')).toThrow('is not semver');
    expect([distTag('1.3.0-rc.1'), distTag('1.3.0')]).toEqual(['rc', 'latest']);
  });
});

describe('a CHANGELOG people read', () => {
  const report = reportOf(
    'im-server-sdk@0.1.0:spec/openapi.yaml',
    [
      {
        class: 'breaking',
        kind: 'param-enum-value-removed',
        operation: 'calls.stats',
        call: 'im.calls.stats()',
        field: 'granularity',
        typeName: 'CallsStatsParams.granularity',
        message: 'im.calls.stats(): CallsStatsParams.granularity no longer accepts "hour" ("day" | "hour" → "day")',
        migration: 'stop passing "hour" as CallsStatsParams.granularity',
      },
      {
        class: 'addition',
        kind: 'operation-added',
        operation: 'users.archive',
        call: 'im.users.archive()',
        message: 'im.users.archive() (POST /users/{username}/archive) was added',
      },
    ],
    'done',
    ['templates/runtime/internal/limits.ts'],
  );
  const marker = { version: '0.2.0', from: '0.1.0', base: 'im-server-sdk@0.1.0', fingerprint: 'abc' };

  it('a dated section with SDK names, a migration line per breaking entry, runtime files and the notes', () => {
    const section = changelogSection({
      version: '0.2.0',
      date: '2025-03-04',
      report,
      marker,
      why: 'minor (breaking before 1.0; --graduate for 1.0.0)',
      notes: 'granularity=hour was never served; ask for day.',
    });
    expect(section).toBe(
      [
        '## 0.2.0 — 2025-03-04',
        '',
        '<!-- im-release {"version":"0.2.0","from":"0.1.0","base":"im-server-sdk@0.1.0","fingerprint":"abc"} -->',
        '',
        'Compared with `im-server-sdk@0.1.0:spec/openapi.yaml` (spec rules and the TypeScript check of both packages). Version: 0.1.0 → 0.2.0 (minor (breaking before 1.0; --graduate for 1.0.0)).',
        '',
        '### Breaking changes',
        '',
        '- `im.calls.stats()`: CallsStatsParams.granularity no longer accepts "hour" ("day" | "hour" → "day")',
        '  - Migration: stop passing "hour" as CallsStatsParams.granularity.',
        '',
        '### Additions',
        '',
        '- `im.users.archive()` (POST /users/{username}/archive) was added',
        '',
        '### Runtime and templates',
        '',
        'Shipped code changed without an API change:',
        '',
        '- `templates/runtime/internal/limits.ts`',
        '',
        '### Notes',
        '',
        'granularity=hour was never served; ask for day.',
        '',
      ].join('\n'),
    );
  });

  it('sections go on top; a section written again replaces the top one, and its notes are read back', () => {
    const first = withSection(
      '# Changelog\n\nWritten by `npm run release`. No release yet.\n',
      changelogSection({
        version: '0.1.1',
        date: '2025-01-01',
        report: reportOf('b', [], 'done'),
        marker: { ...marker, version: '0.1.1' },
        why: 'patch',
        notes: '',
      }),
    );
    expect(first.startsWith('# Changelog\n\nWritten by `npm run release`.\n\n## 0.1.1 — 2025-01-01\n')).toBe(true);
    const second = withSection(
      first,
      changelogSection({ version: '0.2.0', date: '2025-02-01', report, marker, why: 'minor', notes: 'Read me.' }),
    );
    expect(second.indexOf('## 0.2.0')).toBeLessThan(second.indexOf('## 0.1.1'));
    const again = withSection(
      second,
      changelogSection({ version: '0.2.0', date: '2025-02-02', report, marker, why: 'minor', notes: 'Read me.' }),
      true,
    );
    expect(again.match(/^## 0\.2\.0/gm)).toHaveLength(1);
    expect(parseChangelog(again).sections.map((s) => [s.version, s.marker?.from, s.notes])).toEqual([
      ['0.2.0', '0.1.0', 'Read me.'],
      ['0.1.1', '0.1.0', ''],
    ]);
  });
});

describe('prepack refuses what would ship wrong, and npm has nothing to warn about (issue 27)', () => {
  const npm = (cwd: string, args: string[]) =>
    spawnSync('npm', [...args, '--loglevel=warn'], {
      cwd,
      encoding: 'utf8',
      timeout: 240_000,
      env: { ...process.env, npm_config_update_notifier: 'false' },
    });

  it('npm version without generate: the SDK_VERSION of the User-Agent would disagree with package.json', () => {
    const dir = repoCopy({ git: false });
    temps.push(dir);
    expect(npm(join(dir, 'generated'), ['version', 'patch', '--no-git-tag-version']).status).toBe(0);
    const r = npm(join(dir, 'generated'), ['pack', '--dry-run']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(
      'prepack refused: src/sdk-version.ts says 0.1.0 but package.json says 0.1.1: the package would call itself 0.1.0 in its User-Agent. Run `npm run generate` at the repository root',
    );
  }, 120_000);

  it('a spec edited and not regenerated: refused as stale, naming the file', () => {
    const dir = repoCopy({ git: false });
    temps.push(dir);
    const doc = parse(readFileSync(join(dir, 'spec/openapi.yaml'), 'utf8'));
    delete doc.paths['/{org_name}/{app_name}/users/{username}/disable'].post;
    writeFileSync(join(dir, 'spec/openapi.yaml'), stringify(doc));
    const r = npm(join(dir, 'generated'), ['pack', '--dry-run']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(
      'prepack refused: generated/ is stale (the spec, runtime or templates changed since the last `npm run generate`)',
    );
    expect(r.stderr).toContain('differs: generated/src/types/users.ts');
  }, 240_000);

  it('npm publish finds nothing to correct in bin; npm writes no lockfile in generated/; a stray one does not make --check fail', async () => {
    const published = npm(join(repoRoot, 'generated'), ['publish', '--dry-run', '--ignore-scripts', '--offline']);
    expect(`${published.stdout}${published.stderr}`).toContain('im-server-sdk@');
    expect(published.stderr).not.toMatch(/auto-corrected|was invalid and removed/);
    expect(JSON.parse(readFileSync(join(repoRoot, 'generated/package.json'), 'utf8')).bin).toEqual({
      'im-callbacks': 'dist/esm/bin/im-callbacks.js',
      'im-fake': 'dist/esm/bin/im-fake.js',
    });
    expect(npm(join(repoRoot, 'generated'), ['config', 'get', 'package-lock']).stdout.trim()).toBe('false');
    const dir = repoCopy({ git: false });
    temps.push(dir);
    writeFileSync(join(dir, 'generated/package-lock.json'), '{"lockfileVersion":3}\n');
    const check = await runScript(dir, 'generate.ts', ['--check']);
    expect(check.status, check.out).toBe(0);
    expect(existsSync(join(dir, 'generated/package-lock.json'))).toBe(true);
  }, 240_000);
});
