/**
 * Section 9 of RESULTS.md (the callback inbox) and its target rows, with the explanation of a
 * miss computed from the run's own profile (issue 33): redis-server time per event by step and by
 * what it pays for, the scripts' own Lua work, and how busy each side was.
 */
import type { InboxResult } from './inbox.js';
import type { BenchResults } from './results.js';
import type { PhaseProfile } from './inbox-profile.js';
import { type Push, type TargetRow, num, ratio } from './report-format.js';
type InboxRow = InboxResult['rows'][number];

/** What a command buys in each step. `shared`: work the bare loop does too. */
const PURPOSES: Readonly<Record<PhaseProfile['phase'], Readonly<Record<string, string>>>> = {
  append: {
    xadd: 'shared',
    smismember: 'dedupe',
    sismember: 'dedupe',
    exists: 'dedupe',
    sadd: 'dedupe',
  },
  consume: {
    xreadgroup: 'shared',
    xack: 'shared',
    xpending: 'ownership',
    smismember: 'duplicate check',
    sismember: 'duplicate check',
    srem: 'done records',
    sadd: 'done records',
    pexpire: 'done records',
    xtrim: 'trim',
    xdel: 'trim',
    hincrby: 'counters',
    xautoclaim: 'take',
    zrangebyscore: 'take',
    zrange: 'take',
    zrem: 'take',
    xadd: 'take',
  },
};

/** The words for each purpose in the report: what the cost pays for, and the rule behind it. */
export const PURPOSE_TEXT: Readonly<Record<string, string>> = {
  shared: 'the work the bare loop does too (XADD, XREADGROUP, XACK)',
  dedupe:
    "at append, the ids looked up in the inbox set and the retention's done sets, new ids recorded in the inbox set (callbacks seed §6.1: deduplicate by event id, records kept 7 days)",
  ownership:
    'a settle counts only for the worker that still holds the event, so a late worker whose event was taken over counts nothing twice (exactly once, §6.1); it also finds the oldest event in flight for the trim',
  'duplicate check':
    'at settle, an event appended again after its id left the inbox set is found in the done sets (§6.1)',
  'done records': 'the id moved from the inbox set to the current done set, which expires after the retention (§6.1)',
  trim: 'acknowledged entries leave the stream, which keeps only events in flight or unread (the memory rows)',
  counters: '`stats().processed`',
  take: 'due retries and events of dead workers, looked for every quarter of the visibility timeout',
  lua: "the scripts' own Lua work (arguments into Lua, tables, replies; script time less the commands it calls): what makes each step one atomic call (§4.2: stored before the 2xx; §6.1)",
  other: 'other commands (group creation, script loading, `stats()`)',
};

export interface CostLine {
  phase: PhaseProfile['phase'];
  purpose: string;
  commands: string[];
  usPerEvent: number;
}

/** Ours' redis-server time per event by step and purpose, from the step runs (commandstats; Lua = script time less its commands). */
export function costLines(steps: readonly PhaseProfile[]): CostLine[] {
  const lines: CostLine[] = [];
  const add = (phase: PhaseProfile['phase'], purpose: string, command: string, us: number) => {
    const line = lines.find((l) => l.phase === phase && l.purpose === purpose);
    if (line) {
      line.usPerEvent += us;
      if (command && !line.commands.includes(command)) line.commands.push(command);
    } else lines.push({ phase, purpose, commands: command ? [command] : [], usPerEvent: us });
  };
  for (const step of steps) {
    for (const c of step.commands) add(step.phase, PURPOSES[step.phase][c.command] ?? 'other', c.command, c.usPerEvent);
    add(step.phase, 'lua', '', step.luaUsPerEvent);
  }
  return lines.filter((l) => l.usPerEvent > 0).sort((a, b) => b.usPerEvent - a.usPerEvent);
}

/** redis-server CPU per event outside every command (network, parsing, the event loop): INFO cpu less the commandstats total. */
export function outsideCommandsUs(cpuUs: number, commandsUs: number): number {
  return cpuUs - commandsUs;
}

const us = (x: number) => `${num(x, 2)} µs`;

/** The lines that explain the inbox rows from this run's figures; `misses` names the rows that missed. */
export function explainInbox(x: InboxResult, misses: readonly string[]): string[] {
  const o = x.rows.find((row) => row.mode === 'ours')!;
  const b = x.rows.find((row) => row.mode === 'bare')!;
  const out: string[] = [];
  if (x.steps?.length) {
    const lines = costLines(x.steps);
    const byPurpose = new Map<string, number>();
    for (const l of lines) byPurpose.set(l.purpose, (byPurpose.get(l.purpose) ?? 0) + l.usPerEvent);
    const stepCpu = x.steps.reduce((s, p) => s + p.redisCpuUsPerEvent, 0);
    const counted = lines.reduce((s, l) => s + l.usPerEvent, 0);
    const bareCounted = (x.bareProfile ?? []).reduce((s, c) => s + c.usPerEvent, 0);
    const guarantees = [...byPurpose].filter(([p]) => !['shared', 'lua', 'other'].includes(p));
    out.push(
      `Ours, step by step (${x.rounds} more run(s) in two steps, medians): redis-server CPU ${us(stepCpu)} per event (${x.steps.map((s) => `${s.phase} ${us(s.redisCpuUsPerEvent)}`).join(', ')}), of which the commands and scripts count ${us(counted)} and ${us(outsideCommandsUs(stepCpu, counted))} is outside any command (reading and writing the connections, parsing the calls, the event loop; commandstats time each command by the clock, so on a busy box they also count time redis-server waited for a core, and this remainder can come out negative). The bare loop: ${us(b.redisCpuUsPerEvent)}, of which its commands ${us(bareCounted)} and ${us(outsideCommandsUs(b.redisCpuUsPerEvent, bareCounted))} outside them (${num(
        (x.bareProfile ?? []).reduce((s, c) => s + c.callsPerEvent, 0),
        2,
      )} calls per event against ours' ${num(
        x.steps.reduce(
          (s, p) =>
            s + p.scriptCallsPerEvent + p.commands.reduce((t, c) => t + c.callsPerEvent - c.inScriptCallsPerEvent, 0),
          0,
        ),
        3,
      )}).`,
      '',
      `What ours pays for, µs of redis-server time per event: the work the bare loop does too ${us(byPurpose.get('shared') ?? 0)} (the bare loop's commands: ${us(bareCounted)}); the guarantees ${us(guarantees.reduce((s, [, v]) => s + v, 0))} (${guarantees.map(([p, v]) => `${p} ${us(v)}`).join(', ')}); the scripts' own Lua work ${us(byPurpose.get('lua') ?? 0)} (${x.steps.map((s) => `${s.phase} ${us(s.luaUsPerEvent)} in ${num(s.scriptCallsPerEvent, 3)} calls`).join(', ')}).`,
      '',
      '| step | pays for | commands | µs per event |',
      '|---|---|---|---|',
      ...lines.map(
        (l) => `| ${l.phase} | ${l.purpose} | ${l.commands.join(', ') || 'Lua'} | ${num(l.usPerEvent, 2)} |`,
      ),
      '',
      ...[...byPurpose.keys()].map((p) => `- ${p}: ${PURPOSE_TEXT[p] ?? p}`),
      '',
    );
  }
  const busy = (r: typeof o) =>
    `redis-server busy ${num(100 * (r.redisBusyShare ?? NaN), 0)} % of the wall time, this process ${num(100 * (r.nodeBusyShare ?? NaN), 0)} % (${num(r.nodeCpuUsPerEvent ?? NaN, 1)} µs CPU per event; idle ${num(100 * (1 - (r.nodeBusyShare ?? NaN)), 0)} %)`;
  out.push(
    `During the timed runs (medians): ours ${busy(o)}; bare ${busy(b)}. Wall time per event: ours ${us(1e6 / o.eventsPerSec)}, bare ${us(1e6 / b.eventsPerSec)}.`,
    '',
  );
  if (misses.length)
    out.push(`Why ${misses.join(' and ')} miss${misses.length === 1 ? 'es' : ''}: ${whyInboxMisses(o, b)}`, '');
  return out;
}

/** A busy share at or above this counts as the side that sets the pace (one core's worth of work). */
const SATURATED = 0.85;

/** The miss in the run's own figures: each side's CPU difference with its sign, and which side (if any) was saturated. */
export function whyInboxMisses(o: InboxRow, b: InboxRow): string {
  const diff = (what: string, d: number) =>
    `${what} ${us(Math.abs(d))} ${d >= 0 ? 'more' : 'less'} per event than the bare loop's`;
  const cpu = `ours costs ${diff('redis-server', o.redisCpuUsPerEvent - b.redisCpuUsPerEvent)} and ${diff('this process', (o.nodeCpuUsPerEvent ?? NaN) - (b.nodeCpuUsPerEvent ?? NaN))} (the table above gives the redis-server part by what it pays for)`;
  const saturated = [
    (o.nodeBusyShare ?? 0) >= SATURATED
      ? `this process (busy ${num(100 * (o.nodeBusyShare ?? NaN), 0)} % of the wall time)`
      : '',
    (o.redisBusyShare ?? 0) >= SATURATED ? `redis-server (busy ${num(100 * (o.redisBusyShare ?? NaN), 0)} %)` : '',
  ].filter(Boolean);
  const pace = saturated.length
    ? `${saturated.join(' and ')} set${saturated.length === 1 ? 's' : ''} the pace, so its extra CPU per event is the missing throughput.`
    : `neither side was busy ${num(100 * SATURATED, 0)} % of the wall time: the run waited on round trips (latency-bound), not on CPU.`;
  return `${cpu}; ${pace}`;
}

/** Section inbox of RESULTS.md. */
export function renderInbox(r: BenchResults, p: Push): void {
  if (r.inbox) {
    const x = r.inbox;
    const misses = inboxTargets(x)
      .slice(0, 2)
      .filter((row) => row.pass === false)
      .map((row) => (row.target.includes('throughput') ? 'the throughput row' : 'the redis-server CPU row'));
    p('## 9. Callback inbox', '');
    p(
      `${num(x.events)} events (group.members_added, ${num(x.eventBytes)} bytes of JSON each on average) appended in batches of ${x.batch} while one worker consumes them (concurrency ${x.concurrency}, a handler that does nothing); a run ends when the last event is acknowledged. Ours: \`RedisInbox.append\` (one Lua script per batch: the ids looked up in the inbox's \`pending\` set and the live done sets, SADD to \`pending\`, XADD per new event) and \`consume\` (a blocking XREADGROUP on a second connection; every quarter of the visibility timeout, at most 1 s, and when a retry is due, a TAKE script: due retries, XAUTOCLAIM, XREADGROUP; per group of events finished in the same turn one ACK script (events without state changes: one ownership check by XPENDING of the consumer, the id records moved from \`pending\` to the current done set, one XACK for the group, the acked entries trimmed by one XTRIM MINID up to the oldest entry in flight and the rest by XDEL; counters once), or SETTLE for events with state changes or an ordering guard). Bare: XADD per event (the batch pipelined), XREADGROUP COUNT ${x.concurrency} BLOCK 100, JSON.parse and XACK per entry (no dedupe, no retry, no marker). Same private redis-server ${x.redisVersion} (no persistence), same client (node-redis, two connections each), this process; one unmeasured warm-up each, then ${x.rounds} interleaved rounds, alternating which goes first.`,
      '',
    );
    p(
      '| loop | events/s (median) | redis-server CPU per event (µs, median; INFO cpu before and after a run) | bytes kept per event (median) | events/s per run |',
      '|---|---|---|---|---|',
    );
    for (const row of x.rows)
      p(
        `| ${row.label} | ${num(row.eventsPerSec)} | ${num(row.redisCpuUsPerEvent, 1)} | ${row.bytesPerEvent === undefined ? '–' : num(row.bytesPerEvent, 1)} | ${row.runsEventsPerSec.map((v) => num(v)).join(', ')} |`,
      );
    p(
      '',
      `Bytes kept: redis-server's \`used_memory\` (INFO memory) after a run minus before it, ÷ the events — ours: the done records of the ids (one set per quarter of the retention), the emptied stream, the counters; bare: its stream, never trimmed. Ids of ${num(x.idLength, 1)} characters on average; one more untimed run of ours with 36-character ids (a UUID's length) keeps ${num(x.bytesPerEventLongIds, 1)} bytes per event.`,
      '',
    );
    if (x.redisProfile?.length)
      p(
        `Where redis-server's time goes for ours (INFO commandstats over the timed runs, µs per event; EVALSHA includes the commands its scripts call, which are listed too): ${x.redisProfile
          .filter((c) => c.usPerEvent >= 0.05)
          .map((c) => `${c.command} ${num(c.usPerEvent, 2)} µs (${num(c.callsPerEvent, 3)} calls)`)
          .join('; ')}.`,
        '',
      );
    p(...explainInbox(x, misses));
  }
}

/** Issue 33's inbox rows: throughput and redis-server CPU against the bare Streams loop, memory kept per event id. */
export function inboxTargets(x: InboxResult): TargetRow[] {
  const o = x.rows.find((row) => row.mode === 'ours')!;
  const b = x.rows.find((row) => row.mode === 'bare')!;
  const rows: TargetRow[] = [
    {
      target: '9. Callback inbox throughput on Redis ≥ 0.9× a bare XADD + XREADGROUP + XACK loop',
      measured: `${num(o.eventsPerSec)} vs ${num(b.eventsPerSec)} events/s (${ratio(o.eventsPerSec, b.eventsPerSec)})`,
      pass: o.eventsPerSec >= 0.9 * b.eventsPerSec,
    },
    {
      target: "9. Callback inbox: redis-server CPU per event ≤ 1.5× the bare loop's",
      measured: `${num(o.redisCpuUsPerEvent, 1)} vs ${num(b.redisCpuUsPerEvent, 1)} µs/event (${ratio(o.redisCpuUsPerEvent, b.redisCpuUsPerEvent)})`,
      pass: o.redisCpuUsPerEvent <= 1.5 * b.redisCpuUsPerEvent,
    },
  ];
  if (o.bytesPerEvent !== undefined) {
    rows.push({
      target: '9. Callback inbox memory ≤ 80 bytes kept per processed event id (for the retention, 7 days by default)',
      measured: `${num(o.bytesPerEvent, 1)} bytes/event with ${num(x.idLength, 1)}-character ids (redis-server used_memory after a run minus before ÷ events)`,
      pass: o.bytesPerEvent <= 80,
    });
    rows.push({
      target: '9. Callback inbox memory ≤ 80 bytes per processed event id with 36-character ids (a UUID’s length)',
      measured: `${num(x.bytesPerEventLongIds, 1)} bytes/event (ids over 13 characters are recorded by a 14-character digest)`,
      pass: x.bytesPerEventLongIds <= 80,
    });
  }
  return rows;
}
