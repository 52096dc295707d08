/**
 * Interleaved A/B of the inbox's worker loop alone (issue 33: this process's CPU per event):
 * `MemoryInbox` of the runtime at a git revision (A) and of this worktree (B), one worker, a
 * handler that does nothing; CPU (user + system) and wall time per event, medians of the rounds.
 * No Redis, so the figures are the loop's own (InboxBase, inbox-run.ts) plus the memory engine.
 *
 *   npx tsx scripts/bench/inbox-run-ab.ts <rev> [rounds=7] [events=50000] [concurrency=16]
 */
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { consumeAll, runtimeAt, sampleEvents } from './inbox-loops.js';
import { median } from './lib.js';

const [rev = 'HEAD', roundsArg = '7', eventsArg = '50000', concurrencyArg = '16'] = process.argv.slice(2);
const [rounds, n, concurrency] = [Number(roundsArg), Number(eventsArg), Number(concurrencyArg)];

/** One run: n events appended in batches of 1000, then consumed; CPU and wall µs per event of the consume. */
async function run(mod: any, tag: string): Promise<{ cpuUs: number; wallUs: number }> {
  const inbox = new mod.MemoryInbox({});
  const events = sampleEvents(n, tag);
  for (let i = 0; i < n; i += 1000) await inbox.append(events.slice(i, i + 1000));
  const cpu = process.cpuUsage();
  const started = performance.now();
  await consumeAll(inbox, n, concurrency).done;
  const wallUs = ((performance.now() - started) * 1000) / n;
  const used = process.cpuUsage(cpu);
  return { cpuUs: (used.user + used.system) / n, wallUs };
}

const at = runtimeAt(rev);
try {
  const mods = {
    A: await import(at.callbacks),
    B: await import(fileURLToPath(new URL('../../templates/runtime/callbacks/index.ts', import.meta.url))),
  };
  const load0 = loadavg()[0]!;
  const runs: Record<'A' | 'B', { cpuUs: number; wallUs: number }[]> = { A: [], B: [] };
  for (const side of ['A', 'B'] as const) await run(mods[side], `warm${side}`);
  for (let r = 0; r < rounds; r++)
    for (const side of r % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const))
      runs[side].push(await run(mods[side], `${side}${r}`));
  console.log(
    `inbox run A/B: A = ${rev}, B = worktree; MemoryInbox, ${n} events, concurrency ${concurrency}, ${rounds} rounds; load ${load0.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}`,
  );
  for (const side of ['A', 'B'] as const)
    console.log(
      `${side} CPU ${median(runs[side].map((x) => x.cpuUs)).toFixed(2)} µs/event (runs ${runs[side].map((x) => x.cpuUs.toFixed(2)).join(', ')}); wall ${median(runs[side].map((x) => x.wallUs)).toFixed(2)} µs/event`,
    );
} finally {
  rmSync(at.dir, { recursive: true, force: true });
}
