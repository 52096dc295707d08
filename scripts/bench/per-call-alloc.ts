/**
 * `npx tsx scripts/bench/per-call-alloc.ts [concurrency] [calls]`: bytes allocated per users.get
 * call by ours (the working tree's generated/, built as the bench builds it) and by bare node:http,
 * and by function, from V8's sampling heap profiler with collected objects kept
 * (per-call-client.ts with IM_BENCH_ALLOC=1). Unlike CPU time, allocation does not depend on the machine's load: on
 * a shared box it shows what a hot-path change saves when the loopback A/B (per-call-ab.ts) cannot
 * (issue 33). Sampled every 256 bytes: figures are within a few %.
 */
import { cleanupTemp, compileChildren, runJsonChild, startBenchServer } from './lib.js';
import { preparePackage } from './prepare.js';

const concurrency = Number(process.argv[2] ?? 50);
const calls = Number(process.argv[3] ?? 5_000);
const prepared = await preparePackage({ smoke: false });
await compileChildren(prepared.appsDir, ['server.ts', 'per-call-client.ts']);
const server = await startBenchServer();
try {
  for (const client of ['ours', 'node-http']) {
    const r = await runJsonChild<{ bytesPerCall: number; byFunction: { name: string; bytes: number }[] }>(
      'per-call-client.ts',
      [client, String(calls), String(concurrency), '3000', server.baseUrl, prepared.esmEntry],
      { env: { ...process.env, IM_BENCH_ALLOC: '1' } },
    );
    console.log(`${client} @${concurrency}: ${Math.round(r.bytesPerCall)} bytes allocated per call (sampled)`);
    for (const f of r.byFunction.slice(0, 25)) console.log(`  ${String(Math.round(f.bytes)).padStart(6)}  ${f.name}`);
  }
} finally {
  await server.stop();
  cleanupTemp();
}
