/**
 * The inbox section of bench/RESULTS.md (issue 33: a miss is explained by the run's own profile).
 * A small results object in, the report text out: the redis-server time by step and by what it
 * pays for, the Lua work (script time less the commands the scripts call), the busy shares, and
 * the "why it misses" line only for rows that miss.
 */
import { describe, expect, it } from 'vitest';
import type { InboxResult } from '../scripts/bench/inbox.js';
import { phaseOf } from '../scripts/bench/inbox-profile.js';
import { costLines, inboxTargets, whyInboxMisses, renderInbox } from '../scripts/bench/report-inbox-section.js';
import type { BenchResults } from '../scripts/bench/results.js';

const n = 1000;
const stats = (entries: [string, number, number][]) => new Map(entries.map(([c, calls, usec]) => [c, { calls, usec }]));
// append: 10 APPEND calls (3000 µs), each calling XADD per event and SMISMEMBER + SADD once
const append = phaseOf(
  'append',
  stats([
    ['evalsha', 10, 3000],
    ['xadd', 1000, 700],
    ['smismember', 10, 200],
    ['sadd', 10, 100],
    ['xgroup|create', 1, 5],
  ]),
  new Map([
    ['evalsha', 10],
    ['xgroup|create', 1],
  ]),
  n,
  { redisCpuUs: 4000, nodeCpuUs: 5000, wallUs: 10_000 },
);
// consume: 60 plain XREADGROUPs sent, 2 more inside the TAKE script; 62 scripts (4000 µs)
const consume = phaseOf(
  'consume',
  stats([
    ['evalsha', 62, 4000],
    ['xreadgroup', 62, 1240],
    ['xpending', 120, 500],
    ['xack', 60, 300],
    ['srem', 60, 200],
    ['sadd', 60, 400],
    ['xtrim', 60, 300],
  ]),
  new Map([
    ['evalsha', 62],
    ['xreadgroup', 60],
  ]),
  n,
  { redisCpuUs: 8000, nodeCpuUs: 30_000, wallUs: 60_000 },
);

function result(oursRate: number, oursCpu: number): InboxResult {
  return {
    events: n,
    batch: 100,
    concurrency: 16,
    rounds: 1,
    redisVersion: '7.0.15',
    eventBytes: 247,
    idLength: 11,
    bytesPerEventLongIds: 66,
    bareProfile: [
      { command: 'xadd', callsPerEvent: 1, usPerEvent: 0.7 },
      { command: 'xack', callsPerEvent: 1, usPerEvent: 0.4 },
      { command: 'xreadgroup', callsPerEvent: 0.06, usPerEvent: 1 },
    ],
    steps: [append, consume],
    rows: [
      {
        mode: 'ours',
        label: 'ours',
        eventsPerSec: oursRate,
        runsEventsPerSec: [oursRate],
        redisCpuUsPerEvent: oursCpu,
        bytesPerEvent: 65,
        nodeCpuUsPerEvent: 30,
        redisBusyShare: 0.3,
        nodeBusyShare: 0.6,
      },
      {
        mode: 'bare',
        label: 'bare',
        eventsPerSec: 50_000,
        runsEventsPerSec: [50_000],
        redisCpuUsPerEvent: 6,
        bytesPerEvent: 264,
        nodeCpuUsPerEvent: 10,
        redisBusyShare: 0.3,
        nodeBusyShare: 0.5,
      },
    ],
  };
}

function render(x: InboxResult): string {
  const lines: string[] = [];
  renderInbox({ inbox: x } as BenchResults, (...l) => lines.push(...l));
  return lines.join('\n');
}

describe('bench section: inbox', () => {
  it('splits script time into the commands called inside and the Lua work itself', () => {
    // append: every command but xgroup|create ran inside APPEND: 3000 − (700 + 200 + 100) = 2000 µs of Lua
    expect(append.luaUsPerEvent).toBe(2);
    expect(append.commands.find((c) => c.command === 'xgroup|create')?.inScriptCallsPerEvent).toBe(0);
    // consume: 2 of the 62 XREADGROUPs ran in TAKE, 40 µs pro rata; 4000 − 40 − 1700 = 2260 µs
    expect(consume.commands.find((c) => c.command === 'xreadgroup')?.inScriptUsPerEvent).toBe(0.04);
    expect(consume.luaUsPerEvent).toBe(2.26);
  });

  it('groups each step’s time by what it pays for', () => {
    const byKey = new Map(costLines([append, consume]).map((l) => [`${l.phase} ${l.purpose}`, l]));
    expect(byKey.get('append dedupe')?.usPerEvent).toBeCloseTo(0.3, 6);
    expect(byKey.get('append shared')?.commands).toEqual(['xadd']);
    expect(byKey.get('consume done records')?.usPerEvent).toBeCloseTo(0.6, 6); // SREM + SADD
    expect(byKey.get('consume ownership')?.usPerEvent).toBeCloseTo(0.5, 6);
    expect(byKey.get('consume trim')?.usPerEvent).toBeCloseTo(0.3, 6);
    expect(byKey.get('consume lua')?.usPerEvent).toBeCloseTo(2.26, 6);
    expect(byKey.get('append other')?.commands).toEqual(['xgroup|create']);
  });

  it('prints the profile, and why a row misses only when it misses', () => {
    const missing = render(result(20_000, 12));
    expect(
      inboxTargets(result(20_000, 12))
        .slice(0, 2)
        .map((r) => r.pass),
    ).toEqual([false, false]);
    // 4 + 8 µs of CPU in the two steps; commands and scripts count 3 + 4 + 1.24 (the plain XREADGROUPs, 1.2)
    expect(missing).toContain('redis-server CPU 12.00 µs per event (append 4.00 µs, consume 8.00 µs)');
    expect(missing).toContain(
      "the scripts' own Lua work 4.26 µs (append 2.00 µs in 0.010 calls, consume 2.26 µs in 0.062 calls)",
    );
    expect(missing).toContain('The bare loop: 6.00 µs, of which its commands 2.10 µs and 3.90 µs outside them');
    expect(missing).toContain('| consume | ownership | xpending | 0.50 |');
    expect(missing).toContain('- ownership: a settle counts only for the worker that still holds the event');
    expect(missing).toContain(
      'ours redis-server busy 30 % of the wall time, this process 60 % (30.0 µs CPU per event; idle 40 %)',
    );
    expect(missing).toContain(
      "Why the throughput row and the redis-server CPU row miss: ours costs redis-server 6.00 µs more per event than the bare loop's and this process 20.00 µs more per event than the bare loop's",
    );
    // busy 60 % and 30 %: neither side saturated, so the text says latency-bound, not CPU
    expect(missing).toContain('neither side was busy 85 % of the wall time: the run waited on round trips');
    const o = result(20_000, 12).rows.find((r) => r.mode === 'ours')!;
    const b = result(20_000, 12).rows.find((r) => r.mode === 'bare')!;
    const saturated = whyInboxMisses({ ...o, nodeBusyShare: 0.93 }, { ...b, nodeCpuUsPerEvent: 40 });
    expect(saturated).toContain('this process 10.00 µs less per event');
    expect(saturated).toContain('this process (busy 93 % of the wall time) sets the pace');
    const cpuOnly = render(result(48_000, 12));
    expect(cpuOnly).toContain('Why the redis-server CPU row misses:');
    expect(render(result(48_000, 8))).not.toContain('Why ');
  });
});
