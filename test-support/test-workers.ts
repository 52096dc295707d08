/**
 * The vitest workers of a run (vitest.config.ts's `maxWorkers`), also read by the bench's test-suite
 * section for its critical path: IM_TEST_MAX_WORKERS, else cores − 1 but at least two. vitest's own
 * default is cores − 1, ONE on the 2-core box, so the files ran one after another although most of
 * their time is I/O wait (loopback servers, redis, child processes): at load ~4 vitest took 597 s
 * with two workers against 751 s with one, all 3,032 tests passing (issue 33).
 */
import { availableParallelism } from 'node:os';

export function testWorkers(env: NodeJS.ProcessEnv = process.env, cores = availableParallelism()): number {
  return Number(env.IM_TEST_MAX_WORKERS) || Math.max(2, cores - 1);
}
