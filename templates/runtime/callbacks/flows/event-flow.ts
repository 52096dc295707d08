/**
 * The events flow with `onEvent`: each event deduplicated by id through the store, `onEvent`
 * awaited for each new one (persist there), then 2xx; `onEvent` throwing → 500 and the id released
 * so that the service's redelivery processes it. Dedupe is two-phase with the stores of this kit
 * (an id is "processing" while `onEvent` runs, "done" after); a duplicate arriving while another
 * delivery still processes the event gets a 503 with Retry-After, so it is never acknowledged
 * before the event is stored. A store with only claim/release falls back to claim-then-process.
 */
import type { DedupeStore } from '../../stores/dedupe-store.js';
import { errorText } from '../errors.js';
import type { CallbackEvent, EventCallbackRequest, HookCallbackRequest } from '../types.js';
import type { VerifiedCallback } from '../verify-core.js';
import { budgeted, type CallbackCoreResult, type FlowSettings, json } from './flow-kit.js';

/** Retry-After of the 503 that a delivery gets while another one is processing the same event. */
const IN_PROGRESS_RETRY_AFTER_S = 5;

/** `verified.body.events` is an array (the handler checked it). */
export async function handleEvents<E extends CallbackEvent, H extends HookCallbackRequest>(
  settings: FlowSettings<E, H>,
  verified: VerifiedCallback<EventCallbackRequest<E>>,
): Promise<CallbackCoreResult> {
  const { logger, onEvent } = settings;
  const request = verified.body;
  if (!onEvent) {
    logger.error?.('event callback received but no onEvent handler is configured; answering 500', {
      requestId: verified.requestId,
    });
    return json(500, { error: 'no_event_handler' });
  }
  const store = budgeted(settings.dedupeStore!, () => settings.storeTimeoutMs, 'dedupe store'); // set whenever there is no inbox
  let processed = 0;
  let duplicates = 0;
  for (let index = 0; index < request.events.length; index++) {
    const event = request.events[index];
    if (event === null || typeof event !== 'object') {
      logger.warn?.('skipping an event item that is not an object', { index, requestId: verified.requestId });
      continue;
    }
    const id = typeof event.id === 'string' && event.id.length > 0 ? event.id : undefined;
    if (id === undefined) {
      logger.warn?.('event without id: processed without deduplication', { index, type: event.type });
    } else {
      const claim = await claimEvent(settings, store, id, event.type);
      if (claim === 'duplicate') {
        duplicates++;
        continue;
      }
      if (claim !== 'claimed') return claim;
    }
    try {
      await onEvent(event, { request, verified, index });
      if (id !== undefined && store.complete) await store.complete(`event:${id}`, settings.dedupeTtlMs);
      processed++;
    } catch (err) {
      if (id !== undefined) await releaseEvent(settings, store, id);
      logger.error?.('onEvent threw; answering 500 so the service redelivers', {
        eventId: id,
        type: event.type,
        error: errorText(err),
      });
      return json(500, { error: 'handler_failed' });
    }
  }
  return json(200, { received: request.events.length, processed, duplicates });
}

/**
 * Claims event `id` for this delivery: `claimed` (process it), `duplicate` (already done), or the
 * answer that stops the batch (503: the store failed, or another delivery is processing it).
 */
async function claimEvent<E extends CallbackEvent, H extends HookCallbackRequest>(
  settings: FlowSettings<E, H>,
  store: DedupeStore,
  id: string,
  type: unknown,
): Promise<'claimed' | 'duplicate' | CallbackCoreResult> {
  const { logger, dedupeTtlMs, processingTtlMs } = settings;
  let state: 'claimed' | 'in_progress' | 'done';
  try {
    state = store.begin
      ? await store.begin(`event:${id}`, processingTtlMs)
      : (await store.claim(`event:${id}`, dedupeTtlMs))
        ? 'claimed'
        : 'done';
  } catch (err) {
    logger.error?.('dedupe store failed; answering 503 so the batch is redelivered', { error: errorText(err) });
    return json(503, { error: 'dedupe_store_unavailable' });
  }
  if (state === 'done') {
    logger.debug?.('duplicate event skipped', { eventId: id, type });
    return 'duplicate';
  }
  if (state === 'in_progress') {
    // Another delivery is storing this event right now: not acknowledged until it is done.
    logger.info?.('event being processed by another delivery; answering 503 so the batch comes again', {
      eventId: id,
      type,
    });
    return json(503, { error: 'event_in_progress', eventId: id }, { 'retry-after': String(IN_PROGRESS_RETRY_AFTER_S) });
  }
  return 'claimed';
}

/** After onEvent failed: frees the id so that the redelivery processes the event (a failure is logged only). */
async function releaseEvent<E extends CallbackEvent, H extends HookCallbackRequest>(
  settings: FlowSettings<E, H>,
  store: DedupeStore,
  id: string,
): Promise<void> {
  try {
    await store.release(`event:${id}`);
  } catch (releaseErr) {
    settings.logger.error?.(
      'could not release the event id after a failure; a redelivery will skip it until the entry expires',
      {
        eventId: id,
        error: errorText(releaseErr),
      },
    );
  }
}
