/**
 * The options of the callback handler (`createCallbackHandler`, handler.ts), in a file of their
 * own so that the handler and the check of its options (handler-settings.ts) both import them
 * without importing each other.
 */
import type { DedupeStore, NonceStore } from '../stores/dedupe-store.js';
import type { HookAnswerFormat, HookDecision } from './decisions.js';
import type { EventContext, HookContext } from './flows/flow-kit.js';
import type { CallbackInbox } from './inbox/types.js';
import type { CallbackSignatureScheme } from './signature-scheme.js';
import type { CallbackEvent, CallbackLogger, HookCallbackRequest, VerifyCallbackRequest } from './types.js';
import type { VerifiedCallback } from './verify-core.js';

export interface CallbackHandlerOptions<
  E extends CallbackEvent = CallbackEvent,
  H extends HookCallbackRequest = HookCallbackRequest,
> {
  /** Signing secret(s) of the address; two during a rotation. */
  secrets: string | readonly string[];
  /**
   * How requests are signed. Default `imSignatureV1`: HMAC-SHA256 over `timestamp.nonce.body` in
   * X-IM-Signature, ASSUMED (seed 001 §5 does not show the algorithm). If the service signs
   * otherwise, pass `standardWebhooksSignature` or your own `{ name, headers, sign, verify }`.
   */
  signature?: CallbackSignatureScheme;
  /**
   * How hook decisions are written in the answer. Default `assumedHookAnswer`:
   * `{"decision":"allow" | "reject" | "rewrite", …}`, ASSUMED (seed 001 §4.3 does not show the
   * answer shape); pass your own `{ name, encode, decode }` to switch.
   */
  hookAnswer?: HookAnswerFormat;
  /** Called once per new event (after dedupe); awaited before the 2xx. Throw to get a redelivery. */
  onEvent?: (event: E, context: EventContext<E>) => unknown;
  /**
   * Durable inbox (`MemoryInbox`, `RedisInbox`) instead of `onEvent`: each verified event is
   * appended (deduplicated by id, with the inbox's retention) before the 2xx; workers process it
   * with `inbox.consume(…)`. Not together with `onEvent` or `dedupeStore`.
   */
  inbox?: Pick<CallbackInbox<E>, 'append'>;
  /** Decides a synchronous callback; return allow(), reject(reason) or rewrite(data). */
  onHook?: (request: H, context: HookContext<H>) => HookDecision | Promise<HookDecision>;
  /** Observes a URL verification before the challenge is echoed (throwing answers 500). */
  onVerify?: (request: VerifyCallbackRequest, verified: VerifiedCallback<VerifyCallbackRequest>) => unknown;
  /** Event-id store; default an in-memory store (one process only: use Redis for several). */
  dedupeStore?: DedupeStore;
  /** How long an event id is remembered. Default 24 h (the seed advises 7 days to cover redelivery). */
  dedupeTtlMs?: number;
  /**
   * How long an event stays "processing" (default 2 min): if the process dies inside `onEvent`,
   * a redelivery can process the event after this.
   */
  processingTimeoutMs?: number;
  /**
   * Nonce replay store: a nonce already seen within twice the tolerance is refused (401
   * `replayed_nonce`). Given, it applies to every request. Default: hooks only, in memory (this
   * process; up to 100 000 nonces), so a hook replayed byte for byte never runs `onHook` twice
   * here (events are deduplicated by id anyway); give a `RedisDedupeStore` to refuse replays
   * across processes, or `false` for none.
   */
  nonceStore?: NonceStore | false;
  /**
   * The address id(s) this receiver serves: a signed request for another address (its
   * `endpoint_id`), or one naming none, is refused with 403 `endpoint_mismatch`. Default: any.
   */
  endpointId?: string | readonly string[];
  toleranceSeconds?: number;
  maxBodyBytes?: number;
  /**
   * The body must have arrived this long after the request did (default 10 000 ms: the service
   * never waits longer); a slower body is answered 408 and its connection closed, so unauthenticated
   * senders cannot hold buffers and sockets for Node's 300 s request timeout.
   */
  bodyTimeoutMs?: number;
  /** Budget of each nonce/dedupe store call, in ms (default 2 000); see the module comment. */
  storeTimeoutMs?: number;
  /** Answer when onHook fails, is slow or answers too much. Default allow(). */
  hookDefaultDecision?: HookDecision | 'allow' | 'reject';
  /** Answer this long before the hook's timeout_ms runs out. Default 250 ms. */
  hookTimeoutSafetyMs?: number;
  /** Where refusals, fallbacks and handler failures are reported. Default: nothing is logged. */
  logger?: CallbackLogger;
  /** Clock in ms (tests). */
  now?: () => number;
}
