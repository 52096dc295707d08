/**
 * 8. Callback inbox (issue 19; no target, reported): events per second through `RedisInbox`
 * (append in batches + `consume` + settle: dedupe, claim, ack and processed marker in Lua) against
 * a bare Redis Streams loop of the same size (XADD per event, pipelined per batch; XREADGROUP
 * COUNT c BLOCK; XACK per entry) — the same private redis-server, the same client library
 * (node-redis, two connections each: commands + the blocking read), in this process, interleaved
 * rounds. Appending and consuming run at the same time, as in a receiver; a run ends when the
 * last event is acknowledged.
 *
 * Memory (issue 33): redis-server's `used_memory` (INFO memory) after each run minus before it,
 * ÷ the events: what the run left in Redis (ours: the done records of the ids, the emptied stream,
 * counters; bare: its stream, which it never trims). `MEMORY USAGE` would miss the keyspace's own
 * entry and expiry of a key per id, which is what the old layout paid most for. Once more for ours
 * with 36-character ids (a UUID's length) in an untimed run.
 *
 * Profile (issue 33, a miss explained): INFO commandstats of the timed runs of both, this
 * process's CPU per run, and ours step by step (inbox-profile.ts: append, then consume, each with
 * its own commandstats), which report-inbox-section.ts turns into redis-server time per event by
 * what it pays for.
 *
 * Targets (issue 33): events/s ≥ 0.9× the bare loop's, redis-server CPU per event ≤ 1.5× its,
 * ≤ 80 bytes kept per processed event id.
 */
import { fileURLToPath } from 'node:url';
import { runBare, runOurs, sampleEvents, withRedis } from './inbox-loops.js';
import { type CommandCost, measureRun, profileOf, type RunFigures } from './inbox-measure.js';
import { type PhaseProfile, profileOursByStep } from './inbox-profile.js';
import { median, round } from './lib.js';

export interface InboxRow {
  mode: 'ours' | 'bare';
  label: string;
  eventsPerSec: number;
  runsEventsPerSec: number[];
  /** redis-server CPU (user + sys, from INFO cpu before and after) per event, µs; median of the runs. */
  redisCpuUsPerEvent: number;
  /** redis-server used_memory after the run minus before ÷ events, median of the runs. */
  bytesPerEvent?: number;
  /** This process's CPU per event, µs, median of the runs. */
  nodeCpuUsPerEvent?: number;
  /** Share of a run's wall time redis-server and this process were busy (CPU ÷ wall), medians of the runs. */
  redisBusyShare?: number;
  nodeBusyShare?: number;
}
export interface InboxResult {
  events: number;
  batch: number;
  concurrency: number;
  rounds: number;
  redisVersion: string;
  /** Mean JSON size of one event, bytes. */
  eventBytes: number;
  /** Mean length of the event ids of the timed runs. */
  idLength: number;
  /** Ours, bytes kept per event with 36-character ids (one untimed run). */
  bytesPerEventLongIds: number;
  /** Ours, where redis-server's time goes (INFO commandstats over the timed runs), per event. */
  redisProfile?: CommandCost[];
  /** The bare loop's INFO commandstats over its timed runs, per event. */
  bareProfile?: CommandCost[];
  /** Ours step by step: one more run in two phases, append then consume (inbox-profile.ts). */
  steps?: PhaseProfile[];
  rows: InboxRow[];
}

function rowOf(mode: 'ours' | 'bare', label: string, runs: readonly RunFigures[]): InboxRow {
  return {
    mode,
    label,
    eventsPerSec: round(median(runs.map((r) => r.rate)), 0),
    runsEventsPerSec: runs.map((r) => round(r.rate, 0)),
    redisCpuUsPerEvent: round(median(runs.map((r) => r.cpuUs)), 1),
    bytesPerEvent: round(median(runs.map((r) => r.bytes)), 1),
    nodeCpuUsPerEvent: round(median(runs.map((r) => r.nodeCpuUs)), 1),
    redisBusyShare: round(median(runs.map((r) => (r.cpuUs * r.rate) / 1e6)), 3),
    nodeBusyShare: round(median(runs.map((r) => (r.nodeCpuUs * r.rate) / 1e6)), 3),
  };
}

export async function benchInbox(opts: {
  events: number;
  batch: number;
  concurrency: number;
  rounds: number;
  callbacksModule?: string;
}): Promise<InboxResult> {
  const mod = await import(
    opts.callbacksModule ?? fileURLToPath(new URL('../../templates/runtime/callbacks/index.ts', import.meta.url))
  );
  const { events: n, batch, concurrency } = opts;
  return withRedis(async ([c1, b1, c2, b2], redisVersion) => {
    const ours: RunFigures[] = [];
    const bare: RunFigures[] = [];
    const oursRun = async (r: number) =>
      ours.push(await measureRun(c1, () => runOurs(mod, c1, b1, { n, batch, concurrency, run: `o${r}` }), n));
    const bareRun = async (r: number) =>
      bare.push(await measureRun(c1, () => runBare(c2, b2, { n, batch, concurrency, run: `b${r}` }), n));
    // one unmeasured warm-up of each, then interleaved rounds (alternating which goes first)
    const warm = { n: Math.min(500, n), batch, concurrency };
    await runOurs(mod, c1, b1, { ...warm, run: 'warm-o' });
    await runBare(c2, b2, { ...warm, run: 'warm-b' });
    for (let r = 0; r < opts.rounds; r++) {
      await c1.sendCommand(['FLUSHALL']);
      for (const side of r % 2 === 0 ? [oursRun, bareRun] : [bareRun, oursRun]) await side(r);
    }
    await c1.sendCommand(['FLUSHALL']);
    const long = await measureRun(
      c1,
      () => runOurs(mod, c1, b1, { n, batch, concurrency, run: 'long', idLength: 36 }),
      n,
    );
    const steps = await profileOursByStep(mod, [c1, c1, b1], { n, batch, concurrency, rounds: opts.rounds });
    return {
      events: n,
      batch,
      concurrency,
      rounds: opts.rounds,
      redisVersion,
      eventBytes: round(sampleEvents(n, 'size').reduce((sum, e) => sum + JSON.stringify(e).length, 0) / n, 0),
      idLength: round(sampleEvents(n, 'o1').reduce((sum, e) => sum + e.id.length, 0) / n, 1),
      bytesPerEventLongIds: round(long.bytes, 1),
      redisProfile: profileOf(ours, n),
      bareProfile: profileOf(bare, n),
      steps,
      rows: [
        rowOf('ours', 'RedisInbox: append + consume + settle', ours),
        rowOf('bare', 'bare XADD + XREADGROUP + XACK', bare),
      ],
    };
  });
}
