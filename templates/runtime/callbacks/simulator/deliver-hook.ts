/**
 * Synchronous callbacks (hooks) of a simulation run: one request to the first address, no retry;
 * a failed or unreadable answer gets the hook's policy (seed 001 §3, §7).
 */
import type { SendResult } from './http-send.js';
import type { PlannedHook } from './plan.js';
import { READ_LIMIT } from './rules.js';
import type { RunState } from './run-state.js';
import { failureReason, judgeAnswer, postToAddress, requestRecord } from './send-request.js';

function policyDecision(run: RunState): string {
  return run.s.hookPolicy === 'allow-on-failure' ? 'allow (policy)' : 'reject (policy)';
}

/** The receiver's decision, or the reason the answer counts as a failure. */
function readHookAnswer(run: RunState, result: SendResult): { decision?: string; reason?: string } {
  const reason = failureReason(result);
  if (reason !== undefined) return { reason };
  if (result.overLimit) return { reason: 'answer_over_64KB' };
  let answer: unknown;
  try {
    answer = JSON.parse(result.body);
  } catch {
    return { reason: 'invalid_json' };
  }
  const d = run.s.hookAnswer.decode(answer);
  return d ? { decision: d.decision } : { reason: 'no_decision' };
}

/** Sends hook `h` to the first address and logs its outcome. */
export async function sendHook(run: RunState, h: PlannedHook): Promise<void> {
  const a = run.addresses[0]!;
  run.inFlight++;
  try {
    const sent = await postToAddress(
      run,
      a,
      'hook',
      { hook: h.hook, timeout_ms: h.timeoutMs, test: false, data: h.data },
      h.timeoutMs,
      READ_LIMIT.hook,
    );
    const read = readHookAnswer(run, sent.result);
    const reason = read.reason;
    let decision = read.decision;
    if (reason !== undefined) {
      decision = policyDecision(run);
      run.finding(
        'hook_failed',
        'error',
        `synchronous callback failed (one request, no retry): the operation got the ${run.s.hookPolicy} policy`,
        `${sent.requestId} ${reason}`,
      );
    }
    const rec = { ...requestRecord(run, a, 'hook', sent, reason), ...(decision ? { decision } : {}) };
    run.requests.push(rec);
    judgeAnswer(run, sent.result, rec, h.timeoutMs);
  } finally {
    run.inFlight--;
    run.wake?.();
  }
}

/** §3: a hook bound to an address pending verification gets no request and is handled as a failure. */
export function failHooksOfUnverifiedAddress(run: RunState): void {
  for (const h of run.hooksDue) {
    run.requests.push({
      n: run.requests.length + 1,
      address: 0,
      kind: 'hook',
      requestId: '',
      notSent: true,
      atMs: h.atMs,
      outcome: 'failed',
      reason: 'address_pending_verification',
      durationMs: 0,
      decision: policyDecision(run),
    });
  }
  run.hooksDue.length = 0;
}
