/**
 * Issue 20, "done when": a quota server of R requests/s (own process, 127.0.0.1; 429 with
 * Retry-After above it), 4 client processes × concurrency 50, one real redis-server for the
 * token and the quota stores. With the shared limiter at 0.9 R: 429s under 1 % of requests and
 * throughput ≥ 0.85 R, counted by the server in the measured window. Without it: the figures
 * as they are, reported and only sanity-checked.
 *
 * R = 100: on this 2-core machine shared with other work (load average 15-20 while this was
 * written), 4 processes of the generated client carried about 200 calls/s in all with nothing
 * limiting them; R = 100 keeps the limiter, not the CPU, the thing that sets the pace, with 2×
 * margin. `npm run bench` (section quota) runs the same harness at a higher R for longer.
 */
import { describe, expect, it } from 'vitest';
import { runQuotaFleet, type QuotaFleetRow } from '../fixtures/quota/quota-fleet.js';

const R = 100;
const base = { quotaPerSecond: R, processes: 4, concurrency: 50, warmupMs: 1_500, measureMs: 4_000 };
const show = (label: string, r: QuotaFleetRow): void =>
  console.info(
    `${label}: ${r.requests} requests in ${r.measuredS} s, 429 ${r.rateLimitedPct.toFixed(2)} %, throughput ${r.throughputPerS.toFixed(1)}/s = ${r.ofQuota.toFixed(3)} R; Redis commands per attempt ${r.redisCommandsPerCall.toFixed(2)}`,
  );

describe('a fleet of 4 processes against a per-application quota (issue 20)', () => {
  it('with the shared limiter at 0.9 R: under 1 % 429s, at least 0.85 R through', async () => {
    const row = await runQuotaFleet({ ...base, limiterPerSecond: 0.9 * R });
    show('shared limiter 0.9 R', row);
    expect(row.requests).toBeGreaterThan(0);
    expect(row.rateLimitedPct).toBeLessThan(1);
    expect(row.ofQuota).toBeGreaterThanOrEqual(0.85);
    expect(row.ofQuota).toBeLessThanOrEqual(1); // the limiter, not luck, kept it under R
    expect(row.clientCounters.throttled).toBe(0);
    // one reservation per attempt, plus the token store's few and the background gate reads
    expect(row.redisCommandsPerCall).toBeLessThan(1.5);
  }, 90_000);

  it('without it (each process learns the quota alone): reported, sanity only', async () => {
    const row = await runQuotaFleet({ ...base, limiterPerSecond: undefined });
    show('no limiter', row);
    expect(row.requests).toBeGreaterThan(0);
    expect(row.clientCounters.rateLimited).toBeGreaterThan(0); // 200 lanes against R/s: they do hit the quota
  }, 90_000);

  it('Redis stopped mid-run: every process goes on at its own share of the rate, none hangs', async () => {
    // the store dies 2 s into a 6 s run; each client then limits on its own at rate ÷ the 4
    // processes the store last counted, and keeps its App Token from memory
    const row = await runQuotaFleet({ ...base, measureMs: 4_500, limiterPerSecond: 0.9 * R, stopRedisAfterMs: 2_000 });
    const after = row.afterRedisStop!;
    show('shared limiter 0.9 R, Redis stopped at 2 s', row);
    console.info(
      `after the stop: ${after.requests} requests in ${after.measuredS} s, 429 ${after.rateLimitedPct.toFixed(2)} %, ${after.ofQuota.toFixed(3)} R`,
    );
    expect(row.clientCounters.storeFailures).toBeGreaterThan(0); // the clients did meet the dead store
    expect(after.requests).toBeGreaterThan(0); // still sending without it
    expect(after.ofQuota).toBeGreaterThanOrEqual(0.5); // per-process shares, not a stall
    expect(after.rateLimitedPct).toBeLessThan(5); // and still under the quota: the shares add up to 0.9 R
  }, 90_000);
});
