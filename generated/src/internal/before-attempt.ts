// Copied by im-openapi from templates/runtime/internal/before-attempt.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * Before each attempt of a call (internal, unstable): the revocation and scope checks, the
 * client's 429 pause, the host's token-exchange pause and pacing, the App Token, and the rate
 * limit slot, in that order. Part of the attempt loop (`send-with-retries.ts`).
 */
import type { CallSettings, RuntimeContext } from './attempt-types.js';

/** Returned by `beforeAttempt` when the loop must start over (a gate closed while this call waited). */
export const AGAIN = Symbol('again');

/** Passes the gates (client 429 pause, the host's exchange pause and pacing, the rate limit slot) and gets the App Token. */
export async function beforeAttempt(
  rt: RuntimeContext,
  call: CallSettings,
  maxRetryAfterMs: number,
): Promise<string | undefined | typeof AGAIN> {
  const { op, scope } = call;
  const revoked = rt.revokedError(op.id);
  if (revoked) throw revoked;
  if (scope.isDone()) throw scope.endError();
  rt.quota?.readGate();
  await passGate(rt, call, 'client', maxRetryAfterMs);
  if (op.isTokenExchange) {
    await rt.quota?.readExchangeGate();
    if (await passGate(rt, call, 'exchange', maxRetryAfterMs)) return AGAIN;
    await rt.quota?.paceExchange(op.id, scope);
  }
  let token: string | undefined;
  if (op.auth) {
    try {
      token = await rt.getToken(scope.signal);
    } catch (err) {
      if (scope.signal.aborted) throw scope.endError(err);
      throw err;
    }
    rt.redactor.add(token);
  }
  // The slot last, right before sending: slots held while a token is exchanged went out in one clump.
  if (rt.quota?.limited) {
    await rt.quota.acquire(op.id, call.priority, scope);
    // A 429 closed the gate while this call waited for its slot: wait it out, then take a new one.
    if (rt.gate.remainingMs() > 0) return AGAIN;
  }
  return token;
}

/**
 * Waits out a 429 pause: the client's gate, or the host's token exchanges' gate. A pause longer
 * than the call may wait refuses the call unsent. Returns whether it waited.
 */
async function passGate(
  rt: RuntimeContext,
  call: CallSettings,
  which: 'client' | 'exchange',
  maxRetryAfterMs: number,
): Promise<boolean> {
  const { op, scope, observer } = call;
  const gate = which === 'client' ? rt.gate : rt.exchangeGate;
  const paused = gate.remainingMs();
  if (paused > maxRetryAfterMs) {
    rt.quota?.count('throttled');
    throw gate.notSentError(op.id, scope.attempts, maxRetryAfterMs);
  }
  if (paused <= 0) return false;
  const why =
    which === 'client'
      ? 'the client is paused by an earlier 429'
      : "this host's token exchanges are paused by an earlier 429 to one";
  rt.logger.debug(`${op.id} waits ${paused} ms: ${why}`);
  try {
    const waited = await gate.wait(scope.signal);
    rt.quota?.countWait(waited);
    observer?.rateLimitWait(waited, which);
  } catch {
    throw scope.endError();
  }
  return true;
}
