/**
 * `npx tsx scripts/code-metrics.ts [--json] [--list] [--root <dir>]`: the codebase's shape, counted the way issue 32
 * asks (files over 300 lines, functions over 80, lines over 120 characters, generator files with a
 * same-named test, import circles, generator imports of runtime internals). Run it at two commits
 * (`git worktree add` or `git stash`) to get a before/after; `--list` names every offender.
 *
 * Hand-written source only: generator/, templates/runtime/ and scripts/, tests counted apart.
 * A function is any function declaration, method, accessor, constructor, function expression or
 * arrow function; its length is from its first to its last line, nested functions counted on their own.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const argv = process.argv.slice(2);
const rootFlag = argv.indexOf('--root');
/** `--root <dir>` measures another checkout (a worktree of an older commit, a test's fixture tree). */
const root = resolve(rootFlag >= 0 ? (argv[rootFlag + 1] ?? '.') : fileURLToPath(new URL('..', import.meta.url)));
const args = new Set(argv);

const LIMITS = { fileLines: 300, functionLines: 80, lineChars: 120 } as const;
const ROOMS = ['generator', 'templates/runtime', 'scripts'] as const;
/** The folder both generator and runtime may import; any other generator import of the runtime is a reach into its internals. */
const CONTRACT_FOLDER = 'templates/runtime/contract/';

function walk(dir: string): string[] {
  let out: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names) {
    if (name === 'node_modules' || name === '__snapshots__' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out = out.concat(walk(path));
    else if (/\.(ts|mts|cts)$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

const isTest = (path: string) => /\.test\.(ts|mts)$/.test(path) || path.includes('/test-support/');

interface FileFacts {
  path: string;
  lines: number;
  longLines: number;
  functions: { name: string; line: number; lines: number }[];
  imports: { target: string; typeOnly: boolean }[];
}

function functionName(node: ts.Node, sf: ts.SourceFile): string {
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name) return named.name.getText(sf);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText(sf);
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText(sf);
  if (parent && ts.isPropertyDeclaration(parent)) return parent.name.getText(sf);
  return '(anonymous)';
}

function resolveImport(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = resolve(dirname(from), spec);
  const candidates = [
    base.replace(/\.js$/, '.ts'),
    base.replace(/\.mjs$/, '.mts'),
    `${base}.ts`,
    join(base, 'index.ts'),
    base,
  ];
  for (const candidate of candidates) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      /* try the next form */
    }
  }
  return undefined;
}

function factsOf(path: string): FileFacts {
  const text = readFileSync(path, 'utf8');
  const textLines = text.split('\n');
  if (textLines.at(-1) === '') textLines.pop();
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const functions: FileFacts['functions'] = [];
  const imports: FileFacts['imports'] = [];
  const lineOf = (pos: number) => sf.getLineAndCharacterOfPosition(pos).line + 1;
  const visit = (node: ts.Node) => {
    if (
      ts.isFunctionDeclaration(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isConstructorDeclaration(node) ||
      ts.isGetAccessorDeclaration(node) ||
      ts.isSetAccessorDeclaration(node) ||
      ts.isFunctionExpression(node) ||
      ts.isArrowFunction(node)
    ) {
      if ((node as ts.FunctionLikeDeclaration).body) {
        const start = lineOf(node.getStart(sf));
        functions.push({ name: functionName(node, sf), line: start, lines: lineOf(node.getEnd()) - start + 1 });
      }
    }
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const target = resolveImport(path, node.moduleSpecifier.text);
      const typeOnly = ts.isImportDeclaration(node) ? Boolean(node.importClause?.isTypeOnly) : node.isTypeOnly;
      if (target) imports.push({ target, typeOnly });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return {
    path,
    lines: textLines.length,
    longLines: textLines.filter((line) => line.length > LIMITS.lineChars).length,
    functions,
    imports,
  };
}

/** Strongly connected components of more than one file (Tarjan), i.e. import circles. */
function importCircles(files: Map<string, FileFacts>, includeTypeOnly: boolean): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const edges = (path: string) =>
    (files.get(path)?.imports ?? [])
      .filter((i) => files.has(i.target) && (includeTypeOnly || !i.typeOnly))
      .map((i) => i.target);
  const connect = (v: string) => {
    indices.set(v, index);
    low.set(v, index);
    index += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of edges(v)) {
      if (!indices.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indices.get(w)!));
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) circles.push(component.map((p) => relative(root, p)).sort());
    }
  };
  for (const path of files.keys()) if (!indices.has(path)) connect(path);
  return circles;
}

const all = ROOMS.flatMap((room) => walk(join(root, room)));
const facts = new Map(all.map((path) => [path, factsOf(path)]));
const testFiles = [...walk(join(root, 'test')), ...all.filter(isTest)];
const testBaseNames = new Set(
  testFiles.map((p) =>
    p
      .split('/')
      .pop()!
      .replace(/\.test\.(ts|mts)$/, ''),
  ),
);
const source = [...facts.values()].filter((f) => !isTest(f.path));
const rel = (p: string) => relative(root, p);

const bigFiles = source.filter((f) => f.lines > LIMITS.fileLines).sort((a, b) => b.lines - a.lines);
const longFunctions = source
  .flatMap((f) =>
    f.functions.filter((fn) => fn.lines > LIMITS.functionLines).map((fn) => ({ ...fn, file: rel(f.path) })),
  )
  .sort((a, b) => b.lines - a.lines);
const longLineShare = Object.fromEntries(
  ROOMS.map((room) => {
    const inRoom = source.filter((f) => rel(f.path).startsWith(`${room}/`));
    const lines = inRoom.reduce((n, f) => n + f.lines, 0);
    const long = inRoom.reduce((n, f) => n + f.longLines, 0);
    return [room, { lines, over120: long, percent: lines ? Math.round((long / lines) * 1000) / 10 : 0 }];
  }),
);
const generatorFiles = source.filter((f) => rel(f.path).startsWith('generator/'));
const withoutTest = generatorFiles.filter((f) => !testBaseNames.has(f.path.split('/').pop()!.replace(/\.ts$/, '')));
const runtimeReaches = generatorFiles.flatMap((f) =>
  f.imports
    .filter((i) => rel(i.target).startsWith('templates/runtime/') && !rel(i.target).startsWith(CONTRACT_FOLDER))
    .map((i) => `${rel(f.path)} → ${rel(i.target)}`),
);
const circles = importCircles(facts, false);
const circlesWithTypes = importCircles(facts, true);

const result = {
  handWrittenSourceLines: source.reduce((n, f) => n + f.lines, 0),
  sourceFiles: source.length,
  filesOver300Lines: bigFiles.length,
  functionsOver80Lines: longFunctions.length,
  linesOver120Chars: longLineShare,
  generatorFiles: generatorFiles.length,
  generatorFilesWithSameNamedTest: generatorFiles.length - withoutTest.length,
  importCircles: circles.length,
  importCirclesCountingTypeOnly: circlesWithTypes.length,
  generatorImportsOfRuntimeInternals: runtimeReaches.length,
};

if (args.has('--json')) console.log(JSON.stringify(result));
else
  for (const [key, value] of Object.entries(result))
    console.log(`${key}: ${typeof value === 'object' ? JSON.stringify(value) : value}`);
if (args.has('--list')) {
  console.log('\nfiles over 300 lines:');
  for (const f of bigFiles) console.log(`  ${f.lines}  ${rel(f.path)}`);
  console.log('functions over 80 lines:');
  for (const fn of longFunctions) console.log(`  ${fn.lines}  ${fn.file}:${fn.line} ${fn.name}`);
  console.log('generator files without a same-named test:');
  for (const f of withoutTest) console.log(`  ${rel(f.path)}`);
  console.log('import circles (type-only imports included):');
  for (const c of circlesWithTypes) console.log(`  ${c.join(' ↔ ')}`);
  console.log('generator imports of runtime internals:');
  for (const r of runtimeReaches) console.log(`  ${r}`);
}
