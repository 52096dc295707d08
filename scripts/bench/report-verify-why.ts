/**
 * Section 6's explanation of a verify row, from the run's own steps: what the named steps, the
 * rest of the synchronous checks and the promise cost, and what each pays for.
 */
import type { BenchResults } from './results.js';
import { num, ratio } from './report-format.js';

export type VerifyRun = NonNullable<BenchResults['callbacks']>['events1'];

/** One verify row's parts, from its steps (ns): what the named steps, the rest and the promise cost. */
export function verifyBreakdown(x: VerifyRun) {
  const ns = (prefix: string) => x.steps.find((s) => s.name.startsWith(prefix))?.cpuNs ?? Number.NaN;
  const named = ns('ours: read') + ns('ours: parse X-IM') + ns('ours: HMAC') + ns('ours: strict');
  const sync = ns('ours: verifyCallbackSync');
  const floorParts = ns('floor: createHmac') + ns('floor: Buffer') + ns('floor: toString');
  return { named, sync, rest: sync - named, promise: x.oursCpuNs - sync, floorParts };
}

/** A missed verify row, explained by its own measured parts and what each pays for. */
export function whyVerifyMisses(x: VerifyRun): string {
  const b = verifyBreakdown(x);
  const us = (v: number) => `${num(v / 1000, 2)} µs`;
  return [
    `the four named steps ${us(b.named)} against the floor's three parts ${us(b.floorParts)} (headers read in one pass, the signature header parsed, strict UTF-8: seed 001 §5)`,
    `the rest of the synchronous checks ${us(b.rest)} (timestamp and nonce format, the tolerance window, header/body agreement, the result object: seed 001 §5's checks)`,
    `the promise and await ${us(b.promise)} (verifyCallback is async because a nonce store answers asynchronously: replay protection, seed 001 §5)`,
    `without the promise (verifyCallbackSync, the same checks) ${us(b.sync)} = ${ratio(b.sync, x.floorCpuNs)} the floor`,
  ].join('; ');
}
