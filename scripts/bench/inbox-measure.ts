/**
 * What one inbox bench run costs, read from redis-server itself (issue 33): INFO cpu, INFO memory
 * and INFO commandstats before and after, and this process's CPU. Also counts the commands this
 * process sends (`countingClient`), so that a command's calls made from inside the Lua scripts are
 * told apart from the same command sent directly (commandstats lumps them).
 */
import type { createClient } from 'redis';
import { round } from './lib.js';

export type Client = ReturnType<typeof createClient>;
export type Stats = Map<string, { calls: number; usec: number }>;

/** One command's share of a run (INFO commandstats): calls and µs per event; scripts include the commands they call. */
export interface CommandCost {
  command: string;
  callsPerEvent: number;
  usPerEvent: number;
}

export async function redisCpuS(client: Client): Promise<number> {
  const info = String(await client.sendCommand(['INFO', 'cpu']));
  return (
    Number(/used_cpu_user:([\d.]+)/.exec(info)?.[1] ?? NaN) + Number(/used_cpu_sys:([\d.]+)/.exec(info)?.[1] ?? NaN)
  );
}

async function usedMemory(client: Client): Promise<number> {
  return Number(/used_memory:(\d+)/.exec(String(await client.sendCommand(['INFO', 'memory'])))?.[1] ?? NaN);
}

/** INFO commandstats as command → calls and µs (since the last CONFIG RESETSTAT), without the probe's own INFO and CONFIG. */
export async function commandStats(client: Client): Promise<Stats> {
  const out: Stats = new Map();
  const text = String(await client.sendCommand(['INFO', 'commandstats']));
  for (const m of text.matchAll(/^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/gm))
    out.set(m[1]!, { calls: Number(m[2]), usec: Number(m[3]) });
  for (const name of ['info', 'config|resetstat']) out.delete(name);
  return out;
}

/** One measured run: events/s, redis-server CPU µs per event, bytes left per event, and the command profile. */
export interface RunFigures {
  rate: number;
  cpuUs: number;
  /** This process's CPU (user + system) per event, µs: the client side of the run. */
  nodeCpuUs: number;
  bytes: number;
  stats: Stats;
}

export async function measureRun(probe: Client, f: () => Promise<number>, n: number): Promise<RunFigures> {
  // memory first (withRedis turns latency tracking off, so RESETSTAT frees no histograms the run would re-allocate)
  const memory = await usedMemory(probe);
  await probe.sendCommand(['CONFIG', 'RESETSTAT']);
  const cpu = await redisCpuS(probe);
  const node = process.cpuUsage();
  const rate = await f();
  const nodeUsed = process.cpuUsage(node);
  const cpuUs = (((await redisCpuS(probe)) - cpu) * 1e6) / n;
  const bytes = ((await usedMemory(probe)) - memory) / n;
  const stats = await commandStats(probe);
  return { rate, cpuUs, nodeCpuUs: (nodeUsed.user + nodeUsed.system) / n, bytes, stats };
}

/** Calls and µs per event by command, summed over runs of `n` events each, most expensive first. */
export function profileOf(runs: readonly RunFigures[], n: number): CommandCost[] {
  const sum: Stats = new Map();
  for (const run of runs)
    for (const [command, s] of run.stats) {
      const t = sum.get(command) ?? { calls: 0, usec: 0 };
      t.calls += s.calls;
      t.usec += s.usec;
      sum.set(command, t);
    }
  const events = n * runs.length;
  return [...sum]
    .map(([command, s]) => ({
      command,
      callsPerEvent: round(s.calls / events, 3),
      usPerEvent: round(s.usec / events, 2),
    }))
    .sort((a, b) => b.usPerEvent - a.usPerEvent);
}

/** Commands with a subcommand, named as commandstats names them (`xgroup|create`). */
const CONTAINERS = new Set(['xgroup', 'config', 'script', 'client', 'memory', 'object', 'xinfo']);

/** commandstats' name of a command this process sends. */
export function statName(args: readonly string[]): string {
  const name = (args[0] ?? '').toLowerCase();
  return CONTAINERS.has(name) ? `${name}|${(args[1] ?? '').toLowerCase()}` : name;
}

/** A node-redis-like client for `fromNodeRedis` that counts, by commandstats name, what it sends through `client`. */
export function countingClient(client: Client, sent: Map<string, number>) {
  return {
    sendCommand: (args: string[]) => {
      const name = statName(args);
      sent.set(name, (sent.get(name) ?? 0) + 1);
      return client.sendCommand(args);
    },
  };
}
