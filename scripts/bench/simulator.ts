/**
 * 9. The delivery simulator's run time (issue 19, closing note; no target: reported): real time of
 * `simulateDelivery` runs at a time scale of 1 000× (timeouts real) against a correct receiver
 * built with the kit on 127.0.0.1 (verifies, deduplicates across its addresses, counts each event in memory; answers
 * hooks allow), in two shapes:
 *  - `default`: the simulator's defaults (100 events, batches of 10, 3 hooks, duplicates 10 %, one
 *    address, 100 requests/s);
 *  - `2000 events`: the shape of the done-when test (test/callbacks-inbox-simulated.test.ts):
 *    2 300 events (≥ 2 000 delivered after best-effort losses), two addresses, 200 requests/s each.
 * The requests-per-second limit is real (the receiver's capacity does not compress), so it bounds
 * the larger run from below: reported with it. Shapes interleaved per round; each run is checked
 * (complete, every delivered event processed once) before its time counts.
 *
 *   npm run bench -- --only simulator        (section 9 of bench/RESULTS.md)
 *   npx tsx scripts/bench/simulator.ts [--runs 3] [--time-scale 1000] [--json out.json]
 */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { allow } from '../../templates/runtime/callbacks/decisions.js';
import { createNodeCallbackHandler } from '../../templates/runtime/callbacks/node.js';
import type { NodeCallbackHandler } from '../../templates/runtime/callbacks/node.js';
import { MemoryDedupeStore } from '../../templates/runtime/stores/dedupe-store.js';
import { simulateDelivery } from '../../templates/runtime/callbacks/simulator/simulate.js';
import type { SimulateDeliveryOptions } from '../../templates/runtime/callbacks/simulator/simulate-options.js';
import { median, round, spread } from './lib.js';

const SECRETS = ['bench-sim-secret-1', 'bench-sim-secret-2'];

export interface SimulatorRow {
  shape: 'default' | '2000 events';
  /** What the shape sets beyond the defaults, as given to simulateDelivery. */
  settings: string;
  events: number;
  addresses: number;
  /** Median real ms of a run, its spread, and every run. */
  medianRealMs: number;
  realMs: number[];
  spreadMs: { min: number; max: number };
  medianSimulatedMs: number;
  requests: number;
  delivered: number;
  /** Runs whose report had a warning or error finding (a correct receiver should have none). */
  unclean: number;
}
export interface SimulatorResult {
  timeScale: number;
  runs: number;
  rows: SimulatorRow[];
}

const SHAPES: Array<{
  shape: SimulatorRow['shape'];
  settings: string;
  addresses: number;
  options: Partial<SimulateDeliveryOptions>;
}> = [
  { shape: 'default', settings: 'defaults', addresses: 1, options: {} },
  {
    shape: '2000 events',
    settings: 'events 2300, eventsPerBatch 10, ratePerSecond 200, two addresses',
    addresses: 2,
    options: { events: 2300, eventsPerBatch: 10, ratePerSecond: 200 },
  },
];

export async function benchSimulator(opts: { runs: number; timeScale: number }): Promise<SimulatorResult> {
  const processed = new Map<string, number>();
  // a fresh receiver per run (runs of one seed share event ids); one dedupe store behind both
  // addresses, since the same event id arrives on each
  let handlers: NodeCallbackHandler[] = [];
  const freshReceiver = (): void => {
    processed.clear();
    const dedupeStore = new MemoryDedupeStore();
    handlers = SECRETS.map((secret) =>
      createNodeCallbackHandler({
        secrets: secret,
        dedupeStore,
        logger: {},
        onEvent: (e) => void processed.set(e.id, (processed.get(e.id) ?? 0) + 1),
        onHook: () => allow(),
      }),
    );
  };
  const server = createServer((req, res) => void handlers[req.url === '/b' ? 1 : 0]!(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const byShape = new Map(
    SHAPES.map((s) => [
      s.shape,
      [] as Array<{
        realMs: number;
        simulatedMs: number;
        requests: number;
        delivered: number;
        clean: boolean;
        events: number;
      }>,
    ]),
  );
  try {
    for (let n = 0; n < opts.runs; n++) {
      for (const s of n % 2 === 0 ? SHAPES : [...SHAPES].reverse()) {
        freshReceiver();
        const report = await simulateDelivery({
          url: [`${base}/a`, `${base}/b`].slice(0, s.addresses),
          secret: SECRETS.slice(0, s.addresses),
          seed: 1000 + n,
          timeScale: opts.timeScale,
          observe: () => ({ processed: Object.fromEntries(processed) }),
          ...s.options,
        });
        const deliveredIds = new Set(
          report.events.filter((e) => e.deliveries.some((d) => d.state === 'delivered')).map((e) => e.id),
        );
        if (!report.complete || [...deliveredIds].some((id) => processed.get(id) !== 1))
          throw new Error(
            `simulator bench: run ${s.shape}/${n} ${report.complete ? 'complete' : 'incomplete'}; delivered events not processed exactly once: ${[...deliveredIds].filter((id) => processed.get(id) !== 1).length} of ${deliveredIds.size}; findings ${report.findings.map((f) => f.code).join(',')}`,
          );
        byShape.get(s.shape)!.push({
          realMs: report.realMs,
          simulatedMs: report.simulatedMs,
          requests: report.totals.requests ?? 0,
          delivered: deliveredIds.size,
          clean: report.findings.every((f) => f.severity === 'info'),
          events: Number(report.settings.events),
        });
      }
    }
  } finally {
    server.closeAllConnections();
    server.close();
  }
  return {
    timeScale: opts.timeScale,
    runs: opts.runs,
    rows: SHAPES.map((s) => {
      const rs = byShape.get(s.shape)!;
      const real = rs.map((r) => r.realMs);
      return {
        shape: s.shape,
        settings: s.settings,
        events: rs[0]!.events,
        addresses: s.addresses,
        medianRealMs: median(real),
        realMs: real,
        spreadMs: spread(real),
        medianSimulatedMs: median(rs.map((r) => r.simulatedMs)),
        requests: Math.round(median(rs.map((r) => r.requests))),
        delivered: Math.round(median(rs.map((r) => r.delivered))),
        unclean: rs.filter((r) => !r.clean).length,
      };
    }),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '3' },
      'time-scale': { type: 'string', default: '1000' },
      json: { type: 'string' },
    },
  });
  const result = await benchSimulator({ runs: Number(values.runs), timeScale: Number(values['time-scale']) });
  console.log(
    `simulateDelivery at ${result.timeScale}× (real timeouts), ${result.runs} interleaved rounds, against a kit receiver on 127.0.0.1`,
  );
  for (const r of result.rows) {
    console.log(
      `  ${r.shape} (${r.settings}): median ${r.medianRealMs} ms real (runs ${r.realMs.join(', ')}), ${round(r.medianSimulatedMs / 1000, 1)} s of service time, ${r.requests} requests, ${r.delivered} events delivered${r.unclean ? `, ${r.unclean} run(s) with findings` : ''}`,
    );
  }
  if (values.json) writeFileSync(values.json, `${JSON.stringify(result, null, 2)}\n`);
  process.exit(0);
}
