/**
 * The handler's `context.signal` (issue 33: made only when the handler reads it, which saves an
 * AbortController per event). Made early or late, it says the same: aborted by the worker's stop
 * (with its reason) or by the deadline (with the InboxHandlerTimeoutError), whichever came first,
 * and never by a stop after the run ended. Runs are the same in both engines (inbox-run.ts), so
 * MemoryInbox stands for them here.
 */
import { describe, expect, it } from 'vitest';
import type { CallbackEvent } from '../types.js';
import { InboxHandlerTimeoutError } from './inbox-base.js';
import { MemoryInbox } from './memory-inbox.js';
import type { InboxContext } from './types.js';

const ev = (id: string): CallbackEvent => ({
  id,
  type: 'user.session_created',
  occurred_at: '2026-01-01T00:00:00.000Z',
  data: { origin: 'client' },
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(what: string, cond: () => boolean, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

describe('inbox handler signal', () => {
  it('past the deadline: aborted with the timeout error, whether read before or only after the cut', async () => {
    const inbox = new MemoryInbox({ visibilityTimeoutMs: 5000 });
    await inbox.append([ev('early'), ev('late')]);
    const seen = new Map<string, { aborted: boolean; reason: unknown }>();
    const controller = new AbortController();
    const done = inbox.consume(
      async (e, ctx) => {
        if (e.id === 'early') {
          const signal = ctx.signal; // made before the cut
          await new Promise((r) => signal.addEventListener('abort', r, { once: true }));
        } else await sleep(300); // made only after the cut
        seen.set(e.id, { aborted: ctx.signal.aborted, reason: ctx.signal.reason });
      },
      { handlerTimeoutMs: 50, maxAttempts: 1, concurrency: 2, signal: controller.signal },
    );
    await waitFor('both runs', () => seen.size === 2);
    controller.abort();
    await done;
    for (const id of ['early', 'late']) {
      expect(seen.get(id)?.aborted, id).toBe(true);
      expect(seen.get(id)?.reason, id).toBeInstanceOf(InboxHandlerTimeoutError);
      expect((seen.get(id)!.reason as InboxHandlerTimeoutError).phase).toBe('deadline');
    }
  });

  it("the worker's stop aborts a running handler's signal with its reason, read before or after the stop; a run that ended keeps an unaborted signal", async () => {
    const inbox = new MemoryInbox({ visibilityTimeoutMs: 5000 });
    await inbox.append([ev('finished'), ev('before'), ev('after')]);
    let finishedCtx: InboxContext | undefined;
    const seen = new Map<string, { aborted: boolean; reason: unknown }>();
    const controller = new AbortController();
    let stopped = false;
    const done = inbox.consume(
      async (e, ctx) => {
        if (e.id === 'finished') {
          finishedCtx = ctx;
          return;
        }
        const early = e.id === 'before' ? ctx.signal : undefined;
        await waitFor('the stop', () => stopped);
        const signal = early ?? ctx.signal;
        seen.set(e.id, { aborted: signal.aborted, reason: signal.reason });
      },
      { concurrency: 3, stopTimeoutMs: 4000, signal: controller.signal },
    );
    await waitFor('the finished run', () => finishedCtx !== undefined);
    await sleep(50); // its settle goes out; the other two wait for the stop
    controller.abort('shutting down');
    stopped = true;
    await done;
    expect(seen.get('before')).toEqual({ aborted: true, reason: 'shutting down' });
    expect(seen.get('after')).toEqual({ aborted: true, reason: 'shutting down' });
    expect(finishedCtx!.signal.aborted).toBe(false);
  });
});
