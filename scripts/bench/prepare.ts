/**
 * A private build of the generated package for the benchmarks: generated/ (sources, package.json,
 * scripts; not dist/) is copied into a temp folder and built there with the package's own build
 * script (the one its prepack runs), so that the bench never races `npm test` (test/package.test.ts rebuilds
 * generated/dist) and never writes into generated/.
 *
 * Also a consumer folder whose node_modules links `im-server-sdk` (the private build),
 * `openapi-fetch` and its helper package, like an app that installed them.
 */
import { cpSync, existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, tempDir, timedRun } from './lib.js';

export interface Prepared {
  pkgDir: string;
  appsDir: string;
  esmEntry: string;
  /** Build time of the private copy (its scripts/build.mjs: esbuild bundles + tsc declarations). */
  buildMs: number;
}

/**
 * IM_BENCH_PREBUILT_PACKAGE: a folder holding a build of generated/ made by the same build script
 * (the smoke test passes the build the test run shares, test-support/built-package.ts), used as it
 * is and never written; the build time is then 0. The full bench always builds its own.
 */
export async function preparePackage(options: { smoke: boolean }): Promise<Prepared> {
  const prebuilt = options.smoke ? process.env.IM_BENCH_PREBUILT_PACKAGE : undefined;
  if (prebuilt) {
    if (!existsSync(join(prebuilt, 'dist/esm/index.js')))
      throw new Error(`IM_BENCH_PREBUILT_PACKAGE=${prebuilt} holds no build (no dist/esm/index.js)`);
    return { ...consumerApps(prebuilt), buildMs: 0 };
  }
  const base = tempDir('pkg');
  const pkgDir = join(base, 'im-server-sdk');
  const src = join(ROOT, 'generated');
  cpSync(src, pkgDir, {
    recursive: true,
    filter: (from) => {
      const rel = from.slice(src.length);
      return !rel.startsWith('/dist') && !rel.startsWith('/node_modules');
    },
  });
  // typescript and @types/node for the build, found through this link as in the repository.
  symlinkSync(join(ROOT, 'node_modules'), join(pkgDir, 'node_modules'), 'dir');
  const started = performance.now();
  // the package's own build script (esbuild + tsc declarations), as npm pack runs it
  const built = await timedRun(process.execPath, [join(pkgDir, 'scripts/build.mjs'), '--quiet'], { cwd: pkgDir });
  if (built.code !== 0)
    throw new Error(`building the private copy failed: ${(built.stdout + built.stderr).slice(-2000)}`);
  const buildMs = performance.now() - started;
  return { ...consumerApps(pkgDir), buildMs };
}

/** The apps folder: node_modules links im-server-sdk (the build at pkgDir), openapi-fetch and @types/node. */
function consumerApps(pkgDir: string): Omit<Prepared, 'buildMs'> {
  const appsDir = tempDir('apps');
  const nm = join(appsDir, 'node_modules');
  mkdirSync(nm);
  symlinkSync(pkgDir, join(nm, 'im-server-sdk'), 'dir');
  symlinkSync(join(ROOT, 'node_modules/openapi-fetch'), join(nm, 'openapi-fetch'), 'dir');
  symlinkSync(join(ROOT, 'node_modules/openapi-typescript-helpers'), join(nm, 'openapi-typescript-helpers'), 'dir');
  mkdirSync(join(nm, '@types'));
  symlinkSync(join(ROOT, 'node_modules/@types/node'), join(nm, '@types/node'), 'dir');
  return { pkgDir, appsDir, esmEntry: join(pkgDir, 'dist/esm/index.js') };
}
