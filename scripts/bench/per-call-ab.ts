/**
 * `npx tsx scripts/bench/per-call-ab.ts <git-rev> [calls] [rounds]`: client CPU per call of the
 * package at <git-rev> (A) against the working tree's generated/ (B) and bare node:http, at
 * concurrency 1, side by side in one process (per-call-ab-client.ts). For a change to the hot
 * path (issue 18): separate runs on a shared machine differ by more than the change; medians of
 * interleaved rounds in one process do not. Both builds are private copies built with the
 * package's own build script (as prepare.ts does); the server is the bench server.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import {
  cleanupTemp,
  compileChildren,
  median,
  ROOT,
  runJsonChild,
  startBenchServer,
  tempDir,
  timedRun,
} from './lib.js';
import { preparePackage } from './prepare.js';

const [rev, callsArg, roundsArg] = process.argv.slice(2);
if (!rev) throw new Error('usage: per-call-ab.ts <git-rev> [calls per round, 2000] [rounds, 12]');
const calls = Number(callsArg ?? 2_000);
const rounds = Number(roundsArg ?? 12);

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
  const r = await runJsonChild<{ rounds: Record<string, number[]> }>('per-call-ab-client.ts', [
    a,
    b.esmEntry,
    server.baseUrl,
    String(calls),
    String(rounds),
    '2000',
  ]);
  console.log(
    `client CPU per users.get call at concurrency 1 (µs; median of ${rounds} interleaved rounds of ${calls} calls, one process):`,
  );
  for (const [name, values] of Object.entries(r.rounds)) {
    const label = name === 'A' ? `A ${commit}` : name === 'B' ? 'B working tree' : name;
    console.log(
      `  ${label.padEnd(20)} ${median(values).toFixed(1).padStart(6)}   rounds: ${values.map((v) => v.toFixed(0)).join(' ')}`,
    );
  }
  const ma = median(r.rounds.A!);
  const mb = median(r.rounds.B!);
  console.log(`  B − A: ${(mb - ma).toFixed(1)} µs/call (${(((mb - ma) / ma) * 100).toFixed(1)} %)`);
} finally {
  await server.stop();
  cleanupTemp();
}
