/**
 * A Web-standard callback receiver: `(request: Request) => Promise<Response>` (seed 001 section 4).
 *
 *  - verify → 200 `{"challenge": …}`
 *  - event  → each event deduplicated by id through the store, `onEvent` awaited for each new one
 *             (persist there), then 2xx; `onEvent` throwing → 500 and the id released so that the
 *             service's redelivery processes it
 *  - hook   → `onHook` returns allow()/reject()/rewrite(); an exception, a slow handler or an
 *             answer over 64 KB gets the default decision, answered within the hook's timeout_ms
 *  - signature failure → 401; body over `maxBodyBytes` → 413 before parsing; bad JSON → 400
 *
 * A fallback hook answer carries the header `x-im-hook-fallback: timeout | handler_failed |
 * too_large | invalid_decision | no_handler | unserialisable` (diagnostics; the service ignores it).
 *
 * Nothing waits without limit (issue 16 items 1 and 2): the body is read within `bodyTimeoutMs`
 * of the request's arrival (default 10 s, the longest the service waits: seed 001 section 8),
 * else 408; every nonce/dedupe store call has a budget (`storeTimeoutMs`, default 2 s; for a hook,
 * never past its answer deadline), else 503 for events and the default decision for a hook
 * (`x-im-hook-fallback: store_unavailable`). A hook's deadline counts from the request's arrival.
 *
 * Dedupe is two-phase with the stores of this kit: an id is "processing" while `onEvent` runs and
 * "done" after it; a duplicate that arrives while another delivery is still processing the event
 * gets a 503 with Retry-After (the service resends the batch later), so it is never acknowledged
 * before the event is stored. A store with only claim/release falls back to claim-then-process.
 *
 * With `inbox` instead of `onEvent` (seed 001 §4.2: store, answer 2xx at once, process
 * asynchronously): the batch is appended to the inbox, deduplicated by event id there, within the
 * store budget, and only then answered 2xx; a store failure or overrun → 503 and the service resends.
 */
import { concatBytes } from '../internal/bytes.js';
import { CallbackVerificationError, errorText } from './errors.js';
import { allow, assumedHookAnswer, checkHookAnswerFormat, isHookDecision, MAX_HOOK_ANSWER_BYTES, reject } from './decisions.js';
import type { HookAnswerFormat, HookDecision } from './decisions.js';
import { DEFAULT_STORE_BUDGET_MS, withStoreBudget } from '../stores/store-budget.js';
import { DEFAULT_DEDUPE_TTL_MS, MemoryDedupeStore } from '../stores/dedupe-store.js';
import type { DedupeStore, NonceStore } from '../stores/dedupe-store.js';
import type { CallbackInbox } from './inbox/types.js';
import type {
  CallbackEvent,
  CallbackLogger,
  EventCallbackRequest,
  HeadersLike,
  HookCallbackRequest,
  VerifyCallbackRequest,
} from './types.js';
import type { CallbackSignatureScheme } from './signature-scheme.js';
import { checkScheme, claimNonce, normaliseSecrets, verifySignedWith } from './verify-core.js';
import type { VerifiedCallback } from './verify-core.js';

/** 1 MB: the largest event request the service sends (seed 4.2 / 8). */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
export const DEFAULT_HOOK_SAFETY_MS = 250;
/** The longest the service waits for an answer (seed 001 section 8: timeout 1 000 to 10 000 ms). */
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;
/** Used when a hook request carries no usable timeout_ms. */
export const FALLBACK_HOOK_TIMEOUT_MS = 3000;

export interface EventContext<E extends CallbackEvent = CallbackEvent> {
  request: EventCallbackRequest<E>;
  verified: VerifiedCallback<EventCallbackRequest<E>>;
  /** Position of the event in the batch. */
  index: number;
}

export interface HookContext<H extends HookCallbackRequest = HookCallbackRequest> {
  verified: VerifiedCallback<H>;
  /** Aborted when the answer deadline passes (the default decision has been sent). */
  signal: AbortSignal;
  /** Milliseconds left before the kit answers with the default decision. */
  budgetMs: number;
}

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

export type CallbackHandler = (request: Request) => Promise<Response>;

/** Internal entry used by the node adapter to skip building a `Request`. Unstable. */
export const HANDLER_INTERNALS: unique symbol = Symbol.for('im-server-sdk.callbacks.handler');

export interface CallbackCoreResult {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface HandlerInternals {
  maxBodyBytes: number;
  bodyTimeoutMs: number;
  logger: CallbackLogger;
  handleBytes(method: string, headers: HeadersLike, body: Uint8Array, startedAt: number): Promise<CallbackCoreResult>;
}

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };

/** An event stays "processing" this long unless `onEvent` finishes (a crashed receiver frees it then). */
export const DEFAULT_PROCESSING_TIMEOUT_MS = 2 * 60 * 1000;
/** Retry-After of the 503 that a delivery gets while another one is processing the same event. */
const IN_PROGRESS_RETRY_AFTER_S = 5;

function json(status: number, value: unknown, extra: Record<string, string> = {}): CallbackCoreResult {
  return { status, headers: { ...JSON_TYPE, ...extra }, body: JSON.stringify(value) };
}

/**
 * The kit logs nothing unless given a `logger`, like the client: a library that writes to the
 * console of the app that embeds it cannot be silenced or routed. Pass `logger: console` (or a
 * pino/winston adapter) to see refusals and fallbacks; the HTTP answers say the same thing.
 */
export const defaultLogger: CallbackLogger = {};

/** A handler as the node adapter finds it: a Web handler plus the internal byte entry. */
export type CallbackHandlerWithInternals = CallbackHandler & { [HANDLER_INTERNALS]: HandlerInternals };

/**
 * The handler over the entry's default scheme (node:crypto in `node.ts`'s `createCallbackHandler`,
 * WebCrypto in the edge entry's), or `options.signature`. This module uses no Node built-in, so
 * both can build on it.
 */
export function createCallbackHandlerWith<
  E extends CallbackEvent = CallbackEvent,
  H extends HookCallbackRequest = HookCallbackRequest,
>(defaultScheme: CallbackSignatureScheme, options: CallbackHandlerOptions<E, H>): CallbackHandlerWithInternals {
  const secrets = normaliseSecrets(options.secrets); // fail at start-up, not on the first request
  if (options.signature !== undefined) checkScheme(options.signature);
  const scheme = options.signature ?? defaultScheme;
  secrets.forEach((secret, i) => {
    const problem = scheme.checkSecret?.(secret);
    if (problem !== undefined) throw new TypeError(`secrets[${i}] does not suit the signature scheme ${scheme.name}: ${problem}`);
  });
  if (options.hookAnswer !== undefined) checkHookAnswerFormat(options.hookAnswer);
  const answerFormat = options.hookAnswer ?? assumedHookAnswer;
  const logger = options.logger ?? defaultLogger;
  // the inbox deduplicates by itself: a default store only where onEvent's direct path needs one
  const givenStore = options.inbox === undefined ? (options.dedupeStore ?? new MemoryDedupeStore()) : undefined;
  const dedupeTtlMs = options.dedupeTtlMs ?? DEFAULT_DEDUPE_TTL_MS;
  const processingTtlMs = options.processingTimeoutMs ?? DEFAULT_PROCESSING_TIMEOUT_MS;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const bodyTimeoutMs = options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  const storeTimeoutMs = options.storeTimeoutMs ?? DEFAULT_STORE_BUDGET_MS;
  // a timer holds at most 2^31 − 1 ms; Node turns a longer one into 1 ms
  if (!(bodyTimeoutMs > 0 && bodyTimeoutMs <= 2_147_483_647)) throw new TypeError('bodyTimeoutMs must be a positive number of ms, at most 2147483647');
  if (!(storeTimeoutMs > 0 && storeTimeoutMs <= 2_147_483_647)) throw new TypeError('storeTimeoutMs must be a positive number of ms, at most 2147483647');
  const safetyMs = options.hookTimeoutSafetyMs ?? DEFAULT_HOOK_SAFETY_MS;
  const clock = options.now ?? Date.now;
  if (options.toleranceSeconds !== undefined && !(options.toleranceSeconds >= 0)) {
    throw new TypeError('toleranceSeconds must be a number >= 0');
  }
  if (!(maxBodyBytes > 0)) throw new TypeError('maxBodyBytes must be a positive number');
  const endpointId = options.endpointId;
  if (endpointId !== undefined && !(typeof endpointId === 'string' ? endpointId !== '' : Array.isArray(endpointId) && endpointId.length > 0 && endpointId.every((e) => typeof e === 'string' && e !== ''))) {
    throw new TypeError('endpointId must be a non-empty string (the address id), or a non-empty list of them');
  }
  if (options.nonceStore !== undefined && options.nonceStore !== false && typeof options.nonceStore?.claim !== 'function') {
    throw new TypeError('nonceStore must be a store with claim(id, ttlMs) (MemoryDedupeStore, RedisDedupeStore), or false');
  }
  // the default replay guard: hooks only (events are deduplicated by id), this process only
  const nonceStoreFor = (kind: string): NonceStore | undefined =>
    options.nonceStore === false ? undefined : (options.nonceStore ?? (kind === 'hook' ? (hookNonces ??= new MemoryDedupeStore({ now: clock })) : undefined));
  let hookNonces: NonceStore | undefined;
  if (options.inbox !== undefined) {
    if (typeof options.inbox?.append !== 'function') throw new TypeError('inbox must be an inbox (MemoryInbox, RedisInbox) with append(events)');
    if (options.onEvent) throw new TypeError('inbox and onEvent exclude each other: with an inbox, events are processed by inbox.consume(handler)');
    if (options.dedupeStore) throw new TypeError('inbox and dedupeStore exclude each other: the inbox deduplicates by event id itself');
  }
  const fallback = options.hookDefaultDecision ?? 'allow';
  const defaultDecision: HookDecision =
    fallback === 'allow' ? allow() : fallback === 'reject' ? reject() : fallback;
  if (!isHookDecision(defaultDecision)) throw new TypeError('hookDefaultDecision must be allow(), reject(…) or rewrite(…)');
  const defaultAnswer = JSON.stringify(answerFormat.encode(defaultDecision)); // throws now if unserialisable
  if (typeof defaultAnswer !== 'string') throw new TypeError(`hookAnswer ${answerFormat.name} encodes the default decision to nothing JSON can write`);
  if (utf8Length(defaultAnswer) > MAX_HOOK_ANSWER_BYTES) {
    throw new TypeError('hookDefaultDecision serialises to more than 64 KB');
  }

  async function handleBytes(
    method: string,
    headers: HeadersLike,
    body: Uint8Array,
    startedAt: number,
  ): Promise<CallbackCoreResult> {
    if (method.toUpperCase() !== 'POST') return json(405, { error: 'method_not_allowed' }, { allow: 'POST' });
    if (body.byteLength > maxBodyBytes) return json(413, { error: 'body_too_large' });

    let verified: VerifiedCallback;
    let hookDeadline: number | undefined;
    try {
      // nothing of the body is read, let alone parsed, before its signature holds (seed 001 §5)
      verified = await verifySignedWith({
        headers,
        rawBody: body,
        secrets,
        ...(options.toleranceSeconds !== undefined ? { toleranceSeconds: options.toleranceSeconds } : {}),
        ...(endpointId !== undefined ? { endpointId } : {}),
        now: clock,
      }, scheme);
      // A hook must be answered within timeout_ms of its ARRIVAL: the nonce store's budget ends there too.
      if (verified.kind === 'hook') hookDeadline = startedAt + hookTimeoutMsOf((verified.body as { timeout_ms?: unknown }).timeout_ms) - safetyMs;
      const nonceStore = nonceStoreFor(verified.kind);
      if (nonceStore) {
        const budgetMs = hookDeadline === undefined ? storeTimeoutMs : Math.min(storeTimeoutMs, hookDeadline - clock());
        await claimNonce(budgeted(nonceStore, () => budgetMs, 'nonce store'), verified.nonce, options.toleranceSeconds);
      }
    } catch (err) {
      if (err instanceof CallbackVerificationError) {
        logger.warn?.('callback refused', { reason: err.reason, hint: err.hint });
        return json(err.status, { error: err.reason });
      }
      // Only the nonce store can fail here, and only after the signature held.
      if (hookDeadline !== undefined) {
        logger.error?.('nonce store failed or was too slow; answering the hook with the default decision', { error: errorText(err) });
        return { status: 200, headers: { ...JSON_TYPE, 'x-im-hook-fallback': 'store_unavailable' }, body: defaultAnswer };
      }
      logger.error?.('callback verification failed unexpectedly (the nonce store, or a custom signature scheme?)', { error: errorText(err) });
      return json(503, { error: 'unavailable' });
    }
    for (const d of verified.disagreements) {
      logger.warn?.('header disagrees with the signed body; the body was used', {
        header: d.header,
        requestId: verified.requestId,
      });
    }

    switch (verified.kind) {
      case 'verify':
        return handleVerify(verified as VerifiedCallback<VerifyCallbackRequest>);
      case 'event':
        return handleEvents(verified as unknown as VerifiedCallback<EventCallbackRequest<E>>);
      case 'hook':
        return handleHook(verified as unknown as VerifiedCallback<H>, startedAt);
      default:
        logger.warn?.('unknown callback kind acknowledged without processing', {
          kind: verified.kind,
          requestId: verified.requestId,
        });
        return json(200, {});
    }
  }

  async function handleVerify(verified: VerifiedCallback<VerifyCallbackRequest>): Promise<CallbackCoreResult> {
    const challenge = verified.body.challenge;
    if (typeof challenge !== 'string') return json(400, { error: 'malformed_body' });
    if (options.onVerify) {
      try {
        await options.onVerify(verified.body, verified);
      } catch (err) {
        logger.error?.('onVerify threw; answering 500', { error: errorText(err), requestId: verified.requestId });
        return json(500, { error: 'handler_failed' });
      }
    }
    return json(200, { challenge });
  }

  async function handleEvents(verified: VerifiedCallback<EventCallbackRequest<E>>): Promise<CallbackCoreResult> {
    const request = verified.body;
    if (!Array.isArray(request.events)) return json(400, { error: 'malformed_body' });
    if (options.inbox) return appendToInbox(options.inbox, verified);
    const onEvent = options.onEvent;
    if (!onEvent) {
      logger.error?.('event callback received but no onEvent handler is configured; answering 500', {
        requestId: verified.requestId,
      });
      return json(500, { error: 'no_event_handler' });
    }
    const store = budgeted(givenStore!, () => storeTimeoutMs, 'dedupe store'); // set whenever there is no inbox
    let processed = 0;
    let duplicates = 0;
    for (let index = 0; index < request.events.length; index++) {
      const event = request.events[index];
      if (event === null || typeof event !== 'object') {
        logger.warn?.('skipping an event item that is not an object', { index, requestId: verified.requestId });
        continue;
      }
      const id = typeof event.id === 'string' && event.id.length > 0 ? event.id : undefined;
      if (id === undefined) {
        logger.warn?.('event without id: processed without deduplication', { index, type: event.type });
      } else {
        let state: 'claimed' | 'in_progress' | 'done';
        try {
          state = store.begin
            ? await store.begin(`event:${id}`, processingTtlMs)
            : (await store.claim(`event:${id}`, dedupeTtlMs)) ? 'claimed' : 'done';
        } catch (err) {
          logger.error?.('dedupe store failed; answering 503 so the batch is redelivered', { error: errorText(err) });
          return json(503, { error: 'dedupe_store_unavailable' });
        }
        if (state === 'done') {
          duplicates++;
          logger.debug?.('duplicate event skipped', { eventId: id, type: event.type });
          continue;
        }
        if (state === 'in_progress') {
          // Another delivery is storing this event right now: not acknowledged until it is done.
          logger.info?.('event being processed by another delivery; answering 503 so the batch comes again', { eventId: id, type: event.type });
          return json(503, { error: 'event_in_progress', eventId: id }, { 'retry-after': String(IN_PROGRESS_RETRY_AFTER_S) });
        }
      }
      try {
        await onEvent(event, { request, verified, index });
        if (id !== undefined && store.complete) await store.complete(`event:${id}`, dedupeTtlMs);
        processed++;
      } catch (err) {
        if (id !== undefined) {
          try {
            await store.release(`event:${id}`);
          } catch (releaseErr) {
            logger.error?.('could not release the event id after a failure; a redelivery will skip it until the entry expires', {
              eventId: id,
              error: errorText(releaseErr),
            });
          }
        }
        logger.error?.('onEvent threw; answering 500 so the service redelivers', {
          eventId: id,
          type: event.type,
          error: errorText(err),
        });
        return json(500, { error: 'handler_failed' });
      }
    }
    return json(200, { received: request.events.length, processed, duplicates });
  }

  async function appendToInbox(inbox: Pick<CallbackInbox<E>, 'append'>, verified: VerifiedCallback<EventCallbackRequest<E>>): Promise<CallbackCoreResult> {
    const events: E[] = [];
    verified.body.events.forEach((event, index) => {
      // every event has an id (seed 001 §2.5); one without cannot be deduplicated or tracked
      if (event !== null && typeof event === 'object' && typeof event.id === 'string' && event.id.length > 0) events.push(event);
      else logger.warn?.('skipping an event item that is not an object with an id', { index, requestId: verified.requestId });
    });
    try {
      const result = await withStoreBudget(Promise.resolve().then(() => inbox.append(events)), storeTimeoutMs, 'inbox append');
      return json(200, { received: verified.body.events.length, stored: result.stored, duplicates: result.duplicates });
    } catch (err) {
      logger.error?.('inbox append failed or was too slow; answering 503 so the batch is redelivered', { error: errorText(err), requestId: verified.requestId });
      return json(503, { error: 'inbox_unavailable' });
    }
  }

  async function handleHook(verified: VerifiedCallback<H>, startedAt: number): Promise<CallbackCoreResult> {
    const request = verified.body;
    const timeoutMs = hookTimeoutMsOf(request.timeout_ms);
    const budgetMs = Math.floor(startedAt + timeoutMs - safetyMs - clock());
    const fields = { hook: verified.hook, requestId: verified.requestId };

    const answer = (decision: HookDecision, why?: string): CallbackCoreResult => {
      const extra: Record<string, string> = why ? { 'x-im-hook-fallback': why } : {};
      if (decision === defaultDecision) return { status: 200, headers: { ...JSON_TYPE, ...extra }, body: defaultAnswer };
      let text: string;
      try {
        text = JSON.stringify(answerFormat.encode(decision));
      } catch (err) {
        logger.error?.('hook decision is not serialisable to JSON; answering the default decision', {
          ...fields,
          error: errorText(err),
        });
        return answer(defaultDecision, 'unserialisable');
      }
      if (text === undefined) {
        logger.error?.('hook decision serialises to nothing; answering the default decision', fields);
        return answer(defaultDecision, 'unserialisable');
      }
      if (utf8Length(text) > MAX_HOOK_ANSWER_BYTES) {
        logger.error?.('hook answer exceeds 64 KB; answering the default decision', {
          ...fields,
          bytes: utf8Length(text),
        });
        return answer(defaultDecision, 'too_large');
      }
      return { status: 200, headers: { ...JSON_TYPE, ...extra }, body: text };
    };

    if (!options.onHook) {
      logger.warn?.('hook received but no onHook handler is configured; answering the default decision', fields);
      return answer(defaultDecision, 'no_handler');
    }
    if (budgetMs <= 0) {
      logger.warn?.('no time left for onHook; answering the default decision', { ...fields, timeoutMs });
      return answer(defaultDecision, 'timeout');
    }

    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), budgetMs);
    });
    try {
      const result = await Promise.race([
        Promise.resolve().then(() => options.onHook!(request, { verified, signal: controller.signal, budgetMs })),
        timedOut,
      ]);
      if (result === 'timeout') {
        controller.abort();
        logger.warn?.('onHook did not answer in time; answering the default decision', { ...fields, budgetMs });
        return answer(defaultDecision, 'timeout');
      }
      if (!isHookDecision(result)) {
        logger.error?.('onHook returned something that is not allow()/reject()/rewrite(); answering the default decision', fields);
        return answer(defaultDecision, 'invalid_decision');
      }
      return answer(result);
    } catch (err) {
      logger.error?.('onHook threw; answering the default decision', { ...fields, error: errorText(err) });
      return answer(defaultDecision, 'handler_failed');
    } finally {
      if (timer !== undefined) clearTimeout(timer);
    }
  }

  const internals: HandlerInternals = { maxBodyBytes, bodyTimeoutMs, logger, handleBytes };

  const handler = async (request: Request): Promise<Response> => {
    const startedAt = clock();
    if (request.method.toUpperCase() !== 'POST') {
      return toResponse(json(405, { error: 'method_not_allowed' }, { allow: 'POST' }));
    }
    const read = await readWebBody(request, maxBodyBytes, startedAt + bodyTimeoutMs - clock());
    if (read === 'too_large') {
      logger.warn?.('callback body over the size limit refused with 413', { maxBodyBytes });
      return toResponse(json(413, { error: 'body_too_large' }, { connection: 'close' }));
    }
    if (read === 'timeout') {
      logger.warn?.('callback body did not arrive in time; answering 408', { bodyTimeoutMs });
      return toResponse(json(408, { error: 'body_timeout' }, { connection: 'close' }));
    }
    return toResponse(await handleBytes(request.method, request.headers, read, startedAt));
  };
  return Object.assign(handler, { [HANDLER_INTERNALS]: internals });
}

function toResponse(result: CallbackCoreResult): Response {
  return new Response(result.body, { status: result.status, headers: result.headers });
}

/**
 * Reads a Web request body up to `limit` bytes; 'too_large' as soon as it is exceeded, 'timeout'
 * when it has not fully arrived within `timeoutMs` (the stream is cancelled either way).
 */
export async function readWebBody(request: Request, limit: number, timeoutMs = DEFAULT_BODY_TIMEOUT_MS): Promise<Uint8Array | 'too_large' | 'timeout'> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > limit) {
    await request.body?.cancel().catch(() => undefined);
    return 'too_large';
  }
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), Math.max(0, timeoutMs));
  });
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), timedOut]);
      if (next === 'timeout') {
        await reader.cancel().catch(() => undefined);
        return 'timeout';
      }
      const { done, value } = next;
      if (done) break;
      total += value.byteLength;
      if (total > limit) {
        await reader.cancel().catch(() => undefined);
        return 'too_large';
      }
      chunks.push(value);
    }
  } finally {
    clearTimeout(timer);
  }
  return concatBytes(chunks, total);
}

const UTF8 = new TextEncoder();
/** UTF-8 byte length of `text`. */
function utf8Length(text: string): number {
  return UTF8.encode(text).byteLength;
}

/** A hook's timeout_ms as a wait: the fallback when unusable, and never beyond what a timer holds (2^31 − 1 ms: Node turns a longer one into 1 ms). */
function hookTimeoutMsOf(t: unknown): number {
  return typeof t === 'number' && Number.isFinite(t) && t > 0 ? Math.min(t, 2_147_483_647) : FALLBACK_HOOK_TIMEOUT_MS;
}

/** `store` with every call inside a budget (`budgetMs()` is read at each call). */
function budgeted(store: DedupeStore, budgetMs: () => number, what: string): DedupeStore {
  const wrapped: DedupeStore = {
    claim: (id, ttlMs) => withStoreBudget(Promise.resolve().then(() => store.claim(id, ttlMs)), budgetMs(), `${what} claim`),
    release: (id) => withStoreBudget(Promise.resolve().then(() => store.release(id)), budgetMs(), `${what} release`),
  };
  if (store.begin) wrapped.begin = (id, ttlMs) => withStoreBudget(Promise.resolve().then(() => store.begin!(id, ttlMs)), budgetMs(), `${what} begin`);
  if (store.complete) wrapped.complete = (id, ttlMs) => withStoreBudget(Promise.resolve().then(() => store.complete!(id, ttlMs)), budgetMs(), `${what} complete`);
  return wrapped;
}
