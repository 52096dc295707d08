/**
 * One build of generated/ shared by the tests that need the built package (the consumers of the
 * packed tarball, the bench smoke run): a copy of generated/ (not dist/ or node_modules/) built by
 * its own build script (scripts/build.mjs, as its prepack runs it), kept in the temp folder under
 * the content hash of its inputs (every file of generated/, package-lock.json for the tool
 * versions, the Node version). Each test file built its own copy before (issue 33: two builds of
 * ~8 s CPU each per run, one more in the consumers' prepack). Safe for parallel workers: a build is
 * made by one worker at a time (a lock folder; the other waits for it) in a staging folder renamed into place.
 * Callers only read the folder (pack it with --ignore-scripts, import its dist/).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const SOURCE = join(repoRoot, 'generated');
const SKIPPED = /^(dist|node_modules)$/;

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (dir === SOURCE && SKIPPED.test(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (entry.isFile()) yield path;
  }
}

/** The content hash of what the build reads: generated/'s files, the lockfile (tool versions), Node's version. */
export function builtPackageKey(): string {
  const hash = createHash('sha256').update(`${process.version}\0`);
  for (const file of sourceFiles(SOURCE)) hash.update(`${relative(SOURCE, file)}\0`).update(readFileSync(file));
  hash.update(readFileSync(join(repoRoot, 'package-lock.json')));
  return hash.digest('hex').slice(0, 24);
}

const STALE_LOCK_MS = 10 * 60_000;
const OLD_BUILD_MS = 24 * 60 * 60_000;

/** Builds of earlier inputs untouched for a day go (each is a few MB; a run in progress uses its own within minutes). */
function pruneOldBuilds(cache: string): void {
  for (const name of readdirSync(cache)) {
    const path = join(cache, name);
    const age = Date.now() - (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (age > OLD_BUILD_MS) rmSync(path, { recursive: true, force: true });
  }
}

/** The folder of the built package (dist/esm/… present), building it on first use. Read only. */
export async function builtPackage(): Promise<string> {
  const cache = join(tmpdir(), 'im-openapi-test-cache');
  const dir = join(cache, `im-server-sdk-${builtPackageKey()}`);
  const built = () => existsSync(join(dir, 'dist/esm/index.js'));
  mkdirSync(cache, { recursive: true });
  // one builder at a time (mkdir is atomic): the other worker waits for its build, not a second one
  const lock = `${dir}.lock`;
  for (;;) {
    if (built()) return dir;
    try {
      mkdirSync(lock);
      break;
    } catch {
      const since = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (since > STALE_LOCK_MS)
        rmSync(lock, { recursive: true, force: true }); // its builder died
      else await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  pruneOldBuilds(cache);
  const staging = mkdtempSync(join(cache, 'staging-'));
  try {
    if (built()) return dir;
    cpSync(SOURCE, staging, { recursive: true, filter: (src) => !SKIPPED.test(relative(SOURCE, src)) });
    // typescript and @types/node for the build, found through this link as in the repository
    symlinkSync(join(repoRoot, 'node_modules'), join(staging, 'node_modules'), 'dir');
    // asynchronous: a build of a minute on a loaded machine would starve vitest's worker RPC
    await new Promise<void>((resolve, reject) =>
      execFile(
        process.execPath,
        [join(staging, 'scripts/build.mjs'), '--quiet'],
        { cwd: staging, encoding: 'utf8', timeout: 300_000, maxBuffer: 64 * 2 ** 20 },
        (error, stdout, stderr) =>
          error ? reject(new Error(`building generated/ failed:\n${stdout}\n${stderr}`)) : resolve(),
      ),
    );
    try {
      renameSync(staging, dir);
    } catch (error) {
      // another worker put its build there first: the same inputs, so the same package
      if (!existsSync(join(dir, 'dist/esm/index.js'))) throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
    rmSync(lock, { recursive: true, force: true });
  }
  return dir;
}
