/**
 * Where redis-server's time goes for `RedisInbox`, step by step (issue 33: a miss explained by
 * profile). One more run of ours, in two phases: all events appended with no worker (APPEND
 * only), then one worker consumes them all (TAKE, the plain XREADGROUP, ACK). Each phase has its
 * own INFO commandstats and INFO cpu, so the time of the scripts (EVALSHA, which includes every
 * command a script calls) is split by step. The commands this process sends are counted
 * (countingClient): a command's calls beyond those were made from inside a script, and the
 * script time less those calls' time (pro rata by calls) is the Lua work itself.
 */
import { median, round } from './lib.js';
import { type Client, commandStats, redisCpuS, type Stats } from './inbox-measure.js';
import { appendAll, checkAllProcessed, consumeAll, oursInbox, sampleEvents } from './inbox-loops.js';

/** One command of a phase: all its calls, and those made from inside the scripts, per event. */
export interface PhaseCommand {
  command: string;
  callsPerEvent: number;
  usPerEvent: number;
  inScriptCallsPerEvent: number;
  inScriptUsPerEvent: number;
}

export interface PhaseProfile {
  phase: 'append' | 'consume';
  /** redis-server CPU (INFO cpu) per event, µs. */
  redisCpuUsPerEvent: number;
  /** This process's CPU per event, µs, and its wall time per event. */
  nodeCpuUsPerEvent: number;
  wallUsPerEvent: number;
  /** Script calls (EVALSHA + EVAL) per event and their time, µs per event (the commands they call included). */
  scriptCallsPerEvent: number;
  scriptUsPerEvent: number;
  /** The scripts' time less the commands they call: the Lua work itself, µs per event. */
  luaUsPerEvent: number;
  /** Every other command, most expensive first. */
  commands: PhaseCommand[];
}

const SCRIPT_COMMANDS = new Set(['evalsha', 'eval']);

/** A phase's figures from its commandstats, the commands this process sent, and its CPU and wall time. */
export function phaseOf(
  phase: PhaseProfile['phase'],
  stats: Stats,
  sent: ReadonlyMap<string, number>,
  n: number,
  measured: { redisCpuUs: number; nodeCpuUs: number; wallUs: number },
): PhaseProfile {
  let scriptCalls = 0;
  let scriptUs = 0;
  const commands: PhaseCommand[] = [];
  for (const [command, s] of stats) {
    if (SCRIPT_COMMANDS.has(command)) {
      scriptCalls += s.calls;
      scriptUs += s.usec;
      continue;
    }
    const inScript = Math.max(0, s.calls - (sent.get(command) ?? 0));
    commands.push({
      command,
      callsPerEvent: s.calls / n,
      usPerEvent: s.usec / n,
      inScriptCallsPerEvent: inScript / n,
      inScriptUsPerEvent: s.calls > 0 ? (s.usec * inScript) / s.calls / n : 0,
    });
  }
  commands.sort((a, b) => b.usPerEvent - a.usPerEvent);
  const inScriptUs = commands.reduce((sum, c) => sum + c.inScriptUsPerEvent, 0);
  return {
    phase,
    redisCpuUsPerEvent: round(measured.redisCpuUs / n, 2),
    nodeCpuUsPerEvent: round(measured.nodeCpuUs / n, 2),
    wallUsPerEvent: round(measured.wallUs / n, 2),
    scriptCallsPerEvent: round(scriptCalls / n, 4),
    scriptUsPerEvent: round(scriptUs / n, 2),
    luaUsPerEvent: round((scriptUs - inScriptUs * n) / n, 2),
    commands: commands.map((c) => ({
      command: c.command,
      callsPerEvent: round(c.callsPerEvent, 4),
      usPerEvent: round(c.usPerEvent, 3),
      inScriptCallsPerEvent: round(c.inScriptCallsPerEvent, 4),
      inScriptUsPerEvent: round(c.inScriptUsPerEvent, 3),
    })),
  };
}

/** Runs `step` as one phase: commandstats reset before, read after, with redis-server's and this process's CPU. */
async function measurePhase(
  probe: Client,
  phase: PhaseProfile['phase'],
  n: number,
  sent: Map<string, number>,
  step: () => Promise<unknown>,
): Promise<PhaseProfile> {
  await probe.sendCommand(['CONFIG', 'RESETSTAT']);
  sent.clear();
  const cpu = await redisCpuS(probe);
  const node = process.cpuUsage();
  const started = performance.now();
  await step();
  const wallUs = (performance.now() - started) * 1000;
  const nodeUsed = process.cpuUsage(node);
  const redisCpuUs = ((await redisCpuS(probe)) - cpu) * 1e6;
  return phaseOf(phase, await commandStats(probe), sent, n, {
    redisCpuUs,
    nodeCpuUs: nodeUsed.user + nodeUsed.system,
    wallUs,
  });
}

/**
 * Each field's median over runs of the same phase (commandstats count wall time inside a command:
 * a run where redis-server lost its core mid-command is an outlier the median leaves out).
 */
export function medianPhase(runs: readonly PhaseProfile[]): PhaseProfile {
  const m = (f: (p: PhaseProfile) => number) => median(runs.map(f));
  const names = [...new Set(runs.flatMap((r) => r.commands.map((c) => c.command)))];
  const of = (r: PhaseProfile, name: string) => r.commands.find((c) => c.command === name);
  const commands = names.map((command) => {
    const c = (f: (x: PhaseCommand) => number) =>
      median(
        runs.map((r) => {
          const x = of(r, command);
          return x ? f(x) : 0;
        }),
      );
    return {
      command,
      callsPerEvent: c((x) => x.callsPerEvent),
      usPerEvent: c((x) => x.usPerEvent),
      inScriptCallsPerEvent: c((x) => x.inScriptCallsPerEvent),
      inScriptUsPerEvent: c((x) => x.inScriptUsPerEvent),
    };
  });
  return {
    phase: runs[0]!.phase,
    redisCpuUsPerEvent: m((r) => r.redisCpuUsPerEvent),
    nodeCpuUsPerEvent: m((r) => r.nodeCpuUsPerEvent),
    wallUsPerEvent: m((r) => r.wallUsPerEvent),
    scriptCallsPerEvent: m((r) => r.scriptCallsPerEvent),
    scriptUsPerEvent: m((r) => r.scriptUsPerEvent),
    luaUsPerEvent: m((r) => r.luaUsPerEvent),
    commands: commands.sort((a, b) => b.usPerEvent - a.usPerEvent),
  };
}

/** `rounds` two-phase runs of ours (`mod`: a callbacks module), the redis-server flushed before each; medians by phase. */
export async function profileOursByStep(
  mod: any,
  clients: [Client, Client, Client],
  shape: { n: number; batch: number; concurrency: number; rounds: number },
): Promise<PhaseProfile[]> {
  const runs: PhaseProfile[][] = [];
  for (let r = 0; r < shape.rounds; r++) {
    await clients[0].sendCommand(['FLUSHALL']);
    runs.push(await twoPhaseRun(mod, clients, shape, `steps${r}`));
  }
  return [0, 1].map((i) => medianPhase(runs.map((phases) => phases[i]!)));
}

async function twoPhaseRun(
  mod: any,
  [probe, command, blocking]: [Client, Client, Client],
  shape: { n: number; batch: number; concurrency: number },
  run: string,
): Promise<PhaseProfile[]> {
  const sent = new Map<string, number>();
  const inbox = oursInbox(mod, command, blocking, run, sent);
  const events = sampleEvents(shape.n, run);
  const append = await measurePhase(probe, 'append', shape.n, sent, () => appendAll(inbox, events, shape.batch));
  const consume = await measurePhase(
    probe,
    'consume',
    shape.n,
    sent,
    () => consumeAll(inbox, shape.n, shape.concurrency).done,
  );
  await checkAllProcessed(inbox, shape.n);
  return [append, consume];
}
