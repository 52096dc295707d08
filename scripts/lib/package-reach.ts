/**
 * Which files of a packed package nothing needs (issue 18: "every file needed"). A file is needed
 * when package.json points at it (exports, main, types, bin, typesVersions), when a needed file
 * imports or references it (static and dynamic imports, re-exports, `/// <reference path>`, read by
 * TypeScript's own pre-processor), when a docs file links to it, or when it is a docs file named
 * here. Used by test/package.test.ts (the tarball's list) and the size bench.
 */
import { posix } from 'node:path';
import ts from 'typescript';

/** Published files a user reads rather than loads. */
export const DOC_FILES = ['package.json', 'README.md', 'CHANGELOG.md', 'api.md', 'LICENSE', 'LICENSE.md'];

export interface Reach {
  /** Every packed path, with the first file that needs it (`package.json#exports`, a docs file, an importer). */
  neededBy: Map<string, string>;
  /** Packed paths nothing needs. */
  orphans: string[];
  /** References from needed files to paths the package does not hold (a broken import or link). */
  dangling: { from: string; to: string }[];
}

function packageTargets(pkg: Record<string, unknown>): string[] {
  const out: string[] = [];
  const collect = (node: unknown): void => {
    if (typeof node === 'string') out.push(node);
    else if (Array.isArray(node)) node.forEach(collect);
    else if (node && typeof node === 'object') Object.values(node).forEach(collect);
  };
  for (const key of ['main', 'module', 'types', 'typings', 'exports', 'bin', 'typesVersions']) collect(pkg[key]);
  return out.map((t) => posix.normalize(t.replace(/^\.\//, ''))).filter((t) => t !== 'package.json');
}

/** Relative module specifiers and referenced paths in a JavaScript or declaration file. */
function references(text: string): string[] {
  const info = ts.preProcessFile(text, true, true);
  return [...info.importedFiles, ...info.referencedFiles]
    .map((f) => f.fileName)
    .filter((n) => n.startsWith('./') || n.startsWith('../'));
}

/** Relative link targets in a markdown file (`](path)` without a scheme or anchor-only). */
function markdownLinks(text: string): string[] {
  return [...text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)]
    .map((m) => m[1]!)
    .filter((l) => !/^[a-z][a-z0-9+.-]*:/i.test(l));
}

/** Where a specifier from `from` lands among `files` (a .js import may name its .d.ts, a folder its index). */
function resolveIn(files: Set<string>, from: string, spec: string, declaration: boolean): string | undefined {
  const base = posix.normalize(posix.join(posix.dirname(from), spec));
  const stem = base.replace(/\.(m|c)?js$/, '');
  const candidates = declaration
    ? [`${stem}.d.ts`, `${stem}.d.mts`, `${base}/index.d.ts`, base]
    : [base, `${base}.js`, `${base}/index.js`];
  return candidates.find((c) => files.has(c));
}

export function packageReach(paths: string[], read: (path: string) => string): Reach {
  const files = new Set(paths);
  const neededBy = new Map<string, string>();
  const dangling: Reach['dangling'] = [];
  const queue: string[] = [];
  const need = (path: string, by: string) => {
    if (!neededBy.has(path)) {
      neededBy.set(path, by);
      queue.push(path);
    }
  };
  for (const doc of DOC_FILES) if (files.has(doc)) need(doc, 'a docs file');
  const pkg = JSON.parse(read('package.json')) as Record<string, unknown>;
  for (const target of packageTargets(pkg)) {
    if (files.has(target)) need(target, 'package.json');
    else dangling.push({ from: 'package.json', to: target });
  }
  while (queue.length) {
    const file = queue.pop()!;
    const declaration = /\.d\.[mc]?ts$/.test(file);
    let specs: string[];
    if (file.endsWith('.md')) specs = markdownLinks(read(file));
    else if (declaration || /\.[mc]?js$/.test(file)) specs = references(read(file));
    else continue;
    for (const spec of specs) {
      const target = file.endsWith('.md')
        ? files.has(posix.normalize(spec))
          ? posix.normalize(spec)
          : undefined
        : resolveIn(files, file, spec, declaration);
      if (target) need(target, file);
      else if (!file.endsWith('.md') || spec.startsWith('dist/')) dangling.push({ from: file, to: spec });
    }
  }
  return { neededBy, orphans: paths.filter((p) => !neededBy.has(p)).sort(), dangling };
}
