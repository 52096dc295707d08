/**
 * The load test's client process (spawned by load.test.ts with `node --expose-gc --import tsx`):
 * 10,000 calls with concurrency 200 through the generated client, then one JSON line of figures
 * on stdout. It never calls process.exit: the parent checks that it exits by itself (no
 * listener, timer or socket left holding the event loop).
 *
 * env: BASE_URL, CALLS, CONCURRENCY, IDLE_MS (how long to stay idle after the load so that
 * the server's keep-alive timeout closes the idle sockets before the last measurement).
 */
import { performance } from 'node:perf_hooks';
import { ImClient, ImError } from '../../generated/src/index.js';

const CALLS = Number(process.env.CALLS ?? 10_000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 200);
const IDLE_MS = Number(process.env.IDLE_MS ?? 1_500);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

function resources(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of process.getActiveResourcesInfo()) out[r] = (out[r] ?? 0) + 1;
  return out;
}
function heapMb(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1_048_576;
}

const baselineResources = resources();
const im = new ImClient({
  baseUrl: process.env.BASE_URL!,
  appKey: 'load#app',
  clientId: 'load-client',
  clientSecret: 'load-secret',
  timeoutMs: 5_000,
});

function call(i: number): Promise<unknown> {
  switch (i % 4) {
    case 0:
      return im.users.get({ username: `q-${i}` });
    case 1:
      return im.users.update({ username: `i-${i}`, nickname: 'x' });
    case 2:
      return im.messages.send({ from: 'a', to: [`d-${i}`] });
    default:
      return im.users.setPassword({ username: `n-${i}`, password: 'correct-horse-battery' });
  }
}

async function run(
  from: number,
  count: number,
  latencies: number[] | null,
  outcomes: Map<string, number>,
): Promise<void> {
  let next = from;
  const end = from + count;
  const lane = async () => {
    while (next < end) {
      const i = next++;
      const t0 = performance.now();
      let outcome = 'ok';
      try {
        await call(i);
      } catch (err) {
        outcome =
          err instanceof ImError
            ? `${err.constructor.name}${'status' in err ? ` ${(err as { status: number }).status}` : ''}`
            : `UNTYPED ${String(err)}`;
      }
      latencies?.push(performance.now() - t0);
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, count) }, lane));
}

// Warm-up (token, validators, connection pool), then the baseline.
await run(1_000_000, 400, null, new Map());
const heapBefore = heapMb();
const latencies: number[] = [];
const outcomes = new Map<string, number>();
const started = performance.now();
await run(0, CALLS, latencies, outcomes);
const seconds = (performance.now() - started) / 1000;
const heapAfter = heapMb();
const resourcesAfterLoad = resources();
await new Promise((r) => setTimeout(r, IDLE_MS));
const resourcesAfterIdle = resources();
latencies.sort((a, b) => a - b);
const pct = (p: number) =>
  Math.round(latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]! * 10) / 10;
process.stdout.write(
  `${JSON.stringify({
    calls: latencies.length,
    seconds: Math.round(seconds * 100) / 100,
    callsPerSecond: Math.round(latencies.length / seconds),
    p50: pct(0.5),
    p99: pct(0.99),
    outcomes: Object.fromEntries(outcomes),
    heapBeforeMb: Math.round(heapBefore * 10) / 10,
    heapAfterMb: Math.round(heapAfter * 10) / 10,
    baselineResources,
    resourcesAfterLoad,
    resourcesAfterIdle,
  })}\n`,
);
