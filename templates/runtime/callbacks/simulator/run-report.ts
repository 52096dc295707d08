/**
 * The end of a simulation run: the receiver's state once it settles, the findings only the whole
 * run shows (gave up, breaker openings, what the receiver's own state reveals), and the report.
 */
import { maskUrlQuery } from '../../internal/redact.js';
import { imSignatureV1 } from '../signature-node.js';
import type { PlannedEvent } from './plan.js';
import type { EventRecord, ReceiverState, SimulationReport } from './report.js';
import {
  BREAKER_FIRST_PAUSE_MS,
  BREAKER_MAX_PAUSE_MS,
  BREAKER_PAUSE_MULTIPLIER,
  BREAKER_THRESHOLD,
  formatDuration,
  GIVE_UP_AFTER_MS,
  MAX_SENDS,
  REDELIVERY_WINDOW_MS,
} from './rules.js';
import type { Item, RunState } from './run-state.js';
import { observeUntilSettled } from './settle.js';
import type { SettleResult } from './settle.js';
import type { RunShape } from './simulate-options.js';

/** The receiver's state once it settles (settle.ts): every delivered event handled, or no more change, or settleMs. */
export async function observeFinal(run: RunState): Promise<SettleResult | undefined> {
  if (!run.s.observe) return undefined;
  const delivered = new Set(run.items.filter((i) => i.state === 'delivered').map((i) => i.ev.id));
  return observeUntilSettled(run.s.observe, delivered, {
    quietMs: run.s.settleQuietMs,
    timeoutMs: run.s.settleMs,
  });
}

/** The run's report; adds the findings of the whole run first. */
export function buildReport(run: RunState, shape: RunShape, settled: SettleResult | undefined): SimulationReport {
  const state = settled?.state;
  const deliveredIds = new Set(run.items.filter((i) => i.state === 'delivered').map((i) => i.ev.id));
  for (const item of run.items)
    if (item.state === 'pending') Object.assign(item, { state: 'pending', reason: 'run ended' });
  judgeDeliveries(run);
  if (state) judgeReceiverState(run, state, deliveredIds, settled);
  const events = eventRecords(run);
  const order: Record<string, number> = { error: 0, warning: 1, info: 2 };
  return {
    seed: run.s.seed,
    settings: reportSettings(run, shape),
    realMs: Math.round(run.realNow()),
    simulatedMs: Math.round(run.simNow()),
    complete: run.complete,
    addresses: run.addresses.map((a) => ({
      index: a.index,
      url: maskUrlQuery(a.url.href),
      endpointId: a.endpointId,
      state: a.state,
      breakerOpenings: a.breaker.openings,
      breakerPausesMs: [...a.breaker.pauses],
    })),
    totals: reportTotals(run),
    findings: [...run.findings.values()].sort(
      (x, y) => order[x.severity]! - order[y.severity]! || x.code.localeCompare(y.code),
    ),
    events,
    requests: run.requests,
    plan: {
      queueOrder: run.plan.queueOrder,
      batches: run.plan.batches,
      hooks: run.plan.hooks.map((h) => ({ id: h.id, atMs: h.atMs })),
    },
    receiverReport: state !== undefined,
    ...(settled ? { settle: { outcome: settled.outcome, waitedMs: settled.waitedMs } } : {}),
  };
}

function reportSettings(run: RunState, shape: RunShape): SimulationReport['settings'] {
  return {
    timeScale: run.s.timeScale,
    timeoutScale: run.s.timeoutScale,
    events: shape.events,
    eventsPerBatch: shape.eventsPerBatch,
    timeoutMs: run.s.timeoutMs,
    concurrency: run.s.concurrency,
    ratePerSecond: run.s.ratePerSecond,
    hooks: shape.hooks,
    hookTimeoutMs: shape.hookTimeoutMs,
    hookPolicy: run.s.hookPolicy,
    rotation: run.s.oldSecrets !== undefined,
    signature: (run.s.signature ?? imSignatureV1).name,
    hookAnswer: run.s.hookAnswer.name,
  };
}

function reportTotals(run: RunState): SimulationReport['totals'] {
  const count = (f: (i: Item) => boolean): number => run.items.filter(f).length;
  return {
    requests: run.requests.length,
    failedRequests: run.requests.filter((r) => r.outcome === 'failed').length,
    delivered: count((i) => i.state === 'delivered'),
    failed: count((i) => i.state === 'failed'),
    notCreated: count((i) => i.state === 'not_created'),
    pending: count((i) => i.state === 'pending'),
    lost: run.plan.events.filter((e) => e.lost).length,
    truncated: run.plan.events.filter((e) => e.truncated).length,
    duplicateSends: run.items.reduce((n, i) => n + i.duplicateSends, 0),
  };
}

/** The findings of the service's side: events given up, breaker openings. */
function judgeDeliveries(run: RunState): void {
  const failed = run.items.filter((i) => i.state === 'failed');
  for (const i of failed)
    run.finding(
      'gave_up',
      'error',
      `the service gave up on these events (${MAX_SENDS} sends or ${formatDuration(GIVE_UP_AFTER_MS)} without success); a manual redelivery is possible for ${formatDuration(REDELIVERY_WINDOW_MS)}`,
      `${i.ev.id} (${i.reason})`,
    );
  for (const a of run.addresses) {
    if (a.breaker.openings > 0)
      run.finding(
        'breaker_opened',
        'warning',
        `after ${BREAKER_THRESHOLD} consecutive failures sending paused (${formatDuration(BREAKER_FIRST_PAUSE_MS)}, then one probe; a failed probe multiplies the pause by ${BREAKER_PAUSE_MULTIPLIER} up to ${formatDuration(BREAKER_MAX_PAUSE_MS)})`,
        `${a.endpointId}: ${a.breaker.openings}×`,
      );
  }
}

/** The findings only the receiver's own state shows: processed twice, acknowledged but lost, not settled, older over newer. */
function judgeReceiverState(
  run: RunState,
  state: ReceiverState,
  deliveredIds: ReadonlySet<string>,
  settled: SettleResult | undefined,
): void {
  const processed = state.processed ?? {};
  for (const [id, n] of Object.entries(processed)) {
    if (n > 1)
      run.finding(
        'processed_twice',
        'error',
        'the same event id was processed more than once (deduplicate by event id, §6 rule 1)',
        `${id} ×${n}`,
      );
  }
  const superseded = new Set(state.superseded ?? []);
  for (const id of deliveredIds) {
    if ((processed[id] ?? 0) > 0 || superseded.has(id)) continue;
    run.finding(
      'acknowledged_not_processed',
      'error',
      'acknowledged with 2xx but neither processed nor reported superseded: the event is lost (the service will not send it again); an ordering guard that skips older events reports those in `superseded`',
      id,
    );
  }
  if (settled?.outcome === 'timeout' && settled.unhandled.length > 0) {
    run.finding(
      'receiver_not_settled',
      'warning',
      `the receiver's state still lacked ${settled.unhandled.length} delivered event(s) when the settle wait (${formatDuration(run.s.settleMs)}) ran out: raise settleMs (--settle-timeout-ms) if it is still working`,
      settled.unhandled[0],
    );
  }
  judgeOrdering(run, state, deliveredIds);
}

/** §6 rule 2: the current state of an entity must come from its newest delivered version. */
function judgeOrdering(run: RunState, state: ReceiverState, deliveredIds: ReadonlySet<string>): void {
  const newest = new Map<string, number>();
  for (const id of deliveredIds) {
    const e = run.eventsById.get(id)!;
    if (e.entity !== undefined && e.version !== undefined)
      newest.set(e.entity, Math.max(newest.get(e.entity) ?? 0, e.version));
  }
  for (const [key, id] of Object.entries(state.current ?? {})) {
    const e = run.eventsById.get(id);
    if (e?.entity === undefined || e.version === undefined) continue;
    const top = newest.get(e.entity) ?? 0;
    if (top > e.version)
      run.finding(
        'older_over_newer',
        'error',
        'older state written over newer: the current state comes from an event with a lower version than one delivered (§6 rule 2)',
        `${key}: v${e.version} < v${top}`,
      );
  }
}

/** Each planned event with its deliveries (one per address). */
function eventRecords(run: RunState): EventRecord[] {
  // each event's deliveries (one item per address), grouped in one pass over the items
  const itemsOf = new Map<PlannedEvent, Item[]>();
  for (const i of run.items) {
    const list = itemsOf.get(i.ev);
    if (list) list.push(i);
    else itemsOf.set(i.ev, [i]);
  }
  return run.plan.events.map((e) => ({
    id: e.id,
    type: e.type,
    ...(e.entity !== undefined ? { entity: e.entity, version: e.version } : {}),
    lost: e.lost,
    truncated: e.truncated,
    deliveries: (itemsOf.get(e) ?? []).map((i) => ({
      address: i.address.index,
      sends: i.sends,
      state: i.state,
      ...(i.reason ? { reason: i.reason } : {}),
      ...(i.lastStatus !== undefined ? { lastStatus: i.lastStatus } : {}),
      duplicateSends: i.duplicateSends,
    })),
  }));
}
