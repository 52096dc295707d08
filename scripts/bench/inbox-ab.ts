/**
 * Interleaved A/B of the Redis inbox (issue 33): `RedisInbox` of the runtime at a git revision
 * (A), of this worktree (B) and the bare Streams loop, each round in turn on one private
 * redis-server, in this process; medians of the rounds, the load average before and after, and
 * where redis-server's time went per event (INFO commandstats) for A and B.
 *
 *   npx tsx scripts/bench/inbox-ab.ts <rev> [rounds=5] [events=20000] [idLength]
 */
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { median } from './lib.js';
import { runBare, runOurs, runtimeAt, withRedis } from './inbox-loops.js';
import { type Client, measureRun, profileOf, type RunFigures } from './inbox-measure.js';

const [rev = 'HEAD', roundsArg = '5', eventsArg = '20000', idArg] = process.argv.slice(2);
const rounds = Number(roundsArg);
const n = Number(eventsArg);
const idLength = idArg === undefined ? undefined : Number(idArg);

const at = runtimeAt(rev);
try {
  const modA = await import(at.callbacks);
  const modB = await import(fileURLToPath(new URL('../../templates/runtime/callbacks/index.ts', import.meta.url)));
  const load0 = loadavg()[0]!;
  const runs: Record<'A' | 'B' | 'bare', RunFigures[]> = { A: [], B: [], bare: [] };
  await withRedis(async ([c1, b1, c2, b2]) => {
    const shape = (run: string) => ({ n, batch: 100, concurrency: 16, run, idLength });
    const sides: Record<'A' | 'B' | 'bare', (r: string) => Promise<number>> = {
      A: (r) => runOurs(modA, c1, b1, shape(`a${r}`)),
      B: (r) => runOurs(modB, c1, b1, shape(`b${r}`)),
      bare: (r) => runBare(c2 as Client, b2 as Client, shape(`x${r}`)),
    };
    for (const side of ['A', 'B', 'bare'] as const) await sides[side]('warm'); // unmeasured warm-up
    const orders = [
      ['A', 'B', 'bare'],
      ['B', 'bare', 'A'],
      ['bare', 'A', 'B'],
    ] as const;
    for (let r = 0; r < rounds; r++) {
      for (const side of orders[r % 3]!) {
        await c1.sendCommand(['FLUSHALL']);
        runs[side].push(await measureRun(c1, () => sides[side](String(r)), n));
      }
    }
  });
  const load1 = loadavg()[0]!;
  const bareRate = median(runs.bare.map((r) => r.rate));
  const bareCpu = median(runs.bare.map((r) => r.cpuUs));
  console.log(
    `inbox A/B: A = ${rev}, B = worktree; ${n} events, batch 100, concurrency 16, ${rounds} rounds${idLength ? `, ${idLength}-char ids` : ''}; load ${load0.toFixed(1)} → ${load1.toFixed(1)}`,
  );
  for (const side of ['A', 'B', 'bare'] as const) {
    const rs = runs[side];
    const rate = median(rs.map((r) => r.rate));
    const cpu = median(rs.map((r) => r.cpuUs));
    console.log(
      `${side.padEnd(4)} ${Math.round(rate)} ev/s (${(rate / bareRate).toFixed(2)}× bare; runs ${rs.map((r) => Math.round(r.rate)).join(', ')}); redis CPU ${cpu.toFixed(1)} µs/event (${(cpu / bareCpu).toFixed(2)}×); node CPU ${median(rs.map((r) => r.nodeCpuUs)).toFixed(1)} µs/event; ${median(rs.map((r) => r.bytes)).toFixed(1)} bytes/event`,
    );
  }
  for (const side of ['A', 'B'] as const)
    console.log(
      `${side} profile per event: ${profileOf(runs[side], n)
        .filter((c) => c.usPerEvent >= 0.05)
        .map((c) => `${c.command} ${c.callsPerEvent} calls ${c.usPerEvent} µs`)
        .join('; ')}`,
    );
} finally {
  rmSync(at.dir, { recursive: true, force: true });
}
