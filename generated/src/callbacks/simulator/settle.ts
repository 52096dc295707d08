// Copied by im-openapi from templates/runtime/callbacks/simulator/settle.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The receiver is judged after it settles (issue 29 item 3): a receiver that stores first and
 * processes later (the inbox pattern, workers at 300 ms an event) is still working when the last
 * delivery is answered. So the simulator reads the receiver's state again and again (every
 * `POLL_MS`) until it stops changing, and only then reports:
 *
 * - `handled`: every delivered event is in `processed` or `superseded`, and the state has not
 *   changed for a quarter of `quietMs` (a late second run of an event would still show);
 * - `quiet`: the state has not changed for `quietMs` (some events may never be handled: the
 *   findings say which);
 * - `timeout`: `timeoutMs` passed first (a `receiver_not_settled` warning when events are still
 *   unhandled: the findings about them may be premature).
 */
import type { ReceiverState } from './report.js';

/** Between two reads of the receiver's state. */
export const SETTLE_POLL_MS = 100;
/** Defaults of `settleQuietMs` and `settleMs`. */
export const DEFAULT_SETTLE_QUIET_MS = 2000;
export const DEFAULT_SETTLE_TIMEOUT_MS = 60_000;

export interface SettleResult {
  /** The last state read (undefined when it could not be read). */
  state: ReceiverState | undefined;
  outcome: 'handled' | 'quiet' | 'timeout';
  /** Real ms from the end of the deliveries to the report. */
  waitedMs: number;
  /** Delivered events neither processed nor superseded in `state`. */
  unhandled: string[];
}

/** Every key sorted, so that two reads of the same state compare equal whatever order the JSON came in. */
function fingerprint(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}

/** Delivered ids the state shows neither processed nor skipped as superseded. */
export function unhandledIds(state: ReceiverState | undefined, delivered: ReadonlySet<string>): string[] {
  const processed = state?.processed ?? {};
  const superseded = new Set(state?.superseded ?? []);
  return [...delivered].filter((id) => !((processed[id] ?? 0) > 0) && !superseded.has(id));
}

/** Reads the receiver's state until it settles (see the module comment). */
export async function observeUntilSettled(
  observe: () => Promise<ReceiverState>,
  delivered: ReadonlySet<string>,
  settings: { quietMs: number; timeoutMs: number },
): Promise<SettleResult> {
  const started = performance.now();
  let lastChange = started;
  let last: string | undefined;
  let state: ReceiverState | undefined;
  for (;;) {
    try {
      state = await observe();
    } catch {
      state = undefined;
    }
    const now = performance.now();
    const print = state === undefined ? '(unreadable)' : fingerprint(state);
    if (print !== last) {
      last = print;
      lastChange = now;
    }
    const unhandled = unhandledIds(state, delivered);
    const quiet = now - lastChange;
    const result = (outcome: SettleResult['outcome']): SettleResult => ({
      state,
      outcome,
      waitedMs: Math.round(now - started),
      unhandled,
    });
    if (state !== undefined && unhandled.length === 0 && quiet >= settings.quietMs / 4) return result('handled');
    if (quiet >= settings.quietMs) return result('quiet');
    if (now - started >= settings.timeoutMs) return result('timeout');
    await new Promise((r) =>
      setTimeout(r, Math.min(SETTLE_POLL_MS, Math.max(1, settings.timeoutMs - (now - started)))),
    );
  }
}
