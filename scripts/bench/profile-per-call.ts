/**
 * `npx tsx scripts/bench/profile-per-call.ts [concurrency] [calls] [clients,…]`: where per-call
 * CPU goes, for ours (node:http transport), ours without validation, ours through fetch, bare
 * node:http and bare fetch (or the comma-separated clients named), each in a fresh process under
 * `--cpu-prof` against the bench server: self time by place (node internals, undici, gc, each file
 * of the package), the package's busiest functions, and which functions of any place cost ours
 * more per call than bare node:http (what runs around the package's own code: timers, promises,
 * streams). A diagnosis for the per-call rows of bench/RESULTS.md (issues 18 and 33), not a
 * benchmark: CPU profiling slows everything down.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { compileChildren, profileSelfTime, runJsonChild, startBenchServer, tempDir } from './lib.js';
import { preparePackage } from './prepare.js';

const concurrency = Number(process.argv[2] ?? 50);
const calls = Number(process.argv[3] ?? 20_000);
const clients = (process.argv[4] ?? 'ours,ours-novalid,ours-fetch,node-http,fetch').split(',');
const prepared = await preparePackage({ smoke: false });
await compileChildren(prepared.appsDir, ['server.ts', 'per-call-client.ts']);
const server = await startBenchServer();
const pkg = join(prepared.pkgDir, 'dist/esm/');
const place = (url: string, fn: string): string =>
  fn === '(idle)'
    ? 'idle'
    : fn === '(garbage collector)'
      ? 'gc'
      : url.includes(pkg)
        ? `package ${url.slice(url.indexOf(pkg) + pkg.length)}`
        : url.includes('undici')
          ? 'undici'
          : url.startsWith('node:') || url === ''
            ? 'node internals'
            : 'other';
/** Self time per call (µs) of each function, named with its place. */
const byFunction = new Map<string, Map<string, number>>();
const fnName = (url: string, fn: string): string => {
  const where = place(url, fn);
  return `${fn || '(anonymous)'} — ${where.startsWith('package') ? where : url.replace(/^.*\/node_modules\//, '') || where}`;
};
try {
  for (const client of clients) {
    const dir = tempDir('profile-per-call');
    const r = await runJsonChild<{ callsPerSec: number; cpuUsPerCall: number }>(
      'per-call-client.ts',
      [client, String(calls), String(concurrency), '2000', server.baseUrl, prepared.esmEntry],
      {
        nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`],
      },
    );
    const file = join(dir, readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))!);
    const busy = profileSelfTime(file, place).filter((g) => g.name !== 'idle');
    console.log(
      `${client} @${concurrency}: ${Math.round(r.callsPerSec)} calls/s, ${Math.round(r.cpuUsPerCall)} µs CPU/call`,
    );
    for (const g of busy.slice(0, 10)) console.log(`  ${g.name}: ${((g.ms * 1000) / calls).toFixed(1)} µs/call`);
    byFunction.set(client, new Map(profileSelfTime(file, fnName).map((g) => [g.name, (g.ms * 1000) / calls])));
    if (client === 'ours') {
      const fns = profileSelfTime(file, (url, fn) =>
        url.includes(pkg) ? `${fn || '(anonymous)'} — ${url.slice(url.indexOf(pkg) + pkg.length)}` : '',
      )
        .filter((g) => g.name !== '')
        .slice(0, 8);
      for (const g of fns) console.log(`    ${g.name}: ${((g.ms * 1000) / calls).toFixed(1)} µs/call`);
    }
  }
  const ours = byFunction.get('ours');
  const bare = byFunction.get('node-http');
  if (ours && bare) {
    console.log('functions that cost ours more than bare node:http (µs/call, ours − bare):');
    const extra = [...ours]
      .map(([name, us]) => ({ name, us: us - (bare.get(name) ?? 0) }))
      .filter((g) => !g.name.startsWith('(idle)'))
      .sort((x, y) => y.us - x.us);
    for (const g of extra.slice(0, 25)) console.log(`  ${g.us.toFixed(2).padStart(6)}  ${g.name}`);
  }
} finally {
  await server.stop();
}
