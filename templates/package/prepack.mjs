// Runs before `npm pack` and `npm publish` (the package's prepack script): builds dist/ from clean
// (scripts/build.mjs), so a fresh clone never ships an empty package and a deleted operation never
// ships from a stale build, then checks the result with publint and attw and refuses the pack on any problem.
// Kept out of the published files.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkgDir = join(dirname(fileURLToPath(import.meta.url)), '..');
// publint and attw pack the package themselves: their pack must not run this script again.
if (process.env.IM_PREPACK_RUNNING) process.exit(0);
const env = { ...process.env, IM_PREPACK_RUNNING: '1' };

function refuse(message) {
  console.error(`prepack refused: ${message}`);
  process.exit(1);
}

/** The entry file of a tool's bin, from this folder's node_modules or any folder above it. */
function toolBin(name, bin) {
  for (let dir = pkgDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name, bin);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) break;
  }
  return refuse(`${name} is not installed. Run \`npm install\` in ${pkgDir} first: it installs the devDependencies that build and check this package.`);
}

function run(label, file, args) {
  try {
    execFileSync(process.execPath, [file, ...args], { cwd: pkgDir, env, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  } catch (error) {
    refuse(`${label} failed:\n${error.stdout ?? ''}${error.stderr ?? error.message}`);
  }
}

// the build's tools, named before anything runs (a fresh clone without `npm install`)
toolBin('typescript', 'bin/tsc');
toolBin('esbuild', 'lib/main.js');
run('the build (scripts/build.mjs)', join(pkgDir, 'scripts/build.mjs'), ['--quiet']);

const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
const targets = new Set([pkg.main, pkg.module, pkg.types, ...Object.values(pkg.bin ?? {})]);
const collect = (node) => (typeof node === 'string' ? targets.add(node) : node && typeof node === 'object' ? Object.values(node).forEach(collect) : undefined);
collect(pkg.exports);
const missing = [...targets].filter((t) => t && t.startsWith('./dist/') && !existsSync(join(pkgDir, t)));
if (missing.length) refuse(`these entry points are missing after the build: ${missing.join(', ')}`);

run('publint --strict', toolBin('publint', 'src/cli.js'), [pkgDir, '--strict']);
const work = mkdtempSync(join(tmpdir(), 'im-prepack-'));
try {
  // under `npm pack --dry-run` npm passes dry_run on to child npm commands: this pack must be real
  execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', work, '--loglevel=error'], { cwd: pkgDir, env: { ...env, npm_config_dry_run: 'false' }, stdio: 'pipe' });
  const tarball = join(work, readdirSync(work).find((f) => f.endsWith('.tgz')));
  // ESM only (see scripts/build.mjs): attw's esm-only profile leaves out the CommonJS resolutions
  // that cannot see ES modules' types (node10, node16 from CommonJS); require() still loads it.
  run('attw (are the types wrong)', toolBin('@arethetypeswrong/cli', 'dist/index.js'), [tarball, '--profile', 'esm-only', '--format', 'table-flipped']);
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.error('prepack: built dist/ from clean; publint and attw found no problem');
