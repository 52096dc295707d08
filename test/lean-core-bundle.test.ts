/**
 * Issue 18: the features only some apps use are chosen by import. An app of one standalone
 * function over ImLeanCore must not bundle the node:http transport, proxy support or the fleet
 * quota (a static import of one of them from the lean graph would bring it back silently); the
 * same app over ImCore does bundle them, so the check can tell the two apart.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/seed.js';

const dir = mkdtempSync(join(tmpdir(), 'lean-bundle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const funcs = JSON.stringify(join(repoRoot, 'generated/src/funcs/index.ts'));
const LEFT_OUT =
  /internal\/(transport\/(node-http|node-builtins|node-options|node-response|node-proxy|choose|idle-drop-agent)|quota-control|gcra|full-features)\.ts$|stores\/quota-store\.ts$/;

/** The source modules a minified esbuild bundle of `code` carries (bytes > 0): all, and those loaded at start. */
async function bundledModules(name: string, code: string): Promise<string[]> {
  return (await bundle(name, code)).all;
}

async function bundle(name: string, code: string): Promise<{ all: string[]; atStart: string[] }> {
  const entry = join(dir, `${name}.mjs`);
  writeFileSync(entry, code);
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    write: false,
    splitting: true,
    outdir: join(dir, name),
    format: 'esm',
    platform: 'node',
    target: 'node20',
    metafile: true,
    logLevel: 'error',
  });
  const outputs = result.metafile.outputs;
  const modulesOf = (o: (typeof outputs)[string]) =>
    Object.entries(o.inputs)
      .filter(([, v]) => v.bytesInOutput > 0)
      .map(([p]) => p);
  // at start: the entry's output and what it imports statically, transitively (not dynamic imports)
  const start = new Set(Object.keys(outputs).filter((o) => outputs[o]!.entryPoint?.endsWith(`${name}.mjs`)));
  for (const o of start)
    for (const i of outputs[o]!.imports) if (i.kind === 'import-statement' && outputs[i.path]) start.add(i.path);
  return {
    all: Object.values(outputs).flatMap(modulesOf),
    atStart: [...start].flatMap((o) => modulesOf(outputs[o]!)),
  };
}

const app = (core: string) => `import { ${core}, usersGet } from ${funcs};
const core = new ${core}({ baseUrl: process.env.BASE, appKey: 'o#a', clientId: 'c', clientSecret: 's' });
console.log(await usersGet(core, { username: 'alice' }));`;

describe('features chosen by import', () => {
  it('a one-operation app over ImLeanCore leaves out node:http, proxy and the fleet quota; over ImCore it has them', async () => {
    const lean = await bundledModules('lean', app('ImLeanCore'));
    const full = await bundledModules('full', app('ImCore'));
    expect(lean.some((p) => p.endsWith('core/lean-core.ts'))).toBe(true);
    expect(lean.some((p) => p.endsWith('internal/transport/fetch.ts'))).toBe(true);
    expect(lean.filter((p) => LEFT_OUT.test(p))).toEqual([]);
    expect(
      full
        .filter((p) => LEFT_OUT.test(p))
        .map((p) => p.replace(/^.*src\//, ''))
        .sort(),
    ).toEqual([
      'internal/full-features.ts',
      'internal/gcra.ts',
      'internal/quota-control.ts',
      'internal/transport/choose.ts',
      'internal/transport/idle-drop-agent.ts',
      'internal/transport/node-builtins.ts',
      'internal/transport/node-http.ts',
      'internal/transport/node-options.ts',
      'internal/transport/node-proxy.ts',
      'internal/transport/node-response.ts',
      'stores/quota-store.ts',
    ]);
  }, 60_000);

  it('a call that succeeds first time loads none of what follows a failed attempt: that is a lazy chunk', async () => {
    const { all, atStart } = await bundle('lazy', app('ImLeanCore'));
    const failurePath = /(internal\/(after-attempt|retry-decision)|core\/error-from-response)\.ts$/;
    expect(atStart.filter((p) => failurePath.test(p))).toEqual([]);
    expect(
      all
        .filter((p) => failurePath.test(p))
        .map((p) => p.replace(/^.*src\//, ''))
        .sort(),
    ).toEqual(['core/error-from-response.ts', 'internal/after-attempt.ts', 'internal/retry-decision.ts']);
  }, 60_000);
});
