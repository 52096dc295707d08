// Copied by im-openapi from templates/runtime/callbacks/simulator/deliver-events.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * Event delivery of a simulation run (seed 001 §4, §8): the batches queued per address, one
 * request per unit, what a 2xx or a failure does to its items (delivered and maybe duplicated,
 * or retried on the §8 schedule until MAX_SENDS or the give-up deadline).
 */
import type { SendResult } from './http-send.js';
import type { ReceiverState, RequestRecord } from './report.js';
import {
  formatDuration,
  GIVE_UP_AFTER_MS,
  jitterFactor,
  MAX_RETRY_AFTER_MS,
  MAX_SENDS,
  READ_LIMIT,
  RETRY_AFTER_STATUSES,
  retryWaitMs,
  SINGLE_FROM_SEND,
} from './rules.js';
import type { Address, Item, RunState, Unit } from './run-state.js';
import { failureReason, judgeAnswer, postToAddress, requestRecord } from './send-request.js';

/** Creates every planned batch's items for every address; only a normal address gets them queued. */
export function queueBatches(run: RunState): void {
  for (const a of run.addresses) {
    for (const batch of run.plan.batches) {
      const items = batch.map((id) => {
        const item: Item = {
          ev: run.eventsById.get(id)!,
          address: a,
          sends: 0,
          duplicateSends: 0,
          state: a.state === 'normal' ? 'pending' : 'not_created',
        };
        run.items.push(item);
        return item;
      });
      // §3: events created while the address waits for verification are never sent later.
      if (a.state === 'normal')
        a.units.push({
          key: `batch:${batch[0]}`,
          items,
          send: 1,
          dueAt: Math.max(...items.map((i) => i.ev.queuedAtMs)),
        });
    }
  }
}

function eventBody(run: RunState, item: Item, attempt: number): Record<string, unknown> {
  const e = item.ev;
  // occurred_at follows creation order (100 ms apart, before the run): newer version, later time.
  const occurred = new Date(Math.floor(run.wallStart) - (run.plan.events.length - e.created) * 100).toISOString();
  const data = { ...e.data };
  if (Array.isArray(data.members))
    data.members = (data.members as Array<Record<string, unknown>>).map((m) => ({ ...m, joined_at: occurred }));
  return { id: e.id, type: e.type, occurred_at: occurred, attempt, test: false, data };
}

/** Sends `unit` to `a` (counted against its limits now); its answer is handled when it comes. */
export function launchUnit(run: RunState, a: Address, unit: Unit, probe: boolean): void {
  a.inFlight++;
  run.inFlight++;
  a.rate.take(run.realNow());
  run.appRate.take(run.realNow());
  for (const item of unit.items) {
    item.sends++;
    if (unit.duplicate) item.duplicateSends++;
  }
  const body = { events: unit.items.map((i) => eventBody(run, i, i.sends)) };
  void postToAddress(run, a, 'event', body, run.s.timeoutMs, READ_LIMIT.event)
    .then(async (sent) => {
      const reason = failureReason(sent.result);
      const now = run.simNow();
      const rec = requestRecord(run, a, 'event', sent, reason, {
        eventIds: unit.items.map((i) => i.ev.id),
        send: unit.send,
        ...(unit.duplicate ? { duplicate: true } : {}),
        ...(probe ? { probe: true } : {}),
      });
      run.requests.push(rec);
      judgeAnswer(run, sent.result, rec, run.s.timeoutMs);
      a.breaker.record(reason === undefined, probe, now);
      for (const item of unit.items) if (sent.result.status !== undefined) item.lastStatus = sent.result.status;
      if (reason === undefined) await onDelivered(run, a, unit, sent.result, sent.requestId, now);
      else onFailed(run, a, unit, sent.result, rec, now);
    })
    .finally(() => {
      a.inFlight--;
      run.inFlight--;
      run.wake?.();
    });
}

async function onDelivered(
  run: RunState,
  a: Address,
  unit: Unit,
  result: SendResult,
  requestId: string,
  now: number,
): Promise<void> {
  a.lastSuccessAt = now;
  if (result.overLimit)
    run.finding(
      'event_answer_over_limit',
      'info',
      'event answer over 16 KB: the service reads 16 KB and ignores the body; answer with an empty body',
      requestId,
    );
  await checkStored(run, unit, requestId);
  for (const item of unit.items) {
    if (item.state === 'pending') {
      item.state = 'delivered';
      if (item.ev.duplicateAfterMs !== undefined)
        a.units.push({
          key: `dup:${item.ev.id}`,
          items: [item],
          send: item.sends + 1,
          dueAt: now + item.ev.duplicateAfterMs,
          duplicate: true,
        });
    }
  }
}

function onFailed(run: RunState, a: Address, unit: Unit, result: SendResult, rec: RequestRecord, now: number): void {
  a.lastFailureAt = now;
  if (result.status !== undefined && result.status >= 400 && result.status !== 401 && result.status !== 403) {
    run.finding(
      'error_status',
      RETRY_AFTER_STATUSES.includes(result.status) ? 'info' : 'warning',
      'answered 4xx/5xx: the service retries on the §8 schedule',
      rec.requestId,
    );
  }
  // A duplicate of a delivered event is not retried: the event is already delivered.
  if (!unit.duplicate) retryUnit(run, a, unit, result, rec, now);
}

/** Queues the next send of a failed unit's items that may still be sent (§4.2, §8). */
function retryUnit(run: RunState, a: Address, unit: Unit, result: SendResult, rec: RequestRecord, now: number): void {
  const answer =
    result.status !== undefined
      ? { status: result.status, retryAfter: result.retryAfter, nowEpochMs: Date.now() }
      : undefined;
  const alive: Item[] = [];
  for (const item of unit.items) {
    if (item.sends >= MAX_SENDS) {
      item.state = 'failed';
      item.reason = `${MAX_SENDS} sends`;
      continue;
    }
    alive.push(item);
  }
  if (alive.length === 0) return;
  // §4.2: a failed batch is retried whole (send 2); from the third send on one event per request.
  const together = unit.send + 1 < SINGLE_FROM_SEND;
  const groups = together ? [{ key: unit.key, items: alive }] : alive.map((i) => ({ key: i.ev.id, items: [i] }));
  for (const g of groups) {
    const wait = retryWaitMs(unit.send, jitterFactor(run.s.seed, g.key, unit.send), answer)!;
    rec.nextWaitMs = wait.waitMs;
    if (wait.retryAfterMs !== undefined) {
      rec.retryAfterMs = wait.retryAfterMs;
      run.finding(
        'retry_after',
        'info',
        `Retry-After honoured: the next send waits the larger of Retry-After (at most ${formatDuration(MAX_RETRY_AFTER_MS)}) and the §8 table`,
        rec.requestId,
      );
    }
    const dueAt = now + wait.waitMs;
    const keep: Item[] = [];
    for (const item of g.items) {
      if (dueAt - item.ev.queuedAtMs >= GIVE_UP_AFTER_MS) {
        item.state = 'failed';
        item.reason = `${formatDuration(GIVE_UP_AFTER_MS)} without success: the next send would come after the deadline`;
      } else keep.push(item);
    }
    if (keep.length > 0) a.units.push({ key: g.key, items: keep, send: unit.send + 1, dueAt });
  }
}

/** With a receiver report: a 2xx for an event the receiver has not stored is an acknowledgement before storing. */
async function checkStored(run: RunState, unit: Unit, requestId: string): Promise<void> {
  if (!run.s.observe || unit.duplicate) return;
  let state: ReceiverState;
  try {
    state = await run.s.observe();
  } catch {
    return;
  }
  const stored = new Set([...(state.stored ?? []), ...Object.keys(state.processed ?? {}), ...(state.superseded ?? [])]);
  for (const item of unit.items) {
    if (item.state === 'pending' && !stored.has(item.ev.id)) {
      run.finding(
        'acknowledged_before_storing',
        'error',
        'answered 2xx before the event was stored (seed §4.2: store, then answer): a crash now loses it',
        `${item.ev.id} (${requestId})`,
      );
    }
  }
}
