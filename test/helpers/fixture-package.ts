/**
 * A fixture spec turned into a real package in a temp dir, as a maintainer would get it from
 * `npm run generate`: generated, written, built by the package's own build script
 * (scripts/build.mjs: ESM bundles with code splitting, tsc's .d.ts), as its prepack and the bench build it. Tests then import the built package, type-check consumers against it and call it
 * against servers on 127.0.0.1.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GeneratorOutput } from '../../generator/generate.js';
import { generateToTempDir } from '../../scripts/lib/generate-to-dir.js';
import { typecheckProjects } from '../../test-support/typecheck.js';
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
    // asynchronous: a build of a minute on a loaded machine would starve vitest's worker RPC
    await new Promise<void>((resolve, reject) =>
      execFile(
        'npm',
        ['run', '-s', 'build'],
        { cwd: dir, encoding: 'utf8', env, timeout: 180_000 },
        (error, stdout, stderr) =>
          error ? reject(new Error(`the fixture package does not build:\n${stdout}\n${stderr}`)) : resolve(),
      ),
    );
  }
  return { dir, output };
}

/** A strict consumer project (its tsconfig.json path) of `files` (name → text) that imports the package as `fixture-sdk`. */
function consumerProject(
  pkgDir: string,
  files: Record<string, string>,
  compilerOptions: Record<string, unknown>,
): string {
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
  return join(dir, 'tsconfig.json');
}

/**
 * Type-checks strict consumer projects (each: name → its files) against the package at `pkgDir`,
 * all in one child (test-support/typecheck.ts: `tsc -p` each, the package's own declarations
 * checked, @types/node used but not re-checked). Before (issue 33) each was a `tsc -p` child of
 * its own that re-checked @types/node, and blocked the worker while it ran.
 */
export async function typeCheckConsumers<K extends string>(
  pkgDir: string,
  projects: Record<K, Record<string, string>>,
  compilerOptions: Record<string, unknown> = {},
): Promise<Record<K, { ok: boolean; output: string }>> {
  const names = Object.keys(projects) as K[];
  const results = await typecheckProjects(
    names.map((name) => consumerProject(pkgDir, projects[name], compilerOptions)),
    'fixture-sdk',
  );
  return Object.fromEntries(
    names.map((name, i) => [name, { ok: results[i]!.status === 0, output: results[i]!.output }]),
  ) as Record<K, { ok: boolean; output: string }>;
}
