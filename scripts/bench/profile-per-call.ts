/**
 * `npx tsx scripts/bench/profile-per-call.ts [concurrency] [calls] [clients,…]`: where per-call
 * CPU goes, for ours (node:http transport), ours without validation, ours through fetch, bare
 * node:http and bare fetch (or the comma-separated clients named), each in a fresh process under
 * `--cpu-prof` against the bench server: self time by category (node internals, package, gc, …;
 * per-call-profile.ts, as the bench's per-call section), the package's busiest functions and what
 * each pays for, and which Node functions cost ours more per call than bare node:http (what runs
 * around the package's own code: timers, promises, streams). A diagnosis for the per-call rows of bench/RESULTS.md (issues 18 and 33), not a
 * benchmark: CPU profiling slows everything down.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { compileChildren, runJsonChild, startBenchServer, tempDir } from './lib.js';
import {
  CATEGORY_LABEL,
  categoriesPerCall,
  functionTimes,
  paysFor,
  PROFILE_CATEGORIES,
  PROFILE_INTERVAL_US,
  versusBare,
  type FunctionTime,
} from './per-call-profile.js';
import { preparePackage } from './prepare.js';

const concurrency = Number(process.argv[2] ?? 50);
const calls = Number(process.argv[3] ?? 20_000);
const clients = (process.argv[4] ?? 'ours,ours-novalid,ours-fetch,node-http,fetch').split(',');
const WARMUP = 2_000;
const prepared = await preparePackage({ smoke: false });
await compileChildren(prepared.appsDir, ['server.ts', 'per-call-client.ts']);
const server = await startBenchServer();
const pkg = join(prepared.pkgDir, 'dist/esm/');
const perCall = (msTotal: number) => ((msTotal * 1000) / (calls + WARMUP)).toFixed(1);
const profiles = new Map<string, FunctionTime[]>();
try {
  for (const client of clients) {
    const dir = tempDir('profile-per-call');
    const r = await runJsonChild<{ callsPerSec: number; cpuUsPerCall: number }>(
      'per-call-client.ts',
      [client, String(calls), String(concurrency), String(WARMUP), server.baseUrl, prepared.esmEntry],
      {
        nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-interval=${PROFILE_INTERVAL_US}`],
      },
    );
    const fns = functionTimes(join(dir, readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))!), pkg);
    profiles.set(client, fns);
    console.log(
      `${client} @${concurrency}: ${Math.round(r.callsPerSec)} calls/s, ${Math.round(r.cpuUsPerCall)} µs CPU/call; under the profiler, µs per call (${calls + WARMUP} calls: warm-up and measured):`,
    );
    const byCategory = categoriesPerCall(fns, calls + WARMUP);
    for (const c of PROFILE_CATEGORIES) console.log(`  ${CATEGORY_LABEL[c]}: ${byCategory[c].toFixed(1)}`);
    if (client.startsWith('ours'))
      for (const f of fns.filter((x) => x.category === 'package').slice(0, 12))
        console.log(`    ${perCall(f.ms).padStart(5)}  ${f.name}${paysFor(f.name) ? ` (${paysFor(f.name)})` : ''}`);
  }
  const ours = profiles.get('ours');
  const bare = profiles.get('node-http');
  if (ours && bare) {
    const v = versusBare(ours, bare, calls + WARMUP, 25);
    console.log('ours − bare node:http by category (µs/call):');
    for (const c of PROFILE_CATEGORIES)
      console.log(`  ${(v.ours[c] - v.bare[c]).toFixed(2).padStart(6)}  ${CATEGORY_LABEL[c]}`);
    console.log('Node functions that cost ours more than bare node:http (µs/call: ours − bare, ours, bare):');
    for (const f of v.nodeExtra)
      console.log(
        `  ${(f.oursUs - f.bareUs).toFixed(2).padStart(6)} ${f.oursUs.toFixed(2).padStart(6)} ${f.bareUs.toFixed(2).padStart(6)}  ${f.name}`,
      );
    console.log('Node functions that cost ours less:');
    for (const f of v.nodeLess.slice(0, 10))
      console.log(
        `  ${(f.oursUs - f.bareUs).toFixed(2).padStart(6)} ${f.oursUs.toFixed(2).padStart(6)} ${f.bareUs.toFixed(2).padStart(6)}  ${f.name}`,
      );
  }
} finally {
  await server.stop();
}
