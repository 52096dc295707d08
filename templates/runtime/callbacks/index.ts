/**
 * Callback receiver kit (seed 001), Node entry: verification (node:crypto, async and sync),
 * signing for tests, a delivery simulator (simulator/), a Web-standard handler, a node:http adapter
 * and a Fastify plugin, dedupe and nonce stores, a durable inbox with workers (memory, Redis
 * Streams), ordering and time helpers, URL validation. `edge.ts` is the subset that runs
 * without Node built-ins (WebCrypto). The package entries bind both to the generated event types.
 *
 * ```ts
 * const handler = createNodeCallbackHandler({
 *   secrets: [process.env.IM_CALLBACK_SECRET!],          // two during a rotation
 *   dedupeStore: new RedisDedupeStore({ client: fromNodeRedis(redis) }),
 *   onEvent: async (event) => { await db.saveEvent(event); },   // persist; throw → redelivery
 *   onHook: async (req) => (isSpam(req.data) ? reject('spam') : allow()),
 * });
 * app.post('/im/callbacks', handler);       // BEFORE express.json(), or with express.raw()
 * ```
 */
export * from './types.js';
// by name: errors.ts also holds the kit's internal errorText()
export { CallbackVerificationError } from './errors.js';
export type { CallbackVerificationReason } from './errors.js';
export { SIGNATURE_VERSION, formatSignatureHeader, parseSignatureHeader } from './signature-scheme.js';
export { computeSignature, imSignatureV1, standardWebhooksSignature } from './signature-node.js';
export type {
  CallbackSignatureScheme,
  SignatureCheck,
  SignatureSignInput,
  SignatureVerifyInput,
} from './signature-scheme.js';
export { verifyCallback, verifyCallbackSync, DEFAULT_TOLERANCE_SECONDS } from './verify.js';
export type { VerifyCallbackOptions, VerifiedCallback, HeaderDisagreement } from './verify.js';
export { signCallback, signCallbackRequest } from './sign.js';
export type { SignCallbackOptions, SignedCallbackHeaders } from './sign.js';
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
export { fastifyCallbackPlugin } from './fastify.js';
export type { FastifyCallbackPluginOptions } from './fastify.js';
export { DEFAULT_MAX_BODY_BYTES } from './handler.js';
export type { CallbackHandler, CallbackHandlerOptions, EventContext, HookContext } from './handler.js';
export {
  createCallbackHandler,
  toNodeHandler,
  createNodeCallbackHandler,
  callbackBodyDeadline,
  BODY_CONSUMED_HINT,
} from './node.js';
export type { NodeCallbackHandler, NodeCallbackRequest, NodeHandlerOptions } from './node.js';
export { MemoryDedupeStore, RedisDedupeStore, DEFAULT_DEDUPE_TTL_MS } from '../stores/dedupe-store.js';
export type {
  DedupeStore,
  NonceStore,
  MemoryDedupeStoreOptions,
  RedisDedupeStoreOptions,
} from '../stores/dedupe-store.js';
export { fromNodeRedis, fromIoredis } from '../stores/redis-client.js';
export type {
  IoredisClientLike,
  NodeRedisClientLike,
  RedisClientLike,
  RedisCommandClient,
} from '../stores/redis-client.js';
export { MemoryInbox } from './inbox/memory-inbox.js';
export { RedisInbox } from './inbox/redis-inbox.js';
export type { RedisInboxOptions } from './inbox/redis-inbox.js';
export { InboxDurabilityError } from './inbox/redis-durability.js';
export type { InboxDurability, InboxDurabilityReport, WaitForPersistence } from './inbox/redis-durability.js';
export {
  DEFAULT_INBOX_RETENTION_MS,
  DEFAULT_VISIBILITY_TIMEOUT_MS,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_STOP_TIMEOUT_MS,
  InboxHandlerTimeoutError,
} from './inbox/inbox-base.js';
export { truncatedRefetch } from './inbox/marks.js';
export type {
  CallbackInbox,
  ConsumeErrorInfo,
  ConsumeOptions,
  InboxAppendResult,
  InboxBackoff,
  InboxCommitOutcome,
  InboxContext,
  InboxDeadLetter,
  InboxHandler,
  InboxOptions,
  InboxOrderingInfo,
  InboxOrderingOptions,
  InboxRefetch,
  InboxStateChange,
  InboxStats,
} from './inbox/types.js';
export { isNewer, compareOrdering, orderingMarkOf, orderingVersionFields } from './ordering.js';
export type { OrderingMark } from './ordering.js';
export { compareCallbackTimes, parseCallbackTime } from './times.js';
export type { ParsedCallbackTime } from './times.js';
export { validateCallbackUrl, validateCallbackUrlSyntax, MAX_CALLBACK_URL_LENGTH } from './url.js';
export type { CallbackUrlRule, CallbackUrlVerdict, ValidateCallbackUrlOptions, ResolvedAddress } from './url.js';
export { isPublicAddress, nonPublicRanges } from './address-ranges.js';
export type { AddressRange } from './address-ranges.js';
export { sampleCallbackBody, sampleEvent } from './samples.js';
export type { SampleOptions } from './samples.js';
export { simulateDelivery } from './simulator/simulate.js';
export type { SimulateDeliveryOptions } from './simulator/simulate-options.js';
export { formatSimulationReport, isCleanReport } from './simulator/report.js';
export type {
  ReceiverState,
  SimulationReport,
  SimulationFinding,
  FindingSeverity,
  RequestRecord as SimulationRequestRecord,
  EventRecord as SimulationEventRecord,
  EventDelivery as SimulationEventDelivery,
  AddressRecord as SimulationAddressRecord,
} from './simulator/report.js';
