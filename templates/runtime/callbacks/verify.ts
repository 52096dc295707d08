/**
 * Callback verification on Node (node:crypto HMAC). `verifyCallback` is async (a nonce store
 * answers asynchronously); `verifyCallbackSync` is for frameworks whose hooks cannot await. The
 * edge entry (`edge.ts`) verifies with WebCrypto instead, which has no synchronous HMAC at all,
 * so there is no synchronous verify off Node.
 */
import { imSignatureV1 } from './signature-node.js';
import { isThenable } from './signature-scheme.js';
import { verifyCallbackSyncWith, verifyCallbackWith, verifySignedWith } from './verify-core.js';
import type { VerifiedCallback, VerifyCallbackOptions } from './verify-core.js';
import type { CallbackRequest, CallbackRequestBase } from './types.js';

export { DEFAULT_TOLERANCE_SECONDS, normaliseSecrets, toRawBytes } from './verify-core.js';
export type { HeaderDisagreement, VerifiedCallback, VerifyCallbackOptions } from './verify-core.js';

/**
 * Verifies a callback request (seed 001 section 5) and returns the parsed body. Order: the
 * signature headers well-formed → signature (constant time, over the raw bytes) → timestamp
 * tolerance → body parsed → endpoint id → nonce replay. Throws `CallbackVerificationError`.
 *
 * The signature scheme is `options.signature`, default `imSignatureV1` — ASSUMED: seed 001 §5 does
 * not show the algorithm; the kit takes HMAC-SHA256 over `X-IM-Timestamp.X-IM-Nonce.raw body`,
 * hex in X-IM-Signature `v1=`. If the service signs otherwise, pass `standardWebhooksSignature`
 * or your own scheme (`{ name, headers, sign, verify }`).
 */
export function verifyCallback<R extends CallbackRequestBase = CallbackRequest>(
  options: VerifyCallbackOptions,
): Promise<VerifiedCallback<R>> {
  // Without a store nothing is asynchronous: the synchronous checks, settled in one promise
  // (an async function would add its own promise and a turn per await). Refusals still reject,
  // never throw, whatever was passed.
  try {
    if (!options.nonceStore) {
      const verified = verifySignedWith<R>(options, imSignatureV1);
      return isThenable(verified) ? verified : Promise.resolve(verified);
    }
  } catch (err) {
    return Promise.reject(err);
  }
  return verifyCallbackWith<R>(options, imSignatureV1);
}

/**
 * `verifyCallback` without a promise (Node only: node:crypto's HMAC is synchronous, WebCrypto's
 * is not), with a synchronous `signature` scheme (both ready ones are, on Node; default the
 * ASSUMED `imSignatureV1`). Takes no `nonceStore`. Throws `CallbackVerificationError`.
 */
export function verifyCallbackSync<R extends CallbackRequestBase = CallbackRequest>(
  options: VerifyCallbackOptions,
): VerifiedCallback<R> {
  return verifyCallbackSyncWith<R>(options, imSignatureV1);
}
