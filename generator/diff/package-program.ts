/**
 * One TypeScript program over several copies of the package's sources, held in memory (nothing
 * is written): the base and the new package for the change report's type check, or many
 * packages and caller snippets for the corpus test. A file whose text and whole import closure
 * are the same as in an earlier package (the runtime copy, unchanged types) is read once: imports
 * of it resolve to the earlier copy, so its declarations are the same symbols in both packages
 * (a class with private members is then the same class, and comparing it costs nothing).
 *
 * Library files (lib.*.d.ts) are parsed once per process and shared by every program.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, posix } from 'node:path';
import ts from 'typescript';

export interface PackageSources {
  /** Absolute virtual folder of the package, e.g. `/pkg/base`. */
  root: string;
  /** Package path → text (`src/index.ts`, …); other files are ignored. */
  files: ReadonlyMap<string, string>;
}

/** A strict caller's settings: what must keep compiling. */
export const CALLER_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  types: [],
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  skipLibCheck: true,
  noEmit: true,
};

const libDir = dirname(createRequire(import.meta.url).resolve('typescript'));
const libCache = new Map<string, ts.SourceFile>();
/**
 * Parsed package files by path and text: programs built one after another (the corpus test, a
 * release's report after generate's) share the runtime's SourceFiles as TypeScript's own language
 * service shares them between projects. Bounded: dropped whole when it grows past the limit.
 */
const sourceCache = new Map<string, ts.SourceFile>();
const SOURCE_CACHE_LIMIT = 4000;

function virtualSourceFile(
  fileName: string,
  text: string,
  languageVersion: ts.ScriptTarget | ts.CreateSourceFileOptions,
): ts.SourceFile {
  const key = `${fileName}\0${JSON.stringify(languageVersion)}\0${createHash('sha1').update(text).digest('hex')}`;
  let sf = sourceCache.get(key);
  if (!sf) {
    if (sourceCache.size >= SOURCE_CACHE_LIMIT) sourceCache.clear();
    sourceCache.set(key, (sf = ts.createSourceFile(fileName, text, languageVersion, true)));
  }
  return sf;
}

const RELATIVE_IMPORT =
  /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+|^\s*export\s+\*\s+from\s*)['"](\.{1,2}\/[^'"]+)['"]/gm;

/** Package path of a relative import (`./x.js` from `src/a/b.ts` → `src/a/x.ts` or `src/a/x/index.ts`). */
function importTarget(files: ReadonlyMap<string, string>, from: string, spec: string): string | undefined {
  const base = posix.join(posix.dirname(from), spec).replace(/\.js$/, '');
  return [`${base}.ts`, `${base}/index.ts`, base].find((p) => files.has(p));
}

/** A key per file: its path and the hashes of every file its imports reach (itself included). */
function closureKeys(files: ReadonlyMap<string, string>): Map<string, string> {
  const hash = new Map([...files].map(([p, t]) => [p, createHash('sha1').update(t).digest('hex')]));
  const deps = new Map<string, string[]>();
  for (const [path, text] of files) {
    if (!path.endsWith('.ts')) continue;
    deps.set(
      path,
      [...text.matchAll(RELATIVE_IMPORT)].map((m) => importTarget(files, path, m[1]!)).filter((p): p is string => !!p),
    );
  }
  const keys = new Map<string, string>();
  for (const path of deps.keys()) {
    const reached = new Set<string>([path]);
    const stack = [path];
    while (stack.length)
      for (const d of deps.get(stack.pop()!) ?? []) if (!reached.has(d)) reached.add(d), stack.push(d);
    keys.set(
      path,
      createHash('sha1')
        .update(
          [...reached]
            .sort()
            .map((p) => `${p}:${hash.get(p)}`)
            .join('\n'),
        )
        .digest('hex'),
    );
  }
  return keys;
}

export interface PackagesProgram {
  program: ts.Program;
  /** The file a package path of a package is read from (an earlier package's when shared). */
  fileOf(root: string, path: string): string;
}

/** `extra`: absolute path → text (caller snippets), checked with the packages. */
export function packagesProgram(
  packages: readonly PackageSources[],
  extra: ReadonlyMap<string, string> = new Map(),
  options: ts.CompilerOptions = CALLER_OPTIONS,
): PackagesProgram {
  const texts = new Map<string, string>(extra);
  const canonical = new Map<string, string>();
  const firstByKey = new Map<string, string>();
  for (const pkg of packages) {
    const src = new Map([...pkg.files].filter(([p]) => p.startsWith('src/') && p.endsWith('.ts')));
    for (const [path, key] of closureKeys(src)) {
      const file = `${pkg.root}/${path}`;
      const earlier = firstByKey.get(key);
      if (earlier) canonical.set(file, earlier);
      else {
        firstByKey.set(key, file);
        texts.set(file, src.get(path)!);
      }
    }
  }
  const dirs = new Set<string>();
  for (const f of [...texts.keys(), ...canonical.keys()])
    for (let d = posix.dirname(f); d !== '/' && !dirs.has(d); d = posix.dirname(d)) dirs.add(d);
  const isVirtual = (f: string) => texts.has(f) || canonical.has(f);
  const host: ts.CompilerHost = {
    getSourceFile(fileName, languageVersion) {
      const text = texts.get(fileName);
      if (text !== undefined) return virtualSourceFile(fileName, text, languageVersion);
      if (!fileName.startsWith(libDir)) return undefined;
      const key = `${fileName}:${JSON.stringify(languageVersion)}`;
      let sf = libCache.get(key);
      if (!sf && existsSync(fileName))
        libCache.set(key, (sf = ts.createSourceFile(fileName, readFileSync(fileName, 'utf8'), languageVersion, true)));
      return sf;
    },
    getDefaultLibFileName: (o) => join(libDir, ts.getDefaultLibFileName(o)),
    getDefaultLibLocation: () => libDir,
    writeFile: () => {},
    getCurrentDirectory: () => '/',
    getDirectories: () => [],
    getCanonicalFileName: (f) => f,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => '\n',
    fileExists: (f) => isVirtual(f) || (f.startsWith(libDir) && existsSync(f)),
    readFile: (f) => texts.get(f) ?? (f.startsWith(libDir) && existsSync(f) ? readFileSync(f, 'utf8') : undefined),
    directoryExists: (d) => dirs.has(d) || d.startsWith(libDir),
    resolveModuleNameLiterals(literals, containingFile, _redirect, opts) {
      return literals.map((literal) => {
        const r = ts.resolveModuleName(literal.text, containingFile, opts, host);
        const resolved = r.resolvedModule;
        const shared = resolved && canonical.get(resolved.resolvedFileName);
        return shared ? { resolvedModule: { ...resolved, resolvedFileName: shared } } : r;
      });
    },
  };
  const roots = [
    ...new Set([
      ...packages
        .map((p) => p.root)
        .flatMap((root) =>
          ['src/index.ts', 'src/client.ts'].map((f) => canonical.get(`${root}/${f}`) ?? `${root}/${f}`),
        ),
      ...extra.keys(),
    ]),
  ].filter((f) => texts.has(f));
  return {
    program: ts.createProgram({ rootNames: roots, options, host }),
    fileOf: (root, path) => canonical.get(`${root}/${path}`) ?? `${root}/${path}`,
  };
}
