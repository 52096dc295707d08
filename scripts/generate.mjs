/**
 * `npm run generate` (arguments as for scripts/generate.ts): runs scripts/generate.ts on plain
 * node from one ES module bundle, instead of through tsx, which resolves and transpiles each of
 * the generator's ~50 TypeScript files behind a loader hook on every run (~0.4 s of CPU).
 *
 * The bundle (esbuild, CommonJS, npm packages left as require calls) lives in node_modules/.cache/im-openapi/
 * with the list of its source files and their hashes, and is rebuilt when any of them or the
 * lockfile changes. `--no-cache` rebuilds it too: a first run of a fresh clone pays the build.
 * scripts/generate.ts stays runnable with tsx as before (tests and release do).
 *
 * Without --no-cache, v8-compile-cache keeps V8's compiled code of the CommonJS packages the
 * generator loads (TypeScript under ts-morph is ~9 MB of JavaScript) in the same cache folder.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = join(root, 'node_modules/.cache/im-openapi');
const bundle = join(dir, 'generate-cli.cjs');
const manifest = join(dir, 'generate-cli.json');

const hashOf = (path) =>
  createHash('sha256')
    .update(readFileSync(join(root, path)))
    .digest('hex');

/** The bundle's sources (repository-relative) → hash, from the last build; undefined if stale or absent. */
function upToDate() {
  try {
    const { inputs } = JSON.parse(readFileSync(manifest, 'utf8'));
    if (!existsSync(bundle)) return false;
    return Object.entries(inputs).every(([path, hash]) => existsSync(join(root, path)) && hashOf(path) === hash);
  } catch {
    return false;
  }
}

async function build() {
  const esbuild = await import('esbuild');
  mkdirSync(dir, { recursive: true });
  const tmp = `${bundle}.${process.pid}.tmp.cjs`;
  const result = await esbuild.build({
    entryPoints: [join(root, 'scripts/generate.ts')],
    outfile: tmp,
    bundle: true,
    packages: 'external',
    // CommonJS, so that the packages are require()d: an ES module importing a CommonJS package
    // makes Node lex its source for export names first (TypeScript's 9 MB: ~40 ms a run)
    format: 'cjs',
    define: { 'import.meta.url': 'importMetaUrl' },
    banner: { js: "const importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
    platform: 'node',
    target: 'node20',
    metafile: true,
    logLevel: 'error',
    absWorkingDir: root,
  });
  const inputs = Object.fromEntries(
    [...Object.keys(result.metafile.inputs), 'package-lock.json'].sort().map((path) => [path, hashOf(path)]),
  );
  renameSync(tmp, bundle);
  writeFileSync(manifest, JSON.stringify({ inputs }));
}

const noCache = process.argv.includes('--no-cache');
if (!noCache) {
  process.env.V8_COMPILE_CACHE_CACHE_DIR ??= join(dir, 'v8');
  createRequire(import.meta.url)('v8-compile-cache');
}
if (noCache || !upToDate()) await build();
// scripts/generate.ts finds the repository from its own location; in the bundle it is told
globalThis.imOpenapiRoot = root;
createRequire(import.meta.url)(bundle);
