/**
 * `npx tsx scripts/bench/per-call-package-ab.ts <git-rev> [calls] [rounds] [--concurrency N]`: the
 * package's own CPU per users.get call at <git-rev> (A) against the working tree (B), with a stub
 * transport instead of a socket (per-call-package-ab-client.ts), medians of interleaved rounds in
 * one process, and the load average. Beside per-call-ab.ts (the whole call over loopback, where the
 * kernel and node:http take ~85 % of the CPU and a change of 1 µs drowns in the rounds' spread),
 * this isolates the package's code: a change to the hot path shows here first (issue 33).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { abArgs, cleanupTemp, loadAverages, median, ROOT, runJsonChild, tempDir } from './lib.js';

const { rev, calls, rounds, concurrency } = abArgs(
  process.argv.slice(2),
  { calls: 10_000, rounds: 16, concurrency: 50 },
  'per-call-package-ab.ts <git-rev> [calls per round, 10000] [rounds, 16] [--concurrency N, 50]',
);

const commit = execFileSync('git', ['rev-parse', '--short', rev], { cwd: ROOT, encoding: 'utf8' }).trim();
const aRoot = tempDir('package-ab');
mkdirSync(aRoot, { recursive: true });
const tar = execFileSync('git', ['archive', rev, 'generated/src'], { cwd: ROOT, maxBuffer: 1 << 30 });
execFileSync('tar', ['-x', '-C', aRoot], { input: tar });
symlinkSync(join(ROOT, 'node_modules'), join(aRoot, 'node_modules'), 'dir');
try {
  const loadBefore = loadAverages();
  const r = await runJsonChild<{ rounds: Record<'A' | 'B', number[]> }>('per-call-package-ab-client.ts', [
    aRoot,
    ROOT,
    String(calls),
    String(rounds),
    String(concurrency),
  ]);
  const a = median(r.rounds.A);
  const b = median(r.rounds.B);
  console.log(
    `package CPU per users.get call, stub transport, concurrency ${concurrency}: medians of ${rounds} interleaved rounds of ${calls} calls`,
  );
  console.log(`  load average before ${loadBefore}, after ${loadAverages()}`);
  console.log(`  A ${commit.padEnd(14)} ${a.toFixed(2)} µs   rounds: ${r.rounds.A.map((v) => v.toFixed(1)).join(' ')}`);
  console.log(`  B working tree   ${b.toFixed(2)} µs   rounds: ${r.rounds.B.map((v) => v.toFixed(1)).join(' ')}`);
  console.log(`  B − A: ${(b - a).toFixed(2)} µs/call (${(((b - a) / a) * 100).toFixed(1)} %)`);
} finally {
  cleanupTemp();
}
