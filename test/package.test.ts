/**
 * The publishable package: builds to ESM (esbuild, code splitting) with tsc's .d.ts, packs with
 * no runtime dependency, no test files and no file that nothing needs, loads from import and from
 * require(), and an app bundles only what it calls, with the validators as lazy chunks.
 *
 * `npm pack` of generated/ runs the package's real prepack (generate --check, a clean build,
 * publint, attw). Every other test reads the run's shared build of generated/
 * (test-support/built-package.ts, the same build script on the same files); the file list packed
 * from it is required to equal the prepack's, so both are the same package. Before (issue 33) this
 * file built generated/ in place once more first, a third build per run.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageReach } from '../scripts/lib/package-reach.js';
import { builtPackage } from '../test-support/built-package.js';
import { repoRoot } from './helpers/seed.js';

/** What is packed (its prepack builds it). */
const pkgDir = join(repoRoot, 'generated');
/** The run's shared build of the same files, read only. */
let builtDir: string;
const work = mkdtempSync(join(tmpdir(), 'im-pkg-'));

beforeAll(async () => {
  builtDir = await builtPackage();
}, 300_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('npm pack of generated/', () => {
  let paths: string[] = [];

  it('has no runtime dependencies and ships no tests, maps or sources outside dist', () => {
    const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
    expect(pkg.dependencies ?? {}).toEqual({});
    // one peer only, optional, and only the ./otel entry imports it (issue 31)
    expect(pkg.peerDependencies ?? {}).toEqual({ '@opentelemetry/api': expect.any(String) });
    expect(pkg.peerDependenciesMeta).toEqual({ '@opentelemetry/api': { optional: true } });
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: pkgDir, encoding: 'utf8' }),
    );
    paths = packed.files.map((f: { path: string }) => f.path);
    // the shared build the other tests read packs to the same files
    const [shared] = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: builtDir, encoding: 'utf8' }),
    );
    expect(shared.files.map((f: { path: string }) => f.path).sort()).toEqual([...paths].sort());
    expect(paths).toContain('README.md');
    expect(paths).toContain('dist/esm/index.js');
    expect(paths).toContain('dist/esm/index.d.ts');
    expect(paths.filter((p) => /\.test\.|\.map$|^src\/|^examples\/|^scripts\/|^dist\/cjs\//.test(p))).toEqual([]);
  }, 240_000); // npm pack runs the package's prepack: a clean build, publint and attw

  it('ships only files something needs: package.json, an import, a type reference or a docs link reaches each one', () => {
    expect(paths.length).toBeGreaterThan(100);
    const reach = packageReach(paths, (p) => readFileSync(join(builtDir, p), 'utf8'));
    expect(reach.dangling).toEqual([]);
    expect(reach.orphans).toEqual([]);
    // the lazy validators (validators/<operation>.js, issue 33) are reached through the dynamic imports of the operation table
    const validatorChunk = paths.find((p) => p === 'dist/esm/validators/usersGet.js');
    expect(validatorChunk).toBeDefined();
    expect(reach.neededBy.get(validatorChunk!)).toMatch(/^dist\/esm\/chunks\//);
    // internal modules have no declaration file: no type a user can name lives there
    expect(paths.filter((p) => /^dist\/esm\/validators\/.*\.d\.ts$/.test(p))).toEqual([]);
  });

  it('and the check finds a file nothing needs, and an import of a file the tarball lacks', () => {
    const extra = [...paths, 'dist/esm/chunks/stale-OLD.js'];
    const read = (p: string) =>
      p === 'dist/esm/chunks/stale-OLD.js' ? 'export const x = 1;\n' : readFileSync(join(builtDir, p), 'utf8');
    expect(packageReach(extra, read).orphans).toEqual(['dist/esm/chunks/stale-OLD.js']);
    const without = paths.filter((p) => p !== 'dist/esm/validators/usersGet.js');
    const reach = packageReach(without, (p) => readFileSync(join(builtDir, p), 'utf8'));
    expect(reach.dangling.map((d) => d.to)).toEqual([expect.stringMatching(/validators\/usersGet\.js$/)]);
  });

  it('loads from import and from require() (Node 20.19+ and 22.12+ load ES modules from CommonJS)', () => {
    const esm = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { ImClient, operations } from ${JSON.stringify(join(builtDir, 'dist/esm/index.js'))}; console.log(typeof ImClient, Object.keys(operations).length)`,
      ],
      { encoding: 'utf8' },
    );
    expect(esm.stderr).toBe('');
    expect(esm.stdout.trim()).toBe('function 178');
    const cjs = spawnSync(
      process.execPath,
      [
        '-e',
        `const { ImClient, operations } = require(${JSON.stringify(join(builtDir, 'dist/esm/index.js'))}); operations['users.get'].loadValidator().then((v) => console.log(typeof ImClient, Object.keys(operations).length, typeof v.validate))`,
      ],
      { encoding: 'utf8' },
    );
    expect(cjs.stderr).toBe('');
    expect(cjs.stdout.trim()).toBe('function 178 function');
    const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
    expect(pkg.engines.node).toBe('^20.19.0 || >=22.12.0');
  });
});

describe('standalone functions tree-shake', () => {
  it('an app calling users.get bundles that operation and not an unrelated one', async () => {
    const entry = join(work, 'one-op.mjs');
    writeFileSync(
      entry,
      `import { ImCore, usersGet } from ${JSON.stringify(join(builtDir, 'dist/esm/funcs/index.js'))};\nconst core = new ImCore({ baseUrl: 'http://127.0.0.1:1', appKey: 'o#a', clientId: 'i', clientSecret: 's' });\nusersGet(core, { username: 'alice' }).catch(() => {});\n`,
    );
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'node',
      write: false,
      treeShaking: true,
    });
    const code = result.outputFiles[0]!.text;
    expect(code).toContain('users.get');
    for (const unrelated of ['messages.send', 'moderation.decide', 'chatrooms.set_attributes', 'rtc.issue_tickets']) {
      expect(code, unrelated).not.toContain(unrelated);
    }
  });
});

describe('features chosen by import, from the published dist', () => {
  it('an app over ImLeanCore bundles neither the node:http transport, proxy support nor the fleet quota; over ImCore it does', async () => {
    const bundle = async (core: string) => {
      const entry = join(work, `one-op-${core}.mjs`);
      writeFileSync(
        entry,
        `import { ${core}, usersGet } from ${JSON.stringify(join(builtDir, 'dist/esm/funcs/index.js'))};\nconst core = new ${core}({ baseUrl: 'http://127.0.0.1:1', appKey: 'o#a', clientId: 'i', clientSecret: 's' });\nusersGet(core, { username: 'alice' }).catch(() => {});\n`,
      );
      const result = await build({
        entryPoints: [entry],
        bundle: true,
        minify: true,
        format: 'esm',
        platform: 'node',
        write: false,
        treeShaking: true,
      });
      return result.outputFiles[0]!.text;
    };
    // one string of each left-out feature: the exchange pacing key (quota), the CONNECT tunnel (proxy), the transport's
    // builtin lookup (node:http; the lean core itself looks up node:diagnostics_channel, so not getBuiltinModule)
    const marks = ['im-openapi:exchange-pace', 'CONNECT', 'node:https'];
    const lean = await bundle('ImLeanCore');
    const full = await bundle('ImCore');
    for (const mark of marks) {
      expect(lean, mark).not.toContain(mark);
      expect(full, mark).toContain(mark);
    }
    expect(lean.length).toBeLessThan(full.length * 0.85);
  });
});

describe('validators load lazily, as their own chunks', () => {
  it('an ImClient app split by esbuild keeps every validator out of the chunks loaded at start', async () => {
    const entry = join(work, 'client-app.mjs');
    writeFileSync(
      entry,
      `import { ImClient } from ${JSON.stringify(join(builtDir, 'dist/esm/index.js'))};\nconst im = new ImClient({ baseUrl: 'http://127.0.0.1:1', appKey: 'o#a', clientId: 'i', clientSecret: 's' });\nim.users.get({ username: 'alice' }).catch(() => {});\n`,
    );
    const outdir = join(work, 'split');
    const result = await build({
      entryPoints: [entry],
      outdir,
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'node',
      splitting: true,
      metafile: true,
      logLevel: 'silent',
    });
    const outputs = result.metafile.outputs;
    // every lazy chunk is an entry point of its own too: the app's is the one built from client-app.mjs
    const entryOut = Object.keys(outputs).find((o) => outputs[o]!.entryPoint?.endsWith('client-app.mjs'))!;
    const atStart = new Set<string>();
    const walk = (o: string) => {
      if (atStart.has(o)) return;
      atStart.add(o);
      for (const i of outputs[o]!.imports) if (i.kind === 'import-statement' && !i.external) walk(i.path);
    };
    walk(entryOut);
    const fromValidators = (o: string) =>
      Object.keys(outputs[o]!.inputs).filter((i) => /validators\/(usersGet|messagesSend)\.js$/.test(i));
    expect([...atStart].flatMap(fromValidators)).toEqual([]);
    const lazy = Object.keys(outputs).filter((o) => !atStart.has(o) && o.endsWith('.js'));
    expect(lazy.length).toBeGreaterThanOrEqual(178);
    expect(lazy.some((o) => fromValidators(o).length > 0)).toBe(true);
    // the code loaded at start reaches each operation's validator by a dynamic import
    const dynamic = [...atStart].flatMap((o) => outputs[o]!.imports.filter((i) => i.kind === 'dynamic-import'));
    expect(dynamic.length).toBeGreaterThanOrEqual(178);
  });
});

describe('shared chunks keep the entries apart', () => {
  it('the built callbacks/edge entry reaches no Node built-in through a chunk it shares with the Node entries', async () => {
    const edge = await build({
      entryPoints: [join(builtDir, 'dist/esm/callbacks-edge.js')],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      logLevel: 'silent',
    });
    expect(edge.outputFiles[0]!.text).not.toMatch(/node:(crypto|net|dns|http)/);
    // the check can fail: the Node entry, built the same way, cannot be bundled for the browser
    await expect(
      build({
        entryPoints: [join(builtDir, 'dist/esm/callbacks.js')],
        bundle: true,
        format: 'esm',
        platform: 'browser',
        write: false,
        logLevel: 'silent',
      }),
    ).rejects.toThrow(/node:(crypto|net|dns)/);
  });
});
