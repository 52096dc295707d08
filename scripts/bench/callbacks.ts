/**
 * 6. Callback verification: verifyCallback + parse vs bare createHmac + compare + JSON.parse
 * over the same signed bytes (the floor), 1-event and 100-event requests, in a child process
 * (scripts/bench/callbacks-worker.ts), with each step of both timed alone to explain the gap.
 */
import { join } from 'node:path';
import { BENCH_DIR, runJsonChild, tempDir } from './lib.js';

export interface CallbackCase {
  bytes: number;
  iterations: number;
  rounds: number;
  /** Median wall time per verification, ns. */
  floorNs: number;
  oursNs: number;
  /** Median CPU time of the measuring process per verification, ns (waiting for a core excluded). */
  floorCpuNs: number;
  oursCpuNs: number;
  /** Each step alone, median ns (the floor's parts, then ours; see callbacks-worker.ts). */
  steps: { name: string; ns: number; cpuNs: number }[];
  floorRuns: number[];
  oursRuns: number[];
  floorCpuRuns: number[];
  oursCpuRuns: number[];
}
export interface CallbacksResult {
  events1: CallbackCase;
  events100: CallbackCase;
}

export async function benchCallbacks(opts: {
  pkgDir: string;
  rounds: number;
  iter1: number;
  iter100: number;
}): Promise<CallbacksResult> {
  // The runtime's verify steps, bundled from source for plain node (no loader in the measured child).
  const esbuild = await import('esbuild');
  const stepsFile = join(tempDir('callback-steps'), 'callbacks-steps.mjs');
  await esbuild.build({
    entryPoints: [join(BENCH_DIR, 'callbacks-steps.ts')],
    outfile: stepsFile,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    bundle: true,
    logLevel: 'error',
  });
  return runJsonChild<CallbacksResult>('callbacks-worker.ts', [
    join(opts.pkgDir, 'dist/esm/callbacks.js'),
    stepsFile,
    String(opts.rounds),
    String(opts.iter1),
    String(opts.iter100),
  ]);
}
