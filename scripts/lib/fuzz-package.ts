/**
 * The package side of the spec fuzz (spec-fuzz.ts): whether an accepted variant's code is the
 * baseline's with other data (TypeScript's tokens compared, package.json by its keys), and a
 * package folder where a variant is built (esbuild, as the package build bundles) and imported.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { build } from 'esbuild';

/** The global a payload sets, and the file one writes, when it runs. */
export const SENTINEL = '__imFuzz';
export const SENTINEL_FILE = 'im-fuzz-pwned';

const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard);
const ATOMS = new Set([
  ts.SyntaxKind.Identifier,
  ts.SyntaxKind.StringLiteral,
  ts.SyntaxKind.NoSubstitutionTemplateLiteral,
  ts.SyntaxKind.PrivateIdentifier,
]);

/** The code of a TypeScript file as tokens (comments dropped); identifiers and string literals as one kind of atom. */
function codeShape(text: string): string[] {
  scanner.setText(text);
  const out: string[] = [];
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    out.push(ATOMS.has(kind) ? 'atom' : `${kind}:${scanner.getTokenText()}`);
  }
  return out;
}

/** Key paths and value types of a JSON document (package.json): a payload must not add a key. */
function jsonShape(text: string): string[] {
  const out: string[] = [];
  const walk = (v: unknown, path: string) => {
    if (Array.isArray(v)) return v.forEach((x, i) => walk(x, `${path}[${i}]`));
    if (v && typeof v === 'object') return Object.entries(v).forEach(([k, x]) => walk(x, `${path}.${k}`));
    out.push(`${path}:${typeof v}`);
  };
  walk(JSON.parse(text), '');
  return out;
}

/**
 * The files of a variant whose code differs from the baseline's beyond data: TypeScript by its
 * tokens, package.json by its keys (Markdown is never run). Empty: the payload stayed data.
 */
export function codeChanges(baseline: ReadonlyMap<string, string>, files: ReadonlyMap<string, string>): string[] {
  const changed: string[] = [];
  for (const path of new Set([...baseline.keys(), ...files.keys()])) {
    const a = baseline.get(path);
    const b = files.get(path);
    if (a === b) continue;
    if (a === undefined || b === undefined) changed.push(path);
    else if (path.endsWith('.ts')) {
      const x = codeShape(a);
      const y = codeShape(b);
      if (x.length !== y.length || x.some((t, i) => t !== y[i])) changed.push(path);
    } else if (path.endsWith('.json')) {
      if (jsonShape(a).join('\n') !== jsonShape(b).join('\n')) changed.push(path);
    } else if (!path.endsWith('.md')) changed.push(path);
  }
  return changed.sort();
}

/** A package folder to build variants in: the files as generated, node_modules linked to the repository's. */
export class PackageBench {
  readonly dir = mkdtempSync(join(tmpdir(), 'im-fuzz-pkg-'));
  #written = new Map<string, string>();

  constructor(readonly root: string) {
    symlinkSync(join(root, 'node_modules'), join(this.dir, 'node_modules'), 'dir');
  }

  /** Writes the files that differ from what the folder holds, removes the ones no longer there. */
  write(files: ReadonlyMap<string, string>): void {
    for (const [path, text] of files) {
      if (this.#written.get(path) === text) continue;
      mkdirSync(dirname(join(this.dir, path)), { recursive: true });
      writeFileSync(join(this.dir, path), text);
      this.#written.set(path, text);
    }
    for (const path of [...this.#written.keys()]) {
      if (!files.has(path)) {
        rmSync(join(this.dir, path), { force: true });
        this.#written.delete(path);
      }
    }
  }

  /**
   * Builds the package's JavaScript as its build script does (esbuild: every entry package.json
   * names, ESM, code splitting) and imports each entry and runs the bin with --help in a fresh
   * node process, in an empty folder. Returns what went wrong (nothing: no side effect).
   */
  async buildAndImport(files: ReadonlyMap<string, string>): Promise<string[]> {
    this.write(files);
    const out = join(this.dir, 'dist/esm');
    rmSync(out, { recursive: true, force: true });
    const pkg = JSON.parse(files.get('package.json')!);
    const entries = new Set<string>();
    const collect = (node: unknown): void => {
      if (typeof node === 'string' && inDist(node) !== undefined && node.endsWith('.js'))
        entries.add(inDist(node)!.slice(0, -'.js'.length));
      else if (node && typeof node === 'object') Object.values(node).forEach(collect);
    };
    collect(pkg.exports);
    collect(pkg.bin);
    try {
      // the options of the esbuild step of templates/package/build.mjs (its tsc step, declarations
      // only, runs no code and is left out: 5 s a variant)
      await build({
        absWorkingDir: this.dir,
        entryPoints: Object.fromEntries([...entries].map((e) => [e, `src/${e}.ts`])),
        outdir: out,
        bundle: true,
        splitting: true,
        format: 'esm',
        platform: 'node',
        target: 'node20',
        chunkNames: 'chunks/[name]-[hash]',
        logLevel: 'silent',
      });
    } catch (error) {
      return [
        `the package does not build: ${String((error as Error).message)
          .split('\n')
          .slice(0, 3)
          .join(' | ')}`,
      ];
    }
    const cwd = mkdtempSync(join(tmpdir(), 'im-fuzz-run-'));
    try {
      const subpaths = Object.keys(pkg.exports ?? {}).filter((s) => s !== './package.json');
      const modules = subpaths.map((s) => join(out, inDist(pkg.exports[s].default as string) ?? ''));
      // every bin (npm writes bin paths without './'; exports keep it)
      const bins = Object.values(pkg.bin ?? {}).map((b) => join(out, inDist(String(b)) ?? ''));
      // the bin runs in its own process: a hook there reports the sentinel when it exits
      const hook = `data:text/javascript,${encodeURIComponent(`process.on('exit', () => { if (globalThis.${SENTINEL} !== undefined) process.stderr.write('SENTINEL-SET'); });`)}`;
      const script = [
        `for (const m of ${JSON.stringify(modules)}) await import(m);`,
        `const { spawnSync } = await import('node:child_process');`,
        `const rs = ${JSON.stringify(bins)}.map((bin) => spawnSync(process.execPath, ['--import', ${JSON.stringify(hook)}, bin, '--help'], { encoding: 'utf8' }));`,
        `const failed = rs.find((r) => r.status !== 0);`,
        `console.log(JSON.stringify({ sentinel: typeof globalThis.${SENTINEL}, bins: rs.length, binStatus: failed ? failed.status : 0, binSentinel: rs.some((r) => r.stderr.includes('SENTINEL-SET')) }));`,
      ].join('\n');
      // asynchronous: a test worker blocked for a minute misses its own RPC deadline
      const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        execFile(
          process.execPath,
          ['--input-type=module', '-e', script],
          { cwd, encoding: 'utf8', timeout: 120_000 },
          (error, stdout, stderr) => {
            resolve({ status: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
          },
        );
      });
      const problems: string[] = [];
      const line = run.stdout.trim().split('\n').pop() ?? '';
      if (run.status !== 0 || !line.startsWith('{'))
        return [`importing the entries failed (exit ${run.status}): ${run.stderr.split('\n').slice(0, 3).join(' | ')}`];
      const seen = JSON.parse(line) as { sentinel: string; bins: number; binStatus: number; binSentinel: boolean };
      if (seen.bins < 1) problems.push('the package names no bin');
      if (seen.sentinel !== 'undefined') problems.push(`importing an entry set globalThis.${SENTINEL}`);
      if (seen.binStatus !== 0) problems.push(`the bin with --help exited ${seen.binStatus}`);
      if (seen.binSentinel) problems.push(`running the bin set globalThis.${SENTINEL}`);
      const appeared = readdirSync(cwd);
      if (appeared.length) problems.push(`files appeared: ${appeared.join(', ')}`);
      return problems;
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A path package.json names ('./dist/esm/x.js' or 'dist/esm/x.js') → 'x.js'; undefined when outside dist/esm/. */
function inDist(path: string): string | undefined {
  const m = /^(?:\.\/)?dist\/esm\/(.+)$/.exec(path);
  return m?.[1];
}
