/**
 * The delivery simulator's run time (issue 19, closing note): a DEFAULT run (100 events, batches
 * of 10, 3 hooks, duplicates 10 %, time scale 1 000×, timeouts real) against a correct receiver
 * built with the kit on 127.0.0.1, repeated; reports the real time of each run, the service time
 * it covered and the requests sent, all measured here.
 *
 *   npx tsx scripts/bench/simulator.ts [--runs 5] [--time-scale 1000] [--json out.json]
 *
 * Not wired into `npm run bench` (scripts/bench/run.ts is shared): run on its own.
 */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { allow } from '../../templates/runtime/callbacks/decisions.js';
import { createNodeCallbackHandler } from '../../templates/runtime/callbacks/node.js';
import { simulateDelivery } from '../../templates/runtime/callbacks/simulator/simulate.js';
import { load1, machine, median, round, spread } from './lib.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' }, 'time-scale': { type: 'string', default: '1000' }, json: { type: 'string' } } });
const runs = Number(values.runs);
const timeScale = Number(values['time-scale']);
const SECRET = 'bench-sim-secret';

const processed = new Map<string, number>();
const handler = createNodeCallbackHandler({
  secrets: SECRET,
  logger: {},
  onEvent: (e) => void processed.set(e.id, (processed.get(e.id) ?? 0) + 1),
  onHook: () => allow(),
});
const server = createServer((req, res) => void handler(req, res));
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callbacks`;

const results: Array<{ seed: number; realMs: number; simulatedMs: number; requests: number; delivered: number; clean: boolean }> = [];
try {
  for (let i = 0; i < runs; i++) {
    processed.clear();
    const seed = 1000 + i;
    const report = await simulateDelivery({
      url,
      secret: SECRET,
      seed,
      timeScale,
      observe: () => ({ processed: Object.fromEntries(processed) }),
    });
    results.push({
      seed,
      realMs: report.realMs,
      simulatedMs: report.simulatedMs,
      requests: report.totals.requests ?? 0,
      delivered: report.totals.delivered ?? 0,
      clean: report.findings.every((f) => f.severity === 'info'),
    });
  }
} finally {
  server.closeAllConnections();
  server.close();
}

const real = results.map((r) => r.realMs);
const summary = {
  what: `simulateDelivery default run (100 events, batch 10, 3 hooks, time scale ${timeScale}×, real timeouts) against a kit receiver on 127.0.0.1`,
  command: `npx tsx scripts/bench/simulator.ts --runs ${runs} --time-scale ${timeScale}`,
  runs: results,
  medianRealMs: median(real),
  realMsSpread: spread(real),
  medianSimulatedMs: median(results.map((r) => r.simulatedMs)),
  machine: machine(),
  load1: round(load1(), 2),
};
console.log(summary.what);
console.log(`  command: ${summary.command}`);
for (const r of results) console.log(`  seed ${r.seed}: ${r.realMs} ms real, ${round(r.simulatedMs / 1000, 1)} s of service time, ${r.requests} requests, ${r.delivered} delivered, ${r.clean ? 'clean' : 'FINDINGS'}`);
console.log(`  median ${summary.medianRealMs} ms real (min ${summary.realMsSpread.min}, max ${summary.realMsSpread.max}); load average ${summary.load1} on ${summary.machine.cores} cores`);
if (values.json) writeFileSync(values.json, `${JSON.stringify(summary, null, 2)}\n`);
