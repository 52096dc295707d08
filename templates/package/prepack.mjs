// Runs before `npm pack` and `npm publish` (the package's prepack script): refuses a package whose
// src/sdk-version.ts disagrees with package.json and, inside the repository, a stale generate; builds
// dist/ from clean (scripts/build.mjs), so a fresh clone never ships an empty package and a deleted
// operation never ships from a stale build, then checks the result with publint and attw and refuses
// the pack on any problem. Kept out of the published files.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requireTool } from './build.mjs';

const pkgDir = join(dirname(fileURLToPath(import.meta.url)), '..');
// publint and attw pack the package themselves: their pack must not run this script again.
if (process.env.IM_PREPACK_RUNNING) process.exit(0);
const env = { ...process.env, IM_PREPACK_RUNNING: '1' };

function refuse(message) {
  console.error(`prepack refused: ${message}`);
  process.exit(1);
}

function run(label, file, args) {
  try {
    execFileSync(process.execPath, [file, ...args], {
      cwd: pkgDir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
    });
  } catch (error) {
    refuse(`${label} failed:\n${error.stdout ?? ''}${error.stderr ?? error.message}`);
  }
}

const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));

// The User-Agent names src/sdk-version.ts's version: `npm version` changes package.json alone.
// (No src/sdk-version.ts: not a generated package; the build names what is missing.)
const versionFile = join(pkgDir, 'src/sdk-version.ts');
const sdkVersion = existsSync(versionFile)
  ? /SDK_VERSION = (["'])([^"']*)\1/.exec(readFileSync(versionFile, 'utf8'))?.[2]
  : pkg.version;
if (sdkVersion !== pkg.version) {
  refuse(
    `src/sdk-version.ts says ${sdkVersion ?? 'nothing'} but package.json says ${pkg.version}: the package would call itself ${sdkVersion} in its User-Agent. Run \`npm run generate\` at the repository root (it writes package.json's version into sdk-version.ts), then pack again.`,
  );
}

// Inside the im-openapi repository (generated/ beside spec/), a stale generate is refused: an
// edited spec, runtime or template not regenerated would ship the old package under a new version.
const repo = join(pkgDir, '..');
if (existsSync(join(repo, 'scripts/generate.mjs')) && existsSync(join(repo, 'spec/openapi.yaml'))) {
  try {
    execFileSync(process.execPath, [join(repo, 'scripts/generate.mjs'), '--check'], {
      cwd: repo,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
    });
  } catch (error) {
    refuse(
      `generated/ is stale (the spec, runtime or templates changed since the last \`npm run generate\`):\n${error.stderr ?? ''}${error.stdout ?? error.message}Run \`npm run generate\` at ${repo}, commit, then pack again.`,
    );
  }
}

// the build names its own tools before it removes anything (a fresh clone without `npm install`)
run('the build (scripts/build.mjs)', join(pkgDir, 'scripts/build.mjs'), ['--quiet']);

const targets = new Set([pkg.main, pkg.module, pkg.types, ...Object.values(pkg.bin ?? {})]);
const collect = (node) =>
  typeof node === 'string'
    ? targets.add(node)
    : node && typeof node === 'object'
      ? Object.values(node).forEach(collect)
      : undefined;
collect(pkg.exports);
const missing = [...targets].filter((t) => t?.replace(/^\.\//, '').startsWith('dist/') && !existsSync(join(pkgDir, t)));
if (missing.length) refuse(`these entry points are missing after the build: ${missing.join(', ')}`);

run('publint --strict', requireTool('publint', 'src/cli.js', refuse), [pkgDir, '--strict']);
const work = mkdtempSync(join(tmpdir(), 'im-prepack-'));
try {
  // under `npm pack --dry-run` npm passes dry_run on to child npm commands: this pack must be real
  execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', work, '--loglevel=error'], {
    cwd: pkgDir,
    env: { ...env, npm_config_dry_run: 'false' },
    stdio: 'pipe',
  });
  const tarball = join(
    work,
    readdirSync(work).find((f) => f.endsWith('.tgz')),
  );
  // ESM only (see scripts/build.mjs): attw's esm-only profile leaves out the CommonJS resolutions
  // that cannot see ES modules' types (node10, node16 from CommonJS); require() still loads it.
  run('attw (are the types wrong)', requireTool('@arethetypeswrong/cli', 'dist/index.js', refuse), [
    tarball,
    '--profile',
    'esm-only',
    '--format',
    'table-flipped',
  ]);
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.error('prepack: built dist/ from clean; publint and attw found no problem');
