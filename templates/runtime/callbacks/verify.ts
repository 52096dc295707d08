/**
 * Callback verification on Node (node:crypto HMAC). `verifyCallback` is async (a nonce store
 * answers asynchronously); `verifyCallbackSync` is for frameworks whose hooks cannot await. The
 * edge entry (`edge.ts`) verifies with WebCrypto instead, which has no synchronous HMAC at all,
 * so there is no synchronous verify off Node.
 */
import { matchSignature } from './signature-node.js';
import { verifyCallbackSyncWith, verifyCallbackWith } from './verify-core.js';
import type { VerifiedCallback, VerifyCallbackOptions } from './verify-core.js';
import type { CallbackRequest, CallbackRequestBase } from './types.js';

export { DEFAULT_TOLERANCE_SECONDS, normaliseSecrets, toRawBytes } from './verify-core.js';
export type { HeaderDisagreement, VerifiedCallback, VerifyCallbackOptions } from './verify-core.js';

/**
 * Verifies a callback request (seed 001 section 5) and returns the parsed body. Order: headers
 * well-formed → signature (constant time, over the raw bytes) → timestamp tolerance → nonce
 * replay → body parsed. Throws `CallbackVerificationError`.
 */
export function verifyCallback<R extends CallbackRequestBase = CallbackRequest>(options: VerifyCallbackOptions): Promise<VerifiedCallback<R>> {
  // Without a store nothing is asynchronous: the synchronous checks, settled in one promise
  // (an async function would add its own promise and a turn per await). Refusals still reject,
  // never throw, whatever was passed.
  try {
    if (!options.nonceStore) return Promise.resolve(verifyCallbackSyncWith<R>(options, matchSignature));
  } catch (err) {
    return Promise.reject(err);
  }
  return verifyCallbackWith<R>(options, matchSignature);
}

/**
 * `verifyCallback` without a promise (Node only: node:crypto's HMAC is synchronous, WebCrypto's
 * is not). Takes no `nonceStore`. Throws `CallbackVerificationError`.
 */
export function verifyCallbackSync<R extends CallbackRequestBase = CallbackRequest>(options: VerifyCallbackOptions): VerifiedCallback<R> {
  return verifyCallbackSyncWith<R>(options, matchSignature);
}
