/**
 * 8. Quota at fleet scale (issue 20): the "done when" harness of test/reliability/quota-fleet.test.ts
 * (test/fixtures/quota/) at a higher quota and for longer. A quota server of R requests/s (own
 * process), one redis-server, 4 client processes × concurrency 50 for warm-up + measured time;
 * rows with the shared limiter at 0.9 R and without it, alternating run by run. Figures come
 * from the server's counts in the measured window; the clients run the generated sources
 * (generated/src, through tsx), as the test does.
 */
import { runQuotaFleet, type QuotaFleetRow } from '../../test/fixtures/quota/quota-fleet.js';

export interface QuotaResult {
  quotaPerSecond: number;
  processes: number;
  concurrency: number;
  warmupMs: number;
  measureMs: number;
  runs: number;
  /** Every run, in the order they ran (with, without, with, …). */
  samples: QuotaFleetRow[];
  rows: QuotaRow[];
}

export interface QuotaRow {
  label: string;
  limiterPerSecond: number | null;
  requests: number;
  rateLimited: number;
  rateLimitedPct: number;
  /** 2xx per second over all its runs' measured windows, ÷ R. */
  ofQuota: number;
  throughputPerS: number;
  redisCommandsPerCall: number;
}

export async function benchQuota(o: {
  quotaPerSecond: number;
  warmupMs: number;
  measureMs: number;
  runs: number;
}): Promise<QuotaResult> {
  const base = {
    quotaPerSecond: o.quotaPerSecond,
    processes: 4,
    concurrency: 50,
    warmupMs: o.warmupMs,
    measureMs: o.measureMs,
  };
  const variants = [
    { label: 'shared limiter at 0.9 R (RedisQuotaStore + rateLimit)', limiterPerSecond: 0.9 * o.quotaPerSecond },
    { label: 'no limiter (each process learns the quota from its own 429s)', limiterPerSecond: undefined },
  ];
  const samples: QuotaFleetRow[] = [];
  for (let i = 0; i < o.runs; i++)
    for (const v of variants) samples.push(await runQuotaFleet({ ...base, limiterPerSecond: v.limiterPerSecond }));
  const rows = variants.map((v) => {
    const mine = samples.filter((s) => s.limiterPerSecond === (v.limiterPerSecond ?? null));
    const requests = mine.reduce((a, s) => a + s.requests, 0);
    const rateLimited = mine.reduce((a, s) => a + s.rateLimited, 0);
    const seconds = mine.reduce((a, s) => a + s.measuredS, 0);
    const ok = requests - rateLimited;
    const sent = mine.reduce((a, s) => a + (s.clientCounters.sent ?? 0), 0);
    return {
      label: v.label,
      limiterPerSecond: v.limiterPerSecond ?? null,
      requests,
      rateLimited,
      rateLimitedPct: requests ? (100 * rateLimited) / requests : 0,
      throughputPerS: ok / seconds,
      ofQuota: ok / seconds / o.quotaPerSecond,
      redisCommandsPerCall:
        mine.reduce((a, s) => a + s.redisCommandsPerCall * (s.clientCounters.sent ?? 0), 0) / Math.max(1, sent),
    };
  });
  return { ...base, runs: o.runs, samples, rows };
}
