/**
 * 4. Size: esbuild builds of small apps as an app would ship them (bundle, minify, tree shaking,
 * ESM, platform node, code splitting), raw and gzip (zlib level 9, each output file on its own);
 * the packed tarball of the package (`npm pack`) and whether each of its files is needed; and how
 * many generated files one optional field added to the most shared schema rewrites.
 * Apps: one operation via 'im-server-sdk/funcs' (over ImLeanCore, and over ImCore); every method of every ImClient namespace;
 * the same one operation through openapi-fetch and through @hey-api/openapi-ts's output.
 * An app's output splits into what loads at start (the entry and the chunks it imports statically)
 * and lazy chunks (reached only by a dynamic import(): our per-operation validators).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { readGeneratorInput } from '../../generator/read-inputs.js';
import { packageReach } from '../lib/package-reach.js';
import { measureSharedEdit, type SharedEditResult } from '../lib/shared-edit.js';
import { ROOT, tempDir, timedRun } from './lib.js';
import { packageComposition, type PackedTarball } from './size-package.js';

export interface SizeRow {
  app: string;
  label: string;
  /** Everything the app can load: the start chunks and every lazy chunk its live code imports. */
  minified: number;
  /** Sum of each output file's own gzip. */
  gzip: number;
  /** The entry and what it imports statically: loaded at start. */
  start: { files: number; minified: number; gzip: number };
  /** Chunks reached only through a dynamic import() that survived tree shaking. */
  lazy: { files: number; minified: number; gzip: number };
  /**
   * What a call that succeeds first time loads: the start chunks and the lazy chunks other than
   * the failure path's (the chunks reached only through the dynamic import of the steps after a
   * failed attempt, `internal/after-attempt.ts`: error classes per code, hints, the retry decision).
   */
  firstSuccess: { files: number; minified: number; gzip: number };
  /** Chunks esbuild writes for dynamic imports in code tree shaking removed: never loaded (esbuild's metafile lists only live imports). */
  neverLoaded: { files: number; minified: number };
  /** The package's validator files (validators/<operation>.js) found in the start chunks: none when validators load lazily. */
  validatorsAtStart: string[];
}

export interface SizeResult {
  rows: SizeRow[];
  methodsCalled: number;
  operations: number;
  tarball: PackedTarball | null;
  /** The one-op app built as one file (no splitting: the validator's dynamic import bundled in), the way this row was measured before issue 18. */
  oneOpSingleFile: { minified: number; gzip: number };
  /** Every source module of the one-op app, start and lazy (bytes in the minified output of a build from the package's sources). */
  oneOpInputs: { path: string; bytes: number; lazy: boolean; failure?: boolean }[];
  sharedEdit: Omit<SharedEditResult, 'changed'> & { changed: string[] };
}

type Outputs = Record<
  string,
  {
    bytes: number;
    entryPoint?: string;
    imports: { path: string; kind: string; external?: boolean }[];
    inputs: Record<string, { bytesInOutput: number }>;
  }
>;

/**
 * The outputs loaded at start (the app's entry and everything it imports statically) and those
 * loaded later (reached through a dynamic import of live code, then their static imports).
 */
function loadedOutputs(
  outputs: Outputs,
  entryFile: string,
): { atStart: Set<string>; later: Set<string>; firstSuccess: Set<string> } {
  const entry = Object.keys(outputs).find((o) => outputs[o]!.entryPoint?.endsWith(entryFile));
  if (!entry) throw new Error(`esbuild wrote no output for ${entryFile}`);
  const closure = (roots: string[], kinds: string[], into: Set<string>, skip: Set<string>) => {
    const queue = [...roots];
    while (queue.length) {
      const o = queue.pop()!;
      if (into.has(o) || skip.has(o)) continue;
      into.add(o);
      for (const i of outputs[o]!.imports)
        if (kinds.includes(i.kind) && !i.external && outputs[i.path]) queue.push(i.path);
    }
  };
  const atStart = new Set<string>();
  closure([entry], ['import-statement'], atStart, new Set());
  const later = new Set<string>();
  const dynamicRoots = (from: Iterable<string>) =>
    [...from].flatMap((o) =>
      outputs[o]!.imports.filter((i) => i.kind === 'dynamic-import' && outputs[i.path]).map((i) => i.path),
    );
  closure(dynamicRoots(atStart), ['import-statement', 'dynamic-import'], later, atStart);
  // the failure path: lazy outputs that hold the steps after a failed attempt (package chunk after-attempt-*)
  const failure = new Set(
    [...later].filter((o) =>
      Object.keys(outputs[o]!.inputs).some((i) => /(^|\/)after-attempt(-[^/]*)?\.[jt]s$/.test(i)),
    ),
  );
  const firstSuccess = new Set(atStart);
  closure(
    dynamicRoots(atStart).filter((o) => !failure.has(o)),
    ['import-statement', 'dynamic-import'],
    firstSuccess,
    new Set([...atStart, ...failure]),
  );
  for (const o of atStart) firstSuccess.add(o);
  return { atStart, later, firstSuccess };
}

/** The one-operation app over a core class of the funcs entry (features chosen by import). */
function oneOperationApp(core: 'ImLeanCore' | 'ImCore'): string {
  return `import { ${core}, usersGet } from 'im-server-sdk/funcs';
const core = new ${core}({ baseUrl: process.env.BASE, appKey: 'o#a', clientId: 'c', clientSecret: 's' });
console.log(await usersGet(core, { username: 'alice' }));`;
}

export async function benchSize(opts: {
  appsDir: string;
  esmEntry: string;
  pkgDir: string;
  heyOut: string | undefined;
  smoke: boolean;
}): Promise<SizeResult> {
  const esbuild = await import('esbuild');
  // every method of every namespace of ImClient, found on a client (the constructor sends nothing)
  const { ImClient } = await import(opts.esmEntry);
  const im = new ImClient({ baseUrl: 'http://127.0.0.1:9', appKey: 'o#a', clientId: 'c', clientSecret: 's' });
  const calls: string[] = [];
  for (const ns of Object.keys(im).sort()) {
    const obj = im[ns];
    if (!obj || typeof obj !== 'object') continue;
    const proto = Object.getPrototypeOf(obj);
    for (const m of Object.getOwnPropertyNames(proto).sort()) {
      if (m !== 'constructor' && typeof obj[m] === 'function') calls.push(`im.${ns}.${m}(p);`);
    }
  }
  const apps: Record<string, { label: string; code: string; ext: string }> = {
    'ours-one-op': {
      label:
        "ours: one operation (usersGet) via 'im-server-sdk/funcs' over ImLeanCore (App Token, retries, timeouts, 429 pause, errors, validation; sends with fetch)",
      ext: 'mjs',
      code: oneOperationApp('ImLeanCore'),
    },
    'ours-one-op-full': {
      label:
        'ours: the same over ImCore (every feature: node:http and fetch picked at run time, proxy support, fleet quota)',
      ext: 'mjs',
      code: oneOperationApp('ImCore'),
    },
    'ours-all-ops': {
      label: `ours: ImClient calling every method (${calls.length} methods, all operations + helpers)`,
      ext: 'mjs',
      code: `import { ImClient } from 'im-server-sdk';
const im = new ImClient({ baseUrl: process.env.BASE, appKey: 'o#a', clientId: 'c', clientSecret: 's' });
const p = JSON.parse(process.env.P ?? '{}');
${calls.join('\n')}`,
    },
    'openapi-fetch-one-op': {
      label: 'openapi-fetch: the same one operation (no token exchange, no validation, no retries)',
      ext: 'mjs',
      code: `import createClient from 'openapi-fetch';
const api = createClient({ baseUrl: process.env.BASE, headers: { Authorization: 'Bearer ' + process.env.TOKEN } });
console.log(await api.GET('/{org_name}/{app_name}/users/{username}', { params: { path: { org_name: 'o', app_name: 'a', username: 'alice' } } }));`,
    },
  };
  if (opts.heyOut) {
    apps['hey-api-one-op'] = {
      label: '@hey-api/openapi-ts output: the same one operation (usersGet + bundled fetch client)',
      ext: 'ts',
      code: `import { client } from ${JSON.stringify(join(opts.heyOut, 'client.gen.js'))};
import { usersGet } from ${JSON.stringify(join(opts.heyOut, 'sdk.gen.js'))};
client.setConfig({ baseUrl: process.env.BASE, auth: () => process.env.TOKEN });
console.log(await usersGet({ path: { org_name: 'o', app_name: 'a', username: 'alice' } }));`,
    };
  }
  const out = tempDir('size');
  const rows: SizeRow[] = [];
  const sum = (files: string[], pick: (f: string) => number) => files.reduce((n, f) => n + pick(f), 0);
  /** Builds one app as it would ship; its outputs sorted into loaded at start, later, never. */
  const buildApp = async (entryFile: string, code: string, splitting = true) => {
    writeFileSync(join(opts.appsDir, entryFile), code + '\n');
    const result = await esbuild.build({
      entryPoints: [join(opts.appsDir, entryFile)],
      outdir: join(out, entryFile.replace(/\.\w+$/, '')),
      outExtension: { '.js': '.mjs' },
      bundle: true,
      minify: true,
      treeShaking: true,
      splitting,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      metafile: true,
      logLevel: 'error',
      absWorkingDir: opts.appsDir,
    });
    const outputs = result.metafile.outputs as Outputs;
    const files = Object.keys(outputs).filter((o) => o.endsWith('.mjs'));
    const { atStart, later, firstSuccess } = loadedOutputs(outputs, entryFile);
    return {
      outputs,
      files,
      atStart,
      later,
      firstSuccess,
      loaded: files.filter((f) => atStart.has(f) || later.has(f)),
    };
  };
  for (const [name, app] of Object.entries(apps)) {
    const { outputs, files, atStart, later, firstSuccess, loaded } = await buildApp(
      `size-${name}.${app.ext}`,
      app.code,
    );
    const gz = new Map(files.map((f) => [f, gzipSync(readFileSync(join(opts.appsDir, f)), { level: 9 }).length]));
    const startFiles = files.filter((f) => atStart.has(f));
    const lazyFiles = files.filter((f) => later.has(f));
    const deadFiles = files.filter((f) => !atStart.has(f) && !later.has(f));
    const part = (fs: string[]) => ({
      files: fs.length,
      minified: sum(fs, (f) => outputs[f]!.bytes),
      gzip: sum(fs, (f) => gz.get(f)!),
    });
    // the package's lazy validators are files of their own (build.mjs: validators/<operation>.js); shared code is chunks/
    const validatorsAtStart = [
      ...new Set(
        startFiles
          .flatMap((f) => Object.keys(outputs[f]!.inputs))
          .filter((i) => /im-server-sdk\/dist\/esm\/validators\/[^/]+\.js$/.test(i)),
      ),
    ];
    rows.push({
      app: name,
      label: app.label,
      minified: sum(loaded, (f) => outputs[f]!.bytes),
      gzip: sum(loaded, (f) => gz.get(f)!),
      start: part(startFiles),
      lazy: part(lazyFiles),
      firstSuccess: part(files.filter((f) => firstSuccess.has(f))),
      neverLoaded: { files: deadFiles.length, minified: sum(deadFiles, (f) => outputs[f]!.bytes) },
      validatorsAtStart,
    });
  }
  const single = await buildApp('size-ours-one-op-single.mjs', apps['ours-one-op']!.code, false);
  const singleBytes = readFileSync(join(opts.appsDir, single.files[0]!));
  const oneOpSingleFile = { minified: singleBytes.length, gzip: gzipSync(singleBytes, { level: 9 }).length };
  // What takes the bytes of the one-operation app, by source module: the same app built from the
  // package's TypeScript sources (the published chunks merge modules, so they cannot say).
  const fromSources = await buildApp(
    'size-ours-one-op-sources.mjs',
    apps['ours-one-op']!.code.replace("'im-server-sdk/funcs'", JSON.stringify(join(opts.pkgDir, 'src/funcs/index.ts'))),
  );
  const oneOpInputs: SizeResult['oneOpInputs'] = fromSources.loaded
    .flatMap((f) =>
      Object.entries(fromSources.outputs[f]!.inputs).map(([path, v]) => ({
        path: path.replace(/^.*im-server-sdk\//, ''),
        bytes: v.bytesInOutput,
        lazy: !fromSources.atStart.has(f),
        failure: !fromSources.firstSuccess.has(f),
      })),
    )
    .sort((a, b) => b.bytes - a.bytes);
  let tarball: SizeResult['tarball'] = null;
  const packDir = tempDir('pack');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const packed = await timedRun(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', packDir], {
    cwd: opts.pkgDir,
  });
  if (packed.code === 0) {
    const info = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('[')))[0];
    const reach = packageReach(
      info.files.map((f: { path: string }) => f.path),
      (p) => readFileSync(join(opts.pkgDir, p), 'utf8'),
    );
    tarball = {
      size: info.size,
      unpackedSize: info.unpackedSize,
      entryCount: info.entryCount,
      orphans: reach.orphans,
      dangling: reach.dangling.map((d) => `${d.from} → ${d.to}`),
      composition: packageComposition(info.files, (p) => readFileSync(join(opts.pkgDir, p), 'utf8')),
    };
  }
  // the spec edit is generated in memory from the repository's spec (generated/ is not touched)
  const sharedEdit = await measureSharedEdit(readGeneratorInput(ROOT));
  const { operations } = await import(opts.esmEntry);
  return {
    rows,
    methodsCalled: calls.length,
    operations: Object.keys(operations).length,
    tarball,
    oneOpSingleFile,
    oneOpInputs,
    sharedEdit,
  };
}
