// Copied by im-openapi from templates/runtime/callbacks/flows/inbox-flow.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The events flow with an inbox (seed 001 §4.2: store, answer 2xx at once, process later): the
 * batch is appended, deduplicated by event id there, within the store budget, then answered 2xx;
 * a store failure or overrun → 503 and the service resends.
 */
import { withStoreBudget } from '../../stores/store-budget.js';
import { errorText } from '../errors.js';
import type { CallbackInbox } from '../inbox/types.js';
import type { CallbackEvent, EventCallbackRequest, HookCallbackRequest } from '../types.js';
import type { VerifiedCallback } from '../verify-core.js';
import { type CallbackCoreResult, type FlowSettings, json } from './flow-kit.js';

export async function appendToInbox<E extends CallbackEvent, H extends HookCallbackRequest>(
  { logger, storeTimeoutMs }: FlowSettings<E, H>,
  inbox: Pick<CallbackInbox<E>, 'append'>,
  verified: VerifiedCallback<EventCallbackRequest<E>>,
): Promise<CallbackCoreResult> {
  const events: E[] = [];
  verified.body.events.forEach((event, index) => {
    // every event has an id (seed 001 §2.5); one without cannot be deduplicated or tracked
    if (event !== null && typeof event === 'object' && typeof event.id === 'string' && event.id.length > 0)
      events.push(event);
    else
      logger.warn?.('skipping an event item that is not an object with an id', {
        index,
        requestId: verified.requestId,
      });
  });
  try {
    const result = await withStoreBudget(
      Promise.resolve().then(() => inbox.append(events)),
      storeTimeoutMs,
      'inbox append',
    );
    return json(200, { received: verified.body.events.length, stored: result.stored, duplicates: result.duplicates });
  } catch (err) {
    logger.error?.('inbox append failed or was too slow; answering 503 so the batch is redelivered', {
      error: errorText(err),
      requestId: verified.requestId,
    });
    return json(503, { error: 'inbox_unavailable' });
  }
}
