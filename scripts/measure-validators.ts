/**
 * `npx tsx scripts/measure-validators.ts [--runs 10]`: figures for the request validators
 * (issue 5). Not part of `npm test`. Reads generated/ (run `npm run generate` first) and builds
 * its ESM output into a temp dir (generated/dist is left alone).
 *
 * 1. Size of the emitted validator code: .ts sources in generated/src/validators, the compiled
 *    ESM .js, and gzip of the compiled code (plus the two runtime helpers they import).
 * 2. Cold import time of the client, in a fresh `node` process each run (median of --runs):
 *    the client alone; the client plus the one validator a first call loads; the client plus
 *    all 178 validators (what eager loading would cost). Time is taken inside the process
 *    around the dynamic imports (performance.now), and the whole process wall time beside it.
 * 3. Per-call validation cost: median over 200 samples of 2,000 calls each (after warm-up), of
 *    typical params: valid and invalid friends.set_settings, a valid users.create, a 100-user
 *    users.batch_create.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = join(root, 'generated');
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 10;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

function dirFiles(dir: string, ext: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(ext))
    .sort()
    .map((f) => join(dir, f));
}

function sizes(out: string) {
  const srcFiles = dirFiles(join(pkg, 'src/validators'), '.ts');
  const srcBytes = srcFiles.reduce((a, f) => a + statSync(f).size, 0);
  const jsFiles = dirFiles(join(out, 'validators'), '.js');
  const js = jsFiles.map((f) => readFileSync(f));
  const jsBytes = js.reduce((a, b) => a + b.length, 0);
  const gzEach = js.reduce((a, b) => a + gzipSync(b).length, 0);
  const helpers = ['internal/ajv-runtime.js', 'internal/ajv-formats.js', 'internal/validation-issues.js'].map((f) =>
    readFileSync(join(out, f)),
  );
  const helperBytes = helpers.reduce((a, b) => a + b.length, 0);
  const perFile = js.map((b) => b.length).sort((a, b) => a - b);
  return {
    files: srcFiles.length,
    srcBytes,
    jsBytes,
    gzEach,
    helperBytes,
    smallest: perFile[0]!,
    median: median(perFile),
    largest: perFile[perFile.length - 1]!,
  };
}

function coldImport(
  out: string,
  scenario: 'client' | 'client+one' | 'client+all',
): { inProcess: number; wall: number } {
  const index = pathToFileURL(join(out, 'index.js')).href;
  const ops = pathToFileURL(join(out, 'operations.js')).href;
  const code = [
    `const t0 = performance.now();`,
    `const m = await import(${JSON.stringify(index)});`,
    scenario === 'client+one' ? `await m.operations['users.create'].loadValidator();` : '',
    scenario === 'client+all'
      ? `const { operations } = await import(${JSON.stringify(ops)}); await Promise.all(Object.values(operations).map((o) => o.loadValidator()));`
      : '',
    `new m.ImClient({ baseUrl: 'http://127.0.0.1:1', appKey: 'o#a', clientId: 'i', clientSecret: 's' });`,
    `process.stdout.write(String(performance.now() - t0));`,
  ].join('\n');
  const started = performance.now();
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
  const wall = performance.now() - started;
  if (r.status !== 0) throw new Error(`${scenario}: ${r.stderr}`);
  return { inProcess: Number(r.stdout), wall };
}

async function perCall(out: string) {
  const load = async (name: string) =>
    (await import(pathToFileURL(join(out, 'validators', `${name}.js`)).href)) as { validate(p: unknown): unknown };
  const cases: [string, { validate(p: unknown): unknown }, unknown, boolean][] = [
    [
      'friends.set_settings valid',
      await load('friendsSetSettings'),
      { username: 'alice', friend_add_mode: 'allow_any' },
      true,
    ],
    [
      'friends.set_settings invalid (enum; issues built)',
      await load('friendsSetSettings'),
      { username: 'alice', friend_add_mode: 'sometimes' },
      false,
    ],
    ['users.create valid', await load('usersCreate'), { username: 'alice', nickname: 'Alice' }, true],
    [
      'users.batch_create valid, 100 users',
      await load('usersBatchCreate'),
      { users: Array.from({ length: 100 }, (_, i) => ({ username: `u${i}` })) },
      true,
    ],
  ];
  const rows: string[] = [];
  for (const [name, v, params, valid] of cases) {
    if ((v.validate(params) === null) !== valid) throw new Error(`${name}: unexpected result`);
    for (let i = 0; i < 20_000; i++) v.validate(params);
    const samples: number[] = [];
    const N = 2_000;
    for (let s = 0; s < 200; s++) {
      const t = process.hrtime.bigint();
      for (let i = 0; i < N; i++) v.validate(params);
      samples.push(Number(process.hrtime.bigint() - t) / N);
    }
    rows.push(
      `| ${name} | ${Math.round(median(samples))} ns | ${Math.round(samples.sort((a, b) => a - b)[Math.floor(samples.length * 0.9)]!)} ns |`,
    );
  }
  return rows;
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'im-measure-'));
  try {
    const out = join(work, 'esm');
    const config = join(work, 'tsconfig.json');
    writeFileSync(
      config,
      JSON.stringify({
        extends: join(pkg, 'tsconfig.esm.json'),
        compilerOptions: { outDir: out, declaration: false, typeRoots: [join(root, 'node_modules/@types')] },
        include: [join(pkg, 'src')],
      }),
    );
    const t = performance.now();
    execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', config], { stdio: 'inherit' });
    writeFileSync(join(out, 'package.json'), '{"type":"module"}\n');
    console.log(`built generated/src as ESM into a temp dir in ${Math.round(performance.now() - t)} ms\n`);

    const s = sizes(out);
    console.log('## Size of the emitted validators');
    console.log(`| | |\n|---|---|`);
    console.log(`| modules | ${s.files} (one per operation) |`);
    console.log(`| TypeScript sources (generated/src/validators) | ${s.srcBytes} bytes (${kb(s.srcBytes)}) |`);
    console.log(
      `| compiled ESM .js | ${s.jsBytes} bytes (${kb(s.jsBytes)}); per module min ${s.smallest} / median ${s.median} / max ${s.largest} bytes |`,
    );
    console.log(`| compiled, gzip per module, summed | ${s.gzEach} bytes (${kb(s.gzEach)}) |`);
    console.log(
      `| shared helpers (ajv-runtime.js + ajv-formats.js + validation-issues.js) | ${s.helperBytes} bytes |\n`,
    );

    console.log(`## Cold import (fresh node process, median of ${RUNS}; Node ${process.version})`);
    console.log('| scenario | import time in process | process wall time |\n|---|---|---|');
    for (const scenario of ['client', 'client+one', 'client+all'] as const) {
      coldImport(out, scenario); // warm the OS file cache
      const runs = Array.from({ length: RUNS }, () => coldImport(out, scenario));
      console.log(
        `| ${scenario} | ${median(runs.map((r) => r.inProcess)).toFixed(1)} ms | ${median(runs.map((r) => r.wall)).toFixed(1)} ms |`,
      );
    }
    console.log('');
    console.log(
      '## Per-call validation cost (median and p90 of 200 samples × 2,000 calls, after 20,000 warm-up calls)',
    );
    console.log('| params | median per call | p90 |\n|---|---|---|');
    for (const row of await perCall(out)) console.log(row);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
