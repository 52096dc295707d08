/**
 * The scheduler of a simulation run: sends what is due (hooks at their time, units by address
 * within the concurrency, rate and breaker limits), sleeps until the next due time or an answer,
 * and ends when nothing is pending or `maxRealMs` ran out (the report is then incomplete).
 */
import { sendHook } from './deliver-hook.js';
import { launchUnit } from './deliver-events.js';
import { AUTO_DISABLE_AFTER_MS, AUTO_DISABLE_FAILURE_WITHIN_MS, formatDuration } from './rules.js';
import type { Address, RunState } from './run-state.js';

/** Runs until every unit and hook is sent and answered, or the real time limit. */
export async function runScheduler(run: RunState): Promise<void> {
  for (;;) {
    if (run.realNow() > run.s.maxRealMs) {
      run.complete = false;
      if (run.inFlight === 0) return;
    }
    const now = run.simNow();
    let nextAt = Number.POSITIVE_INFINITY;
    while (run.complete && run.hooksDue.length > 0 && run.hooksDue[0]!.atMs <= now)
      void sendHook(run, run.hooksDue.shift()!);
    if (run.hooksDue.length > 0) nextAt = Math.min(nextAt, run.hooksDue[0]!.atMs);
    for (const a of run.addresses) nextAt = Math.min(nextAt, sendDue(run, a, now));
    const pending = run.addresses.some((a) => a.state === 'normal' && a.units.length > 0) || run.hooksDue.length > 0;
    if (run.inFlight === 0 && (!pending || !run.complete)) return;
    const realWait = Number.isFinite(nextAt) ? Math.max(0, (nextAt - run.simNow()) / run.s.timeScale) : run.s.maxRealMs;
    await sleepOrWake(run, Math.min(realWait, Math.max(1, run.s.maxRealMs - run.realNow() + 1)));
  }
}

/** Launches the units of `a` that are due and allowed now; returns when the address wants the loop next. */
function sendDue(run: RunState, a: Address, now: number): number {
  let nextAt = Number.POSITIVE_INFINITY;
  if (a.state !== 'normal' || !run.complete) return nextAt;
  autoDisable(run, a, now);
  if (a.state !== 'normal') return nextAt;
  a.units.sort((x, y) => x.dueAt - y.dueAt || (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
  while (a.units.length > 0 && a.units[0]!.dueAt <= now) {
    if (a.inFlight >= run.s.concurrency) break;
    const wait = Math.max(a.rate.waitMs(run.realNow()), run.appRate.waitMs(run.realNow()));
    if (wait > 0) {
      nextAt = Math.min(nextAt, now + wait * run.s.timeScale);
      break;
    }
    const admit = a.breaker.admit(now);
    if (!admit.ok) {
      if (a.breaker.openUntil !== undefined && !a.breaker.probing) nextAt = Math.min(nextAt, a.breaker.openUntil);
      break;
    }
    launchUnit(run, a, a.units.shift()!, admit.probe);
  }
  // Held by the concurrency limit or an unanswered probe: the answer wakes the loop (no spinning).
  const held = a.inFlight >= run.s.concurrency || a.breaker.probing;
  if (a.units.length > 0 && !held) nextAt = Math.min(nextAt, Math.max(a.units[0]!.dueAt, a.breaker.openUntil ?? 0));
  return nextAt;
}

/** Waits `ms` real ms, or less when an answer calls `run.wake`. */
async function sleepOrWake(run: RunState, ms: number): Promise<void> {
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      resolve();
    }
    run.wake = done;
  });
  run.wake = undefined;
}

/** §3: AUTO_DISABLE_AFTER_MS without success and a failure within AUTO_DISABLE_FAILURE_WITHIN_MS → auto-disabled; queued events fail. */
function autoDisable(run: RunState, a: Address, now: number): void {
  if (
    a.lastFailureAt === undefined ||
    now - (a.lastSuccessAt ?? 0) < AUTO_DISABLE_AFTER_MS ||
    now - a.lastFailureAt > AUTO_DISABLE_FAILURE_WITHIN_MS
  )
    return;
  a.state = 'auto-disabled';
  run.finding(
    'auto_disabled',
    'error',
    `${formatDuration(AUTO_DISABLE_AFTER_MS)} without a success and a failure in the last ${formatDuration(AUTO_DISABLE_FAILURE_WITHIN_MS)}: the service auto-disables the address (§3)`,
    a.endpointId,
  );
  for (const u of a.units)
    for (const i of u.items)
      if (i.state === 'pending') Object.assign(i, { state: 'failed', reason: 'address auto-disabled' });
  a.units.length = 0;
}
