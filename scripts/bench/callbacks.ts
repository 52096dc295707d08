/**
 * 6. Callback verification: verifyCallback + parse vs bare createHmac + compare + JSON.parse
 * over the same signed bytes (the floor), 1-event and 100-event requests, in a child process
 * (scripts/bench/callbacks-worker.ts).
 */
import { join } from 'node:path';
import { runJsonChild } from './lib.js';

export interface CallbackCase {
  bytes: number;
  iterations: number;
  rounds: number;
  floorNs: number;
  oursNs: number;
  floorStrictUtf8Ns: number;
  floorAsyncNs: number;
  floorKitSignatureNs: number;
  floorRuns: number[];
  oursRuns: number[];
}
export interface CallbacksResult {
  events1: CallbackCase;
  events100: CallbackCase;
}

export async function benchCallbacks(opts: { pkgDir: string; rounds: number; iter1: number; iter100: number }): Promise<CallbacksResult> {
  return runJsonChild<CallbacksResult>('callbacks-worker.ts', [join(opts.pkgDir, 'dist/esm/callbacks.js'), String(opts.rounds), String(opts.iter1), String(opts.iter100)]);
}
