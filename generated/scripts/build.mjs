// Copied by im-openapi from templates/package/build.mjs. Do not edit: change the template and run `npm run generate`.
// Builds dist/esm/ (the package's `build` script; prepack runs it from clean). Kept out of the
// published files.
//
// - JavaScript: esbuild bundles each entry point that package.json names (exports and bin) into
//   ESM with code splitting. Every operation's validator, loaded by a dynamic import(), becomes
//   its own lazy file, validators/<operation>.js (an entry of the build, so its name carries no
//   hash: an app's bundler names its chunk after it, and an ImClient app imports all 178 of
//   them by name); code used by several entries goes into shared chunks. Far fewer files than
//   one module per source file, and an app's bundler still sees the lazy imports. Not minified:
//   readable in a stack trace, and the app's bundler minifies. Without the doc comments (`/** */`)
//   esbuild keeps on class members and statements: the hover docs come from the .d.ts files, and
//   in the JavaScript they were 0.4 MB of the package (issue 33); `//` comments (the why) stay.
// - Types: tsc's own declarations (doc comments as written, so hover docs are tsc's), then only
//   the .d.ts files an entry point's types reach are kept: an internal module (a validator, a
//   wire helper) has no type a user can name.
//
// ESM only: CommonJS callers load it with require(), which Node supports for ES modules from
// 20.19 and 22.12 (package.json's engines).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const pkgDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = 'dist/esm';

function fail(message) {
  console.error(`build failed: ${message}`);
  process.exit(1);
}

/**
 * A tool's file from this folder's node_modules or any folder above it (a workspace, a link);
 * when it is absent, `stop` gets how to install it (this script's and prepack's one tool lookup).
 */
export function requireTool(name, file, stop = fail) {
  for (let dir = pkgDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name, file);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) break;
  }
  return stop(
    `${name} is not installed. Run \`npm install\` in ${pkgDir} first: it installs the devDependencies that build and check this package.`,
  );
}

/** `./dist/esm/x/y.js` → `x/y` for every file of that kind (`.js`, `.d.ts`) package.json points at. */
function entryNames(pkg, ext) {
  const targets = new Set();
  const collect = (node) =>
    typeof node === 'string'
      ? targets.add(node.replace(/^\.\//, ''))
      : node && typeof node === 'object'
        ? Object.values(node).forEach(collect)
        : undefined;
  for (const key of ['main', 'types', 'exports', 'bin', 'typesVersions']) collect(pkg[key]);
  const prefix = `${OUT}/`;
  return [...targets]
    .filter((t) => t.startsWith(prefix) && t.endsWith(ext))
    .map((t) => t.slice(prefix.length, -ext.length));
}

/** Relative specifiers a .d.ts file imports or re-exports (`from './x.js'`, `import('./x.js')`). */
function declarationImports(text) {
  return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm)].map((m) => m[1]);
}

function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(p);
    else yield p;
  }
}

/** Removes the folders the pruning left empty (deepest first); true when `dir` itself is now empty. */
function removeEmptyFolders(dir) {
  let empty = true;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory() && removeEmptyFolders(p)) rmSync(p, { recursive: true });
    else empty = false;
  }
  return empty;
}

/** Deletes every .d.ts under `root` that no declaration package.json names reaches; returns how many remain. */
function pruneDeclarations(root, typeEntries) {
  const reached = new Set();
  const queue = typeEntries.map((e) => join(root, `${e}.d.ts`));
  const absent = queue.filter((f) => !existsSync(f));
  if (absent.length)
    fail(`package.json names declarations tsc did not write: ${absent.map((f) => relative(pkgDir, f)).join(', ')}`);
  while (queue.length) {
    const file = queue.pop();
    if (reached.has(file)) continue;
    reached.add(file);
    for (const spec of declarationImports(readFileSync(file, 'utf8'))) {
      const base = resolve(dirname(file), spec).replace(/\.js$/, '');
      const target = [`${base}.d.ts`, join(base, 'index.d.ts')].find((f) => existsSync(f));
      if (!target) fail(`${relative(pkgDir, file)} imports ${spec}, which has no declaration file`);
      queue.push(target);
    }
  }
  for (const file of walk(root)) if (file.endsWith('.d.ts') && !reached.has(file)) rmSync(file);
  removeEmptyFolders(root);
  return reached.size;
}

/**
 * esbuild keeps `import "./chunks/x.js"` for modules an entry reaches but takes nothing from
 * (they hold only code other files import by name). The package declares `sideEffects: false`,
 * so an app's bundler drops those imports anyway, and esbuild warns once per import
 * (ignored-bare-import: ~180 warnings in every app that bundles the package). Nothing in the
 * runtime runs for its side effects, so the imports go here, before any app sees them.
 */
function dropBareChunkImports(outputs) {
  const bare = /^import "\.{1,2}\/(?:[\w.-]+\/)*chunk-[\w-]+\.js";\n/gm;
  for (const file of outputs) {
    const path = join(pkgDir, file);
    const text = readFileSync(path, 'utf8');
    const stripped = text.replace(bare, '');
    if (stripped !== text) writeFileSync(path, stripped);
  }
}

/**
 * `text` without its doc comments, found by TypeScript's parser (the JSDoc nodes it attaches to
 * declarations: never a comment opener inside a string, template or regex). A comment alone on its lines
 * takes those lines with it; plain block comments (esbuild's `@__PURE__` marks) and `//` comments stay.
 */
export function withoutDocComments(ts, text) {
  const file = ts.createSourceFile('out.js', text, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const starts = new Map();
  const visit = (node) => {
    for (const d of node.jsDoc ?? []) starts.set(d.pos, d.end);
    ts.forEachChild(node, visit);
  };
  visit(file);
  let out = '';
  let at = 0;
  for (const [pos, end] of [...starts].sort((a, b) => a[0] - b[0])) {
    if (pos < at) continue;
    let from = pos;
    let to = end;
    const lineStart = text.lastIndexOf('\n', pos - 1) + 1;
    const rest = /^[ \t]*\n/.exec(text.slice(end, end + 200));
    if (/^[ \t]*$/.test(text.slice(lineStart, pos)) && rest)
      [from, to] = [Math.max(lineStart, at), end + rest[0].length];
    out += text.slice(at, from);
    at = to;
  }
  return out + text.slice(at);
}

/** Removes the doc comments from every JavaScript file esbuild wrote (see the header). */
async function dropDocComments(outputs, tsFile) {
  const ts = (await import(pathToFileURL(tsFile).href)).default;
  for (const file of outputs) {
    const path = join(pkgDir, file);
    const text = readFileSync(path, 'utf8');
    const stripped = withoutDocComments(ts, text);
    if (stripped !== text) writeFileSync(path, stripped);
  }
}

/** `validators/<operation>` for each operation's validator (src/validators/*.ts; the shared ones are chunked). */
function validatorEntries() {
  const dir = join(pkgDir, 'src/validators');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => `validators/${f.slice(0, -3)}`);
}

export async function buildPackage() {
  // both tools named before anything is removed (a fresh clone without `npm install`)
  const esbuildFile = requireTool('esbuild', 'lib/main.js');
  const tsc = requireTool('typescript', 'bin/tsc');
  const tsLib = requireTool('typescript', 'lib/typescript.js');
  const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  const entries = entryNames(pkg, '.js');
  for (const e of entries)
    if (!existsSync(join(pkgDir, 'src', `${e}.ts`)))
      fail(`package.json points at ${OUT}/${e}.js but src/${e}.ts does not exist`);
  rmSync(join(pkgDir, 'dist'), { recursive: true, force: true });

  const esbuild = await import(pathToFileURL(esbuildFile).href);
  const result = await esbuild
    .build({
      absWorkingDir: pkgDir,
      entryPoints: Object.fromEntries([...entries, ...validatorEntries()].map((e) => [e, `src/${e}.ts`])),
      outdir: OUT,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      // optional peers (@opentelemetry/api of ./otel) are the app's own copy, never bundled
      external: Object.keys(pkg.peerDependencies ?? {}),
      // shared chunks (the validators are entries, named above)
      chunkNames: 'chunks/[name]-[hash]',
      legalComments: 'none',
      logLevel: 'silent',
      metafile: true,
    })
    .catch((error) => fail(`esbuild: ${error.message}`));

  const jsOutputs = Object.keys(result.metafile.outputs).filter((f) => f.endsWith('.js'));
  dropBareChunkImports(jsOutputs);
  await dropDocComments(jsOutputs, tsLib);

  try {
    execFileSync(process.execPath, [tsc, '-p', 'tsconfig.esm.json', '--emitDeclarationOnly', '--outDir', OUT], {
      cwd: pkgDir,
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
    });
  } catch (error) {
    fail(`tsc (declarations):\n${error.stdout ?? ''}${error.stderr ?? error.message}`);
  }
  const declarations = pruneDeclarations(join(pkgDir, OUT), entryNames(pkg, '.d.ts'));
  const files = [...walk(join(pkgDir, OUT))];
  const bytes = files.reduce((sum, f) => sum + statSync(f).size, 0);
  return { entries, jsFiles: Object.keys(result.metafile.outputs).length, declarations, files: files.length, bytes };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const r = await buildPackage();
  if (!process.argv.includes('--quiet'))
    console.error(
      `build: ${r.entries.length} entry points → ${r.jsFiles} JavaScript files and ${r.declarations} declaration files in ${OUT}/ (${(r.bytes / 1024).toFixed(0)} KiB)`,
    );
}
