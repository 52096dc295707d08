// Copied by im-openapi from templates/runtime/callbacks/simulator/simulate.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * `simulateDelivery`: drives a receiver the way seed 001 says the service does, on a
 * compressible clock, and reports what happened and what the receiver got wrong.
 *
 * Time: at time scale S every simulated wait (retry table, Retry-After, breaker pause, the 24 h
 * give-up, duplicate delays) takes 1/S of its real length, and every real millisecond counts as S
 * simulated ones (request durations included). Answer TIMEOUTS are real by default
 * (`timeoutScale` 1): the receiver's own budgets are real, and a 5 s wait compressed 1000× (5 ms)
 * would fail any receiver. The requests-per-second and concurrency limits are real too: they
 * protect the receiver, whose capacity does not compress.
 */
import { failHooksOfUnverifiedAddress } from './deliver-hook.js';
import { queueBatches } from './deliver-events.js';
import type { SimulationReport } from './report.js';
import { buildReport, observeFinal } from './run-report.js';
import { RunState } from './run-state.js';
import { runScheduler } from './scheduler.js';
import { resolveSimulation } from './resolve-simulation.js';
import type { SimulateDeliveryOptions } from './simulate-options.js';
import { verifyAddress } from './verify-address.js';

/**
 * Drives the receiver at `url` the way seed 001 says the service delivers (verification, batches,
 * retries, the breaker, duplicates, lost and truncated events, hooks) on a fast clock, then judges
 * it once its state (`stateUrl` / `observe`) settles. Signs with `imSignatureV1` by default, an
 * ASSUMED scheme (seed 001 §5 does not show the algorithm), and reads hook answers as
 * `{"decision": …}` (ASSUMED): pass `signature` (e.g. `standardWebhooksSignature`) and `hookAnswer`
 * as your receiver has them.
 */
export async function simulateDelivery(options: SimulateDeliveryOptions): Promise<SimulationReport> {
  const { urls, plan, settings, shape } = resolveSimulation(options);
  const run = new RunState(plan, urls, settings);
  // The parts of a run, in order: verify-address.ts, deliver-events.ts + deliver-hook.ts (sent by
  // scheduler.ts, each request through send-request.ts), run-report.ts.
  await Promise.all(run.addresses.map((a) => verifyAddress(run, a)));
  run.started = performance.now();
  queueBatches(run);
  if (run.addresses[0]!.state !== 'normal') failHooksOfUnverifiedAddress(run);
  await runScheduler(run);
  await Promise.all(run.lateGraces);
  const settled = await observeFinal(run);
  return buildReport(run, shape, settled);
}
