/**
 * 4. Size: esbuild bundles (bundle, minify, platform node, ESM, tree shaking) of small apps, raw
 * and gzip (zlib level 9), and the packed tarball of the package (`npm pack`).
 * Apps: one operation via 'im-server-sdk/funcs'; every method of every ImClient namespace;
 * the same one operation through openapi-fetch and through @hey-api/openapi-ts's output.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { tempDir, timedRun } from './lib.js';

export interface SizeRow {
  app: string;
  label: string;
  minified: number;
  gzip: number;
}

export interface SizeResult {
  rows: SizeRow[];
  methodsCalled: number;
  tarball: { size: number; unpackedSize: number; entryCount: number } | null;
  /** Largest inputs of the one-op bundle (bytes in the minified output). */
  oneOpInputs: { path: string; bytes: number }[];
}

export async function benchSize(opts: { appsDir: string; esmEntry: string; pkgDir: string; heyOut: string | undefined; smoke: boolean }): Promise<SizeResult> {
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
      label: "ours: one operation (usersGet) via 'im-server-sdk/funcs'",
      ext: 'mjs',
      code: `import { ImCore, usersGet } from 'im-server-sdk/funcs';
const core = new ImCore({ baseUrl: process.env.BASE, appKey: 'o#a', clientId: 'c', clientSecret: 's' });
console.log(await usersGet(core, { username: 'alice' }));`,
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
  let oneOpInputs: SizeResult['oneOpInputs'] = [];
  for (const [name, app] of Object.entries(apps)) {
    const entry = join(opts.appsDir, `size-${name}.${app.ext}`);
    writeFileSync(entry, app.code + '\n');
    const outfile = join(out, `${name}.mjs`);
    const result = await esbuild.build({
      entryPoints: [entry],
      outfile,
      bundle: true,
      minify: true,
      treeShaking: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      metafile: true,
      logLevel: 'error',
      absWorkingDir: opts.appsDir,
    });
    const bytes = readFileSync(outfile);
    rows.push({ app: name, label: app.label, minified: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length });
    if (name === 'ours-one-op') {
      const inputs = result.metafile.outputs[Object.keys(result.metafile.outputs)[0]!]!.inputs;
      oneOpInputs = Object.entries(inputs)
        .map(([path, v]) => ({ path: path.replace(/^.*im-server-sdk\//, ''), bytes: v.bytesInOutput }))
        .sort((a, b) => b.bytes - a.bytes)
        .slice(0, 12);
    }
  }
  let tarball: SizeResult['tarball'] = null;
  const packDir = tempDir('pack');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const packed = await timedRun(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', packDir], { cwd: opts.pkgDir });
  if (packed.code === 0) {
    const info = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('[')))[0];
    tarball = { size: info.size, unpackedSize: info.unpackedSize, entryCount: info.entryCount };
  }
  return { rows, methodsCalled: calls.length, tarball, oneOpInputs };
}
