/**
 * The callback receiver kit for runtimes without Node built-ins (Cloudflare Workers, Vercel Edge,
 * Next.js edge route handlers, Deno, Bun, browsers): `im-server-sdk/callbacks/edge`. Nothing
 * here imports node:crypto, node:net, node:dns or uses `Buffer`; the HMAC is WebCrypto
 * (`crypto.subtle`), the signature comparison constant-time by hand.
 *
 * Differences from `im-server-sdk/callbacks`: verification is async only (WebCrypto signs only
 * asynchronously: there is no `verifyCallbackSync` here); no node:http adapter; no
 * `validateCallbackUrl` (it resolves DNS), no `signCallback`/samples (test helpers, Node).
 *
 * ```ts
 * import { createCallbackHandler, isEventType } from 'im-server-sdk/callbacks/edge';
 * const handler = createCallbackHandler({ secrets: [env.IM_CALLBACK_SECRET], onEvent: async (event) => { … } });
 * export default { fetch: (request: Request) => handler(request) };   // a Worker
 * ```
 */
import { createCallbackHandlerWith } from './handler.js';
import type { CallbackHandlerOptions, CallbackHandlerWithInternals } from './handler.js';
import { imSignatureV1Web } from './signature-web.js';
import type { CallbackEvent, CallbackRequest, CallbackRequestBase, HookCallbackRequest } from './types.js';
import { verifyCallbackWith } from './verify-core.js';
import type { VerifiedCallback, VerifyCallbackOptions } from './verify-core.js';

export * from './types.js';
// by name: errors.ts also holds the kit's internal errorText()
export { CallbackVerificationError } from './errors.js';
export type { CallbackVerificationReason } from './errors.js';
export { SIGNATURE_VERSION, formatSignatureHeader, parseSignatureHeader } from './signature-scheme.js';
export {
  computeSignatureWeb,
  imSignatureV1Web as imSignatureV1,
  standardWebhooksSignatureWeb as standardWebhooksSignature,
} from './signature-web.js';
export type {
  CallbackSignatureScheme,
  SignatureCheck,
  SignatureSignInput,
  SignatureVerifyInput,
} from './signature-scheme.js';
export { DEFAULT_TOLERANCE_SECONDS } from './verify-core.js';
export type { VerifyCallbackOptions, VerifiedCallback, HeaderDisagreement } from './verify-core.js';
export {
  allow,
  reject,
  rewrite,
  isHookDecision,
  hookAnswerBody,
  assumedHookAnswer,
  MAX_HOOK_ANSWER_BYTES,
} from './decisions.js';
export type { HookAnswerFormat, HookDecision } from './decisions.js';
export { handleRawCallback } from './frameworks.js';
export type { RawCallbackRequest } from './frameworks.js';
export { DEFAULT_MAX_BODY_BYTES } from './handler.js';
export type { CallbackHandler, CallbackHandlerOptions, EventContext, HookContext } from './handler.js';
export { MemoryDedupeStore, RedisDedupeStore, DEFAULT_DEDUPE_TTL_MS } from '../stores/dedupe-store.js';
export type {
  DedupeStore,
  NonceStore,
  MemoryDedupeStoreOptions,
  RedisDedupeStoreOptions,
} from '../stores/dedupe-store.js';
export type {
  IoredisClientLike,
  NodeRedisClientLike,
  RedisClientLike,
  RedisCommandClient,
} from '../stores/redis-client.js';
export { isNewer, compareOrdering, orderingMarkOf, orderingVersionFields } from './ordering.js';
export type { OrderingMark } from './ordering.js';
export { compareCallbackTimes, parseCallbackTime } from './times.js';
export type { ParsedCallbackTime } from './times.js';

/**
 * `verifyCallback` of the Node entry, with WebCrypto. Always async. Default scheme `imSignatureV1`
 * (ASSUMED: seed 001 §5 does not show the algorithm); `signature: standardWebhooksSignature` or
 * your own scheme to switch.
 */
export function verifyCallback<R extends CallbackRequestBase = CallbackRequest>(
  options: VerifyCallbackOptions,
): Promise<VerifiedCallback<R>> {
  return verifyCallbackWith<R>(options, imSignatureV1Web);
}

/**
 * A Web-standard receiver, `(request: Request) => Promise<Response>`, verifying with WebCrypto.
 * Default scheme `imSignatureV1` (ASSUMED); `signature` switches it.
 */
export function createCallbackHandler<
  E extends CallbackEvent = CallbackEvent,
  H extends HookCallbackRequest = HookCallbackRequest,
>(options: CallbackHandlerOptions<E, H>): CallbackHandlerWithInternals {
  return createCallbackHandlerWith(imSignatureV1Web, options);
}
