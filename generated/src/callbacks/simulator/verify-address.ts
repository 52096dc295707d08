// Copied by im-openapi from templates/runtime/callbacks/simulator/verify-address.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * URL verification of one address (seed 001 §3): the challenge request, whether the answer echoes
 * it, and the address's state afterwards (normal, or pending verification with a finding).
 */
import { randomBytes } from 'node:crypto';
import type { SendResult } from './http-send.js';
import { READ_LIMIT, VERIFY_TIMEOUT_MS } from './rules.js';
import type { Address, RunState } from './run-state.js';
import { failureReason, judgeAnswer, postToAddress, requestRecord } from './send-request.js';

/** The challenge the answer carries, or undefined when it is not JSON with one. */
function echoedChallenge(result: SendResult): unknown {
  try {
    return (JSON.parse(result.body) as { challenge?: unknown }).challenge;
  } catch {
    return undefined;
  }
}

/** The reason verification failed (with its finding), or undefined when the challenge came back. */
function judgeVerification(
  run: RunState,
  result: SendResult,
  requestId: string,
  challenge: string,
): string | undefined {
  const reason = failureReason(result);
  if (reason === undefined) {
    if (echoedChallenge(result) === challenge) return undefined;
    run.finding(
      'verify_wrong_challenge',
      'error',
      `URL verification: the answer's challenge is not the one sent${result.overLimit ? ' (the answer is over 4 KB: only 4 KB is read)' : ''}; the address stays pending verification and no event is delivered (§3)`,
      requestId,
    );
    return 'wrong_challenge';
  }
  if (reason === 'timeout')
    run.finding(
      'verify_timeout',
      'error',
      'URL verification not answered within 5 s: the address stays pending verification',
      requestId,
    );
  else
    run.finding(
      'verify_failed',
      'error',
      `URL verification failed (${reason}): the address stays pending verification`,
      requestId,
    );
  return reason;
}

/** Sends the verification request to `a`; the address is normal only when its answer echoes the challenge. */
export async function verifyAddress(run: RunState, a: Address): Promise<void> {
  const challenge = randomBytes(16).toString('hex');
  const sent = await postToAddress(run, a, 'verify', { challenge }, VERIFY_TIMEOUT_MS, READ_LIMIT.verify);
  const reason = judgeVerification(run, sent.result, sent.requestId, challenge);
  const rec = requestRecord(run, a, 'verify', sent, reason);
  run.requests.push(rec);
  judgeAnswer(run, sent.result, rec, VERIFY_TIMEOUT_MS);
  if (!reason) a.state = 'normal';
}
