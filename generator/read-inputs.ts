/** The generator's only file reads: the spec and the templates, gathered into a GeneratorInput. */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { GeneratorInput } from './generate.js';
import { checkSpecSize, DEFAULT_MAX_SPEC_BYTES } from './spec-document.js';

/** Every file below `dir` (relative path → text), sorted, skipping top-level folders in `skip`. */
export function readTree(dir: string, skip: ReadonlySet<string> = new Set()): Map<string, string> {
  const files = new Map<string, string>();
  if (!existsSync(dir)) return files;
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) {
        if (d === dir && skip.has(name)) continue;
        walk(full);
      } else files.set(relative(dir, full).split('\\').join('/'), readFileSync(full, 'utf8'));
    }
  };
  walk(dir);
  return files;
}

/**
 * The package's version and changelog belong to the maintainer (bumped by `npm version` in
 * generated/ or by `npm run release`): generate reads them back and never resets them.
 */
function readReleaseState(root: string): Pick<GeneratorInput, 'packageVersion' | 'changelog'> {
  const pkgPath = join(root, 'generated/package.json');
  const changelogPath = join(root, 'generated/CHANGELOG.md');
  let packageVersion: string | undefined;
  if (existsSync(pkgPath)) {
    try {
      const version = JSON.parse(readFileSync(pkgPath, 'utf8')).version;
      if (typeof version === 'string') packageVersion = version;
    } catch {
      // a broken package.json is rewritten from the template; the spec's version stands in
    }
  }
  return {
    ...(packageVersion ? { packageVersion } : {}),
    ...(existsSync(changelogPath) ? { changelog: readFileSync(changelogPath, 'utf8') } : {}),
  };
}

/**
 * A spec file's text, refused before it is read when it is over the limit (DEFAULT_MAX_SPEC_BYTES
 * unless `maxBytes`): a 60 MB spec costs nothing but a stat. `path` is where it is read from,
 * `file` the name a refusal gives it.
 */
export function readSpecFile(path: string, file: string, maxBytes = DEFAULT_MAX_SPEC_BYTES): string {
  checkSpecSize(statSync(path).size, file, maxBytes);
  return readFileSync(path, 'utf8');
}

/** `maxSpecBytes`: the limit on each spec file (CLI `--max-spec-bytes`), kept in the input for generate(). */
export function readGeneratorInput(
  root: string,
  openapiSource = 'spec/openapi.yaml',
  maxSpecBytes?: number,
): GeneratorInput {
  const max = maxSpecBytes ?? DEFAULT_MAX_SPEC_BYTES;
  return {
    ...readReleaseState(root),
    ...(maxSpecBytes !== undefined ? { maxSpecBytes } : {}),
    openapiText: readSpecFile(join(root, openapiSource), openapiSource, max),
    openapiSource,
    callbacksText: readSpecFile(join(root, 'spec/callbacks.asyncapi.yaml'), 'spec/callbacks.asyncapi.yaml', max),
    callbacksSource: 'spec/callbacks.asyncapi.yaml',
    runtimeFiles: readTree(join(root, 'templates/runtime')),
    packageTemplates: Object.fromEntries(readTree(join(root, 'templates/package'))),
    extensionsSchema: JSON.parse(readFileSync(join(root, 'spec/extensions.schema.json'), 'utf8')),
    staticFiles: new Map([...readTree(join(root, 'templates/examples'))].map(([p, t]) => [`examples/${p}`, t])),
  };
}
