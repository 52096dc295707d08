/** RESULTS.md sections about callbacks and fleets (callbacks verify, upload, quota fleet, simulator; the inbox: report-inbox-section.ts; the test suite: report-test-suite-section.ts): target rows and text. */
import type { BenchResults } from './results.js';
import { type Push, type TargetRow, mib, ms, num, ratio } from './report-format.js';
import { type VerifyRun, verifyBreakdown, whyVerifyMisses } from './report-verify-why.js';

/** Section callbacks: its rows of the results table. */
export function callbacksRows(r: BenchResults): TargetRow[] {
  const rows: TargetRow[] = [];
  if (r.callbacks) {
    for (const [k, label] of [
      ['events1', '1 event'],
      ['events100', '100 events'],
    ] as const) {
      const c = r.callbacks[k];
      rows.push({
        target: `6. Callback verify + parse (${label}): ≤ 1.2× the bare createHmac + timingSafeEqual + JSON.parse floor, CPU time per verify (issue 18)`,
        measured: `CPU ${num(c.oursCpuNs / 1000, 2)} vs ${num(c.floorCpuNs / 1000, 2)} µs (${ratio(c.oursCpuNs, c.floorCpuNs)}); wall ${num(c.oursNs / 1000, 2)} vs ${num(c.floorNs / 1000, 2)} µs (${ratio(c.oursNs, c.floorNs)})${c.oursCpuNs <= 1.2 * c.floorCpuNs ? '' : `. Why, by this run's steps (section 6): ${whyVerifyMisses(c)}`}`,
        pass: c.oursCpuNs <= 1.2 * c.floorCpuNs,
      });
    }
  }
  return rows;
}

/** Section upload: its rows of the results table. */
export function uploadRows(r: BenchResults): TargetRow[] {
  const rows: TargetRow[] = [];
  if (r.upload) {
    const o = r.upload.rows.find((x) => x.mode === 'ours')!;
    const f = r.upload.rows.find((x) => x.mode === 'fetch')!;
    rows.push({
      target: '7. Upload of a generated source (no target: reported)',
      measured: `${num(o.mbPerSec)} MB/s vs floor ${num(f.mbPerSec)} MB/s (${ratio(o.mbPerSec, f.mbPerSec)}); peak RSS ${mib(o.peakRssMiB)}, arrayBuffers ${mib(o.peakArrayBuffersMiB)}`,
      pass: null,
    });
  }
  return rows;
}

/** Section quota: its rows of the results table. */
export function quotaRows(r: BenchResults): TargetRow[] {
  const rows: TargetRow[] = [];
  if (r.quota) {
    const [shared, none] = r.quota.rows;
    const R = r.quota.quotaPerSecond;
    rows.push({
      target: `8. Fleet of 4 processes × 50 at a quota of ${R}/s, shared limiter at 0.9 R: 429s < 1 % and throughput ≥ 0.85 R`,
      measured: `${num(shared!.rateLimitedPct, 2)} % 429 of ${num(shared!.requests)} requests; ${num(shared!.throughputPerS, 1)}/s = ${num(shared!.ofQuota, 3)} R; ${num(shared!.redisCommandsPerCall, 2)} Redis commands per attempt`,
      pass: shared!.rateLimitedPct < 1 && shared!.ofQuota >= 0.85,
    });
    rows.push({
      target: '8. The same fleet without the limiter (no target: reported)',
      measured: `${num(none!.rateLimitedPct, 2)} % 429 of ${num(none!.requests)} requests; ${num(none!.throughputPerS, 1)}/s = ${num(none!.ofQuota, 3)} R`,
      pass: null,
    });
  }
  return rows;
}

/** Section simulator: its rows of the results table. */
export function simulatorRows(r: BenchResults): TargetRow[] {
  const rows: TargetRow[] = [];
  if (r.simulator) {
    rows.push({
      target: `10. Delivery simulator run time at ${r.simulator.timeScale}× (no target: reported)`,
      measured: r.simulator.rows
        .map((x) => `${x.shape}: ${ms(x.medianRealMs)} (${num(x.delivered)} events delivered)`)
        .join('; '),
      pass: null,
    });
  }
  return rows;
}

/** Section callbacks of RESULTS.md. */
export function renderCallbacks(r: BenchResults, p: Push): void {
  if (r.callbacks) {
    const c = r.callbacks;
    p('## 6. Callback verification', '');
    p(
      'A child process signs a sample event callback (`sampleCallbackBody` + `signCallbackRequest`), then alternates batches of the floor, of ours and of each step alone over the same bytes. Floor: `createHmac("sha256", secret).update(timestamp.nonce.).update(body).digest()`, hex-decode of the header, `timingSafeEqual`, `JSON.parse`. Ours: `await verifyCallback({ headers, rawBody, secrets, now })` (header checks, signature, tolerance, strict UTF-8 decode, parse, header/body agreement) and `.body`.',
      '',
    );
    p(
      'Each variant is timed by the CPU time of the measuring process (`process.cpuUsage()`, user + system: time spent waiting for a core on a busy machine does not count) and by the wall clock; the target is read on CPU time, the cost of a verification, and wall time is given beside it. Floor, ours and each step alone take turns in slices of a few milliseconds.',
      '',
    );
    p(
      '| request | body bytes | floor CPU µs | ours CPU µs | ratio (CPU) | floor wall µs | ours wall µs | ratio (wall) | iterations × rounds | ours ÷ floor per round (CPU) |',
      '|---|---|---|---|---|---|---|---|---|---|',
    );
    for (const [k, label] of [
      ['events1', '1 event'],
      ['events100', '100 events'],
    ] as const) {
      const x = c[k];
      const perRound = x.oursCpuRuns.map((v, i) => ratio(v, x.floorCpuRuns[i] ?? NaN)).join(', ');
      p(
        `| ${label} | ${num(x.bytes)} | ${num(x.floorCpuNs / 1000, 2)} | ${num(x.oursCpuNs / 1000, 2)} | ${ratio(x.oursCpuNs, x.floorCpuNs)} | ${num(x.floorNs / 1000, 2)} | ${num(x.oursNs / 1000, 2)} | ${ratio(x.oursNs, x.floorNs)} | ${num(x.iterations)} × ${x.rounds} | ${perRound} |`,
      );
    }
    const e1 = c.events1;
    const e100 = c.events100;
    p('', '### Where the time goes: each step alone (median CPU µs, same process, in turn with the two above)', '');
    p(
      "Ours runs from the runtime's sources bundled for plain node (`scripts/bench/callbacks-steps.ts`): the very code the package carries.",
      '',
    );
    p('| step | 1 event µs | 100 events µs |', '|---|---|---|');
    for (const [i, step] of e1.steps.entries())
      p(`| ${step.name} | ${num(step.cpuNs / 1000, 2)} | ${num((e100.steps[i]?.cpuNs ?? NaN) / 1000, 2)} |`);
    const explain = (x: VerifyRun, label: string): string => {
      const b = verifyBreakdown(x);
      return `${label}: floor ${num(x.floorCpuNs / 1000, 2)} µs (its three parts alone: ${num(b.floorParts / 1000, 2)}); ours ${num(x.oursCpuNs / 1000, 2)} µs = the synchronous checks ${num(b.sync / 1000, 2)} (of which the four named steps ${num(b.named / 1000, 2)}, and ${num(b.rest / 1000, 2)} the rest: timestamp and nonce format, secrets, tolerance, header/body agreement, the result object) + the promise and await ${num(b.promise / 1000, 2)}.`;
    };
    p(
      '',
      explain(e1, '1 event'),
      '',
      explain(e100, '100 events'),
      '',
      'Each figure is a median of its own batches, so the differences carry their noise (a small negative one is noise); the per-round ratios above show how steady the main comparison was.',
      '',
    );
  }
}

/** Section upload of RESULTS.md. */
export function renderUpload(r: BenchResults, p: Push): void {
  if (r.upload) {
    const u = r.upload;
    p('## 7. Upload', '');
    p(
      `${mib(u.total / 2 ** 20)} from an async generator of 64 KiB chunks (never held whole) to the bench server (its own process; it counts the bytes and keeps none: ${num(u.serverBytes / 2 ** 20)} MiB received in all), in ${mib(u.partSize / 2 ** 20)} parts, ${u.concurrency} in flight; ${u.runs} runs each, alternating. Memory sampled every 10 ms (and at each progress callback) in the uploading process: peak RSS, peak \`process.memoryUsage().arrayBuffers\` (where part bytes live); the maxima over the runs.`,
      '',
    );
    p(
      '| client | MB/s (median) | peak RSS | RSS growth | peak arrayBuffers | parts | MB/s per run |',
      '|---|---|---|---|---|---|---|',
    );
    for (const row of u.rows)
      p(
        `| ${row.label} | ${num(row.mbPerSec)} | ${mib(row.peakRssMiB)} | ${mib(row.rssGrowthMiB)} | ${mib(row.peakArrayBuffersMiB)} | ${row.parts} | ${row.runsMbPerSec.join(', ')} |`,
      );
    p('');
  }
}

/** Section quota of RESULTS.md. */
export function renderQuota(r: BenchResults, p: Push): void {
  if (r.quota) {
    const q = r.quota;
    p('## 8. Quota at fleet scale', '');
    p(
      `A quota server (\`test/fixtures/quota/quota-server.ts\`, its own process, 127.0.0.1) lets ${q.quotaPerSecond} requests/s of the application through (a token bucket refilled at R/s holding at most R) and answers 429 with Retry-After: 1 above it. ${q.processes} client processes × concurrency ${q.concurrency} call \`users.get\` in a loop for ${num(q.warmupMs / 1000, 1)} s of warm-up + ${num(q.measureMs / 1000, 1)} s measured, sharing the App Token through RedisTokenStore on one private redis-server; with the shared limiter they also share RedisQuotaStore with \`rateLimit: { perSecond: 0.9 R }\`. Figures are the server's counts in the measured windows; ${q.runs} run(s) per row, alternating. Redis commands: counted by each client process around its Redis client (token and quota stores), per attempt sent.`,
      '',
    );
    p(
      '| row | requests | 429 | 429 % | throughput | ÷ R | Redis commands per attempt |',
      '|---|---|---|---|---|---|---|',
    );
    for (const row of q.rows)
      p(
        `| ${row.label} | ${num(row.requests)} | ${num(row.rateLimited)} | ${num(row.rateLimitedPct, 2)} | ${num(row.throughputPerS, 1)}/s | ${num(row.ofQuota, 3)} | ${num(row.redisCommandsPerCall, 2)} |`,
      );
    p('', 'Each run:', '', '| limiter | requests | 429 % | ÷ R | client outcomes |', '|---|---|---|---|---|');
    for (const s of q.samples)
      p(
        `| ${s.limiterPerSecond === null ? 'none' : `${num(s.limiterPerSecond)}/s`} | ${num(s.requests)} | ${num(s.rateLimitedPct, 2)} | ${num(s.ofQuota, 3)} | ${Object.entries(
          s.clientOutcomes,
        )
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')} |`,
      );
    p('');
  }
}

/** Section simulator of RESULTS.md. */
export function renderSimulator(r: BenchResults, p: Push): void {
  if (r.simulator) {
    const x = r.simulator;
    p('## 10. Delivery simulator', '');
    p(
      `Real time of \`simulateDelivery\` runs at ${x.timeScale}× (answer timeouts real; the requests-per-second limit is real too, so it bounds the larger shape from below) against a correct receiver built with the kit on 127.0.0.1 (verifies, deduplicates across its addresses, counts each event in memory, answers hooks allow); a fresh receiver per run; ${x.runs} round(s), the shapes interleaved; each run checked complete with every delivered event processed once before its time counts. \`default\`: the simulator's defaults; \`2000 events\`: the shape of the done-when test (test/callbacks-inbox-simulated.test.ts), receiver without Redis here.`,
      '',
    );
    p(
      '| shape | settings | real ms (median) | real ms per run | service time covered | requests | events delivered | runs with findings |',
      '|---|---|---|---|---|---|---|---|',
    );
    for (const row of x.rows)
      p(
        `| ${row.shape} | ${row.settings} | ${ms(row.medianRealMs)} | ${row.realMs.join(', ')} | ${num(row.medianSimulatedMs / 1000, 1)} s | ${num(row.requests)} | ${num(row.delivered)} | ${row.unclean} |`,
      );
    p('');
  }
}
