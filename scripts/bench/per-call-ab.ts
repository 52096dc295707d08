/**
 * `npx tsx scripts/bench/per-call-ab.ts <git-rev> [calls] [rounds] [--concurrency N]`: client CPU
 * per call and calls/s of the package at <git-rev> (A) against the working tree's generated/ (B)
 * and bare node:http, with N calls in flight (default 1), side by side in one process
 * (per-call-ab-client.ts); medians, each build's ratio to bare node:http, and the load average
 * before and after (figures taken under load only compare inside one run). For a change to the hot
 * path (issue 18): separate runs on a shared machine differ by more than the change; medians of
 * interleaved rounds in one process do not. Both builds are private copies built with the
 * package's own build script (as prepare.ts does); the server is the bench server.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import {
  abArgs,
  cleanupTemp,
  loadAverages,
  compileChildren,
  median,
  ROOT,
  runJsonChild,
  startBenchServer,
  tempDir,
  timedRun,
} from './lib.js';
import { preparePackage } from './prepare.js';

const { rev, calls, rounds, concurrency } = abArgs(
  process.argv.slice(2),
  { calls: 2_000, rounds: 12, concurrency: 1 },
  'per-call-ab.ts <git-rev> [calls per round, 2000] [rounds, 12] [--concurrency N, 1]',
);

/** generated/ as it was at `rev`, built like the working tree's copy. */
async function buildAt(revision: string): Promise<string> {
  const dir = join(tempDir('ab'), 'im-server-sdk');
  mkdirSync(dir, { recursive: true });
  const tar = execFileSync('git', ['archive', revision, 'generated'], { cwd: ROOT, maxBuffer: 1 << 30 });
  execFileSync('tar', ['-x', '--strip-components=1', '-C', dir], { input: tar });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const built = await timedRun(process.execPath, [join(dir, 'scripts/build.mjs'), '--quiet'], { cwd: dir });
  if (built.code !== 0) throw new Error(`building ${revision} failed: ${(built.stdout + built.stderr).slice(-2000)}`);
  return join(dir, 'dist/esm/index.js');
}

const commit = execFileSync('git', ['rev-parse', '--short', rev], { cwd: ROOT, encoding: 'utf8' }).trim();
const a = await buildAt(rev);
const b = await preparePackage({ smoke: false });
await compileChildren(b.appsDir, ['server.ts', 'per-call-ab-client.ts']);
const server = await startBenchServer();
try {
  const loadBefore = loadAverages();
  const r = await runJsonChild<{ rounds: Record<string, number[]>; rates: Record<string, number[]> }>(
    'per-call-ab-client.ts',
    [a, b.esmEntry, server.baseUrl, String(calls), String(rounds), '2000', String(concurrency)],
  );
  console.log(
    `users.get at concurrency ${concurrency}: medians of ${rounds} interleaved rounds of ${calls} calls, one process`,
  );
  console.log(`  load average before ${loadBefore}, after ${loadAverages()}`);
  const bareCpu = median(r.rounds['bare node:http']!);
  const bareRate = median(r.rates['bare node:http']!);
  console.log(
    `  ${''.padEnd(20)} ${'µs CPU/call'.padStart(11)} ${'calls/s'.padStart(8)}  ratio to bare (CPU, calls/s)`,
  );
  for (const [name, values] of Object.entries(r.rounds)) {
    const label = name === 'A' ? `A ${commit}` : name === 'B' ? 'B working tree' : name;
    const cpu = median(values);
    const rate = median(r.rates[name]!);
    console.log(
      `  ${label.padEnd(20)} ${cpu.toFixed(1).padStart(11)} ${rate.toFixed(0).padStart(8)}  ${(bareCpu / cpu).toFixed(2)}× ${(rate / bareRate).toFixed(2)}×   CPU rounds: ${values.map((v) => v.toFixed(0)).join(' ')}`,
    );
  }
  const ma = median(r.rounds.A!);
  const mb = median(r.rounds.B!);
  const ra = median(r.rates.A!);
  const rb = median(r.rates.B!);
  console.log(
    `  B − A: ${(mb - ma).toFixed(1)} µs CPU/call (${(((mb - ma) / ma) * 100).toFixed(1)} %), ${(((rb - ra) / ra) * 100).toFixed(1)} % calls/s`,
  );
} finally {
  await server.stop();
  cleanupTemp();
}
