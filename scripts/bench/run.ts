/**
 * `npm run bench`: every benchmark of issue 10 against its named peer in the same run, then
 * bench/RESULTS.md (regenerated, never edited by hand).
 *
 *   npm run bench                      full counts (~5–10 min on 2 cores)
 *   npm run bench -- --smoke --out <file.md> --json <file.json>
 *                                      tiny counts, for the smoke test (numbers mean nothing)
 *   npm run bench -- --only=size,cold  some sections only (the file then lacks the others)
 *   npm run bench -- --only=test-suite `npm test` once, its wall time and slowest files (never by default)
 *
 * Network: loopback only. Every server and child process is stopped; temp folders removed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { benchCallbacks } from './callbacks.js';
import { benchColdStart } from './cold-start.js';
import { benchGeneration } from './generation.js';
import { benchInbox } from './inbox.js';
import { benchSimulator } from './simulator.js';
import { cleanupTemp, compileChildren, load1, machine, ROOT, versionOf } from './lib.js';
import { benchPerCall } from './per-call.js';
import { benchQuota } from './quota.js';
import { preparePackage } from './prepare.js';
import { renderResults } from './report.js';
import type { BenchResults, Counts } from './results.js';
import { benchScale } from './scale.js';
import { benchSize } from './size.js';
import { benchTestSuite } from './test-suite.js';
import { benchTypecheck } from './typecheck.js';
import { benchUpload } from './upload.js';

export const SECTIONS = [
  'generation',
  'scale',
  'per-call',
  'cold-start',
  'size',
  'typecheck',
  'callbacks',
  'upload',
  'quota',
  'inbox',
  'simulator',
  // only when asked (--only=test-suite): the whole `npm test`, minutes long
  'test-suite',
] as const;
export type Section = (typeof SECTIONS)[number];
export type { BenchResults, Counts } from './results.js';

const FULL: Counts = {
  generationRuns: 5,
  scale: { factors: [1, 10, 30], runs: 2 },
  perCall: { count: 20_000, warmup: 2_000, reps: 3, concurrencies: [1, 50], profile: true },
  coldRuns: 11,
  typecheckRuns: 5,
  callbacks: { rounds: 9, iter1: 20_000, iter100: 400 },
  upload: { total: 200 * 2 ** 20, partSize: 8 * 2 ** 20, concurrency: 3, runs: 3 },
  quota: { quotaPerSecond: 200, warmupMs: 2_000, measureMs: 8_000, runs: 2 },
  inbox: { events: 20_000, batch: 100, concurrency: 16, rounds: 3 },
  simulator: { runs: 3, timeScale: 1000 },
};
const SMOKE: Counts = {
  generationRuns: 1,
  scale: { factors: [1, 2], runs: 1 },
  perCall: { count: 100, warmup: 10, reps: 1, concurrencies: [1, 5], profile: false },
  coldRuns: 1,
  typecheckRuns: 1,
  callbacks: { rounds: 1, iter1: 100, iter100: 5 },
  upload: { total: 3 * 2 ** 20, partSize: 2 ** 20, concurrency: 2, runs: 1 },
  quota: { quotaPerSecond: 100, warmupMs: 500, measureMs: 1_000, runs: 1 },
  inbox: { events: 300, batch: 100, concurrency: 8, rounds: 1 },
  simulator: { runs: 1, timeScale: 1000 },
};

function arg(name: string): string | undefined {
  const i = process.argv.findIndex((a) => a === name || a.startsWith(`${name}=`));
  if (i < 0) return undefined;
  const a = process.argv[i]!;
  return a.includes('=') ? a.slice(a.indexOf('=') + 1) : process.argv[i + 1];
}

async function main(): Promise<void> {
  const smoke = process.argv.includes('--smoke');
  const counts = smoke ? SMOKE : FULL;
  const out = arg('--out') ?? join(ROOT, 'bench/RESULTS.md');
  const jsonOut = arg('--json');
  const only = arg('--only')?.split(',') as Section[] | undefined;
  const want = (s: Section) => (only ? only.includes(s) : s !== 'test-suite');
  const started = Date.now();
  const log = (m: string) => console.error(`[bench ${((Date.now() - started) / 1000).toFixed(0)}s] ${m}`);

  const results: BenchResults = {
    smoke,
    startedAt: new Date(started).toISOString(),
    durationS: 0,
    command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
    machine: machine(),
    versions: {
      'im-server-sdk (generated)': versionOf('../generated'),
      'openapi-typescript': versionOf('openapi-typescript'),
      '@hey-api/openapi-ts': versionOf('@hey-api/openapi-ts'),
      'openapi-fetch': versionOf('openapi-fetch'),
      esbuild: versionOf('esbuild'),
      typescript: versionOf('typescript'),
      tsx: versionOf('tsx'),
      '@biomejs/biome (formats generated code)': versionOf('@biomejs/biome'),
    },
    counts,
    build: { ms: 0 },
    loadBySection: {},
  };
  const section = async <T>(name: Section, f: () => Promise<T>): Promise<T | undefined> => {
    if (!want(name)) return undefined;
    const before = load1();
    log(`${name}…`);
    const r = await f();
    results.loadBySection[name] = [before, load1()];
    return r;
  };

  try {
    log('building a private copy of generated/ …');
    const prepared = await preparePackage({ smoke });
    results.build = { ms: prepared.buildMs };
    await compileChildren(prepared.appsDir, [
      'server.ts',
      'per-call-client.ts',
      'callbacks-worker.ts',
      'upload-client.ts',
    ]);

    results.generation = await section('generation', () =>
      benchGeneration({ runs: counts.generationRuns, phases: !smoke }),
    );
    results.scale = await section('scale', () => benchScale({ ...counts.scale, phases: !smoke }));
    results.perCall = await section('per-call', () =>
      benchPerCall({ ...counts.perCall, esmEntry: prepared.esmEntry, pkgDir: prepared.pkgDir }),
    );
    results.coldStart = await section('cold-start', () =>
      benchColdStart({ runs: counts.coldRuns, appsDir: prepared.appsDir }),
    );
    results.size = await section('size', () =>
      benchSize({
        appsDir: prepared.appsDir,
        esmEntry: prepared.esmEntry,
        pkgDir: prepared.pkgDir,
        heyOut: results.generation?.heyOut,
        smoke,
      }),
    );
    results.typecheck = await section('typecheck', async () => {
      let schema = results.generation?.otsOut;
      if (!schema) {
        const { BIN, tempDir, timedRun } = await import('./lib.js');
        schema = join(tempDir('ots'), 'schema.d.ts');
        await timedRun(process.execPath, [BIN.openapiTypescript, join(ROOT, 'spec/openapi.yaml'), '-o', schema]);
      }
      return benchTypecheck({ runs: counts.typecheckRuns, appsDir: prepared.appsDir, otsSchema: schema });
    });
    results.callbacks = await section('callbacks', () =>
      benchCallbacks({ pkgDir: prepared.pkgDir, ...counts.callbacks }),
    );
    results.upload = await section('upload', () => benchUpload({ ...counts.upload, esmEntry: prepared.esmEntry }));
    results.quota = await section('quota', () => benchQuota(counts.quota));
    results.inbox = await section('inbox', () =>
      benchInbox({ ...counts.inbox, callbacksModule: join(prepared.pkgDir, 'dist/esm/callbacks.js') }),
    );
    results.simulator = await section('simulator', () => benchSimulator(counts.simulator));
    results.testSuite = await section('test-suite', () => benchTestSuite());
  } finally {
    cleanupTemp();
  }
  results.durationS = Math.round((Date.now() - started) / 1000);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, renderResults(results));
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify(results, null, 2) + '\n');
  log(`done in ${results.durationS} s: ${relative(ROOT, out) || out}`);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    cleanupTemp();
    process.exit(1);
  },
);
