/**
 * A fixture spec turned into a real package in a temp dir, as a maintainer would get it from
 * `npm run generate`: generated, written, built by the package's own build script
 * (scripts/build.mjs: ESM bundles with code splitting, tsc's .d.ts), as its prepack and the bench build it. Tests then import the built package, type-check consumers against it and call it
 * against servers on 127.0.0.1.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GeneratorOutput } from '../../generator/generate.js';
import { generateToTempDir } from '../../scripts/lib/generate-to-dir.js';
import { repoRoot } from './seed.js';

export interface FixturePackage {
  dir: string;
  output: GeneratorOutput;
}

/** Generates `specPath` (relative to the repo) into a fresh temp dir; `build` also runs the package's build. */
export async function fixturePackage(specPath: string, options: { build?: boolean } = {}): Promise<FixturePackage> {
  const { dir, output } = await generateToTempDir(repoRoot, specPath);
  if (options.build) {
    const env = { ...process.env, PATH: `${join(repoRoot, 'node_modules/.bin')}:${process.env.PATH}` };
    const built = spawnSync('npm', ['run', '-s', 'build'], { cwd: dir, encoding: 'utf8', env, timeout: 180_000 });
    if (built.status !== 0) throw new Error(`the fixture package does not build:\n${built.stdout}\n${built.stderr}`);
  }
  return { dir, output };
}

/** Type-checks `files` (name → text) as a strict consumer project that imports the package as `pkgName`. */
export function typeCheckConsumer(
  pkgDir: string,
  files: Record<string, string>,
  compilerOptions: Record<string, unknown> = {},
): { ok: boolean; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'im-fixture-consumer-'));
  mkdirSync(join(dir, 'node_modules/@types'), { recursive: true });
  symlinkSync(pkgDir, join(dir, 'node_modules/fixture-sdk'), 'dir');
  symlinkSync(join(repoRoot, 'node_modules/@types/node'), join(dir, 'node_modules/@types/node'), 'dir');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        noImplicitReturns: true,
        lib: ['ES2023', 'DOM', 'DOM.Iterable'],
        types: ['node'],
        skipLibCheck: false,
        ...compilerOptions,
      },
      include: Object.keys(files),
    }),
  );
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const r = spawnSync(process.execPath, [join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', dir], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { ok: r.status === 0, output: `${r.stdout}${r.stderr}` };
}
