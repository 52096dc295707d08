/**
 * One signed request of a simulation run (verify, event or hook) and what any answer says on its
 * own: the failure reason the service would count, and the findings common to every kind.
 */
import { randomBytes } from 'node:crypto';
import { signCallbackRequestWith } from '../sign.js';
import { sendCallback } from './http-send.js';
import type { SendResult } from './http-send.js';
import type { RequestRecord } from './report.js';
import type { Address, RunState } from './run-state.js';

/** The secrets that sign for address `a` now: two during the rotation grace period. */
function secretsOf(run: RunState, a: Address): string[] {
  const secret = run.s.secrets[a.index]!;
  const old = run.s.oldSecrets?.[a.index];
  return old !== undefined && run.simNow() < run.s.rotationGraceMs ? [secret, old] : [secret];
}

/** Signs and sends one request to `a`; `atMs` is the simulated time the send started. */
export async function postToAddress(
  run: RunState,
  a: Address,
  kind: 'verify' | 'event' | 'hook',
  body: Record<string, unknown>,
  timeoutMs: number,
  readLimit: number,
): Promise<{ result: SendResult; requestId: string; atMs: number }> {
  const requestId = `req_sim_${randomBytes(8).toString('hex')}`;
  const full = {
    kind,
    request_id: requestId,
    app: run.s.app,
    endpoint_id: a.endpointId,
    sent_at: new Date().toISOString(),
    ...body,
  };
  const atMs = run.simNow(); // when the send starts (a scheme may sign asynchronously)
  const signed = await signCallbackRequestWith({
    body: full,
    secrets: secretsOf(run, a),
    kind,
    ...(run.s.signature ? { signature: run.s.signature } : {}),
  });
  const t = timeoutMs / run.s.timeoutScale;
  const result = await sendCallback({
    url: a.url,
    headers: signed.headers,
    body: typeof signed.body === 'string' ? signed.body : Buffer.from(signed.body).toString('utf8'),
    timeoutMs: t,
    readLimit,
    lateGraceMs: Math.max(t, 250),
  });
  return { result, requestId, atMs };
}

/** The reason the service counts a failure for this answer, or undefined for a 2xx. */
export function failureReason(r: SendResult): string | undefined {
  if (r.error === 'timeout') return 'timeout';
  if (r.error === 'connection') return 'connection';
  const st = r.status ?? 0;
  if (st >= 300 && st < 400) return 'redirect';
  if (st < 200 || st >= 300) return `status_${st}`;
  return undefined;
}

/** The request log's record of an answer, common to every kind; `extra` goes before the outcome. */
export function requestRecord(
  run: RunState,
  a: Address,
  kind: RequestRecord['kind'],
  sent: { result: SendResult; requestId: string; atMs: number },
  reason: string | undefined,
  extra: Partial<RequestRecord> = {},
): RequestRecord {
  const { result, requestId, atMs } = sent;
  return {
    n: run.requests.length + 1,
    address: a.index,
    kind,
    requestId,
    ...extra,
    atMs: Math.round(atMs),
    ...(result.status !== undefined ? { status: result.status } : {}),
    outcome: reason ? 'failed' : 'ok',
    ...(reason ? { reason } : {}),
    durationMs: result.durationMs,
  };
}

/** Common findings of any answer; a timeout's is judged once its grace is over (late answer or none). */
export function judgeAnswer(run: RunState, r: SendResult, rec: RequestRecord, timeoutMs: number): void {
  const requestId = rec.requestId;
  if (r.error === 'timeout') {
    const t = timeoutMs / run.s.timeoutScale;
    run.lateGraces.push(
      (r.late ?? Promise.resolve()).then(() => {
        if (r.lateAnswerMs !== undefined) {
          rec.lateAnswerMs = r.lateAnswerMs;
          run.finding(
            'answered_after_timeout',
            'error',
            `answered after the ${t} ms timeout: the service had already counted a failure and will send again`,
            requestId,
          );
        } else
          run.finding(
            'no_answer',
            'error',
            `no answer within the ${t} ms timeout (nor within a grace as long again)`,
            requestId,
          );
      }),
    );
  } else if (r.error === 'connection') {
    run.finding('connection_failed', 'error', 'connection failed', requestId);
  } else if (r.status !== undefined && r.status >= 300 && r.status < 400) {
    run.finding(
      'redirect',
      'error',
      'answered 3xx: the service follows no redirect and counts a failure (reason redirect, §2.2)',
      requestId,
    );
  } else if (r.status === 401 || r.status === 403) {
    run.finding(
      'signature_rejected',
      'error',
      `answered ${r.status} to a correctly signed request (wrong secret, or a rotation's second signature not accepted?)`,
      requestId,
    );
  }
}
