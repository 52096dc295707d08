/**
 * Verify cost on the two HMAC paths of the callbacks kit: node:crypto (`im-server-sdk/callbacks`,
 * async and sync) and WebCrypto (`im-server-sdk/callbacks/edge`), on a small and a 1 MB event body.
 *   npx tsx scripts/bench/callbacks-verify-paths.ts
 * Prints microseconds per verify (median of 7 interleaved rounds); no timing is asserted anywhere.
 */
import { verifyCallback as verifyEdge } from '../../templates/runtime/callbacks/edge.js';
import { sampleCallbackBody } from '../../templates/runtime/callbacks/samples.js';
import { signCallbackRequest } from '../../templates/runtime/callbacks/sign.js';
import { verifyCallback, verifyCallbackSync } from '../../templates/runtime/callbacks/verify.js';

const SECRET = 'whsec_bench_secret_value';

function body(bytes: number): string {
  const base = sampleCallbackBody('event', { events: 1 });
  const pad = Math.max(0, bytes - JSON.stringify(base).length - 20);
  return JSON.stringify({ ...base, pad: 'x'.repeat(pad) });
}

/** Median µs per call of each path; the paths take turns within each round so load hits all alike. */
async function measure(paths: Array<[string, () => unknown]>, iterations: number): Promise<void> {
  for (const [, run] of paths) for (let i = 0; i < Math.min(200, iterations); i++) await run(); // warm-up
  const rounds = paths.map((): number[] => []);
  for (let r = 0; r < 7; r++) {
    for (const [p, [, run]] of paths.entries()) {
      const start = performance.now();
      for (let i = 0; i < iterations; i++) await run();
      rounds[p]!.push(((performance.now() - start) * 1000) / iterations);
    }
  }
  for (const [p, [name]] of paths.entries()) {
    const sorted = rounds[p]!.sort((a, b) => a - b);
    console.log(`${name.padEnd(44)} ${sorted[3]!.toFixed(1).padStart(9)} µs/verify (median of 7 rounds)`);
  }
}

for (const [label, size, iterations] of [
  ['~1 KB body', 1024, 5000],
  ['1 MB body', 1024 * 1024, 60],
] as const) {
  const signed = signCallbackRequest({ body: body(size), secrets: SECRET });
  const options = { headers: signed.headers, rawBody: new TextEncoder().encode(signed.body), secrets: SECRET };
  console.log(`${label} (${options.rawBody.byteLength} bytes), node ${process.version}`);
  await measure(
    [
      ['  node:crypto verifyCallback (async)', () => verifyCallback(options)],
      ['  node:crypto verifyCallbackSync', () => verifyCallbackSync(options)],
      ['  WebCrypto verifyCallback (edge entry)', () => verifyEdge(options)],
    ],
    iterations,
  );
}
