/**
 * The callback handler's options checked at start-up, with their defaults (internal): a bad option
 * throws when the handler is made, never on the first request.
 */
import {
  allow,
  assumedHookAnswer,
  checkHookAnswerFormat,
  isHookDecision,
  MAX_HOOK_ANSWER_BYTES,
  reject,
} from './decisions.js';
import type { HookAnswerFormat, HookDecision } from './decisions.js';
import { DEFAULT_STORE_BUDGET_MS } from '../stores/store-budget.js';
import { DEFAULT_DEDUPE_TTL_MS, MemoryDedupeStore } from '../stores/dedupe-store.js';
import type { NonceStore } from '../stores/dedupe-store.js';
import type { CallbackEvent, CallbackLogger, HookCallbackRequest } from './types.js';
import type { CallbackSignatureScheme } from './signature-scheme.js';
import { checkScheme, normaliseSecrets } from './verify-core.js';
import type { CallbackHandlerOptions } from './handler-options.js';
import { type FlowSettings, utf8Length } from './flows/flow-kit.js';
import { DEFAULT_BODY_TIMEOUT_MS } from './read-body.js';

/** 1 MB: the largest event request the service sends (seed 4.2 / 8). */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
export const DEFAULT_HOOK_SAFETY_MS = 250;
/** An event stays "processing" this long unless `onEvent` finishes (a crashed receiver frees it then). */
export const DEFAULT_PROCESSING_TIMEOUT_MS = 2 * 60 * 1000;
/**
 * The kit logs nothing unless given a `logger`, like the client: a library that writes to the
 * console of the app that embeds it cannot be silenced or routed. Pass `logger: console` (or a
 * pino/winston adapter) to see refusals and fallbacks; the HTTP answers say the same thing.
 */
export const defaultLogger: CallbackLogger = {};

/** The flows' settings plus what reading and verifying a request needs. */
export interface HandlerSettings<E extends CallbackEvent, H extends HookCallbackRequest> extends FlowSettings<E, H> {
  secrets: string[];
  scheme: CallbackSignatureScheme;
  toleranceSeconds: number | undefined;
  endpointId: string | readonly string[] | undefined;
  nonceStoreFor(kind: string): NonceStore | undefined;
  maxBodyBytes: number;
  bodyTimeoutMs: number;
}

/** Every option checked at start-up (a bad one throws here, not on the first request), defaults filled in. */
export function checkedSettings<E extends CallbackEvent, H extends HookCallbackRequest>(
  defaultScheme: CallbackSignatureScheme,
  options: CallbackHandlerOptions<E, H>,
): HandlerSettings<E, H> {
  // The checks run in this order; the first problem is thrown.
  const { secrets, scheme, answerFormat } = checkedSigning(defaultScheme, options);
  const logger = options.logger ?? defaultLogger;
  // the inbox deduplicates by itself: a default store only where onEvent's direct path needs one
  const givenStore = options.inbox === undefined ? (options.dedupeStore ?? new MemoryDedupeStore()) : undefined;
  const limits = checkedLimits(options);
  const clock = options.now ?? Date.now;
  const endpointId = checkedEndpointId(options.endpointId);
  const nonceStoreFor = nonceStoreChoice(options, clock);
  checkInbox(options);
  const { defaultDecision, defaultAnswer } = checkedDefaultDecision(options, answerFormat);
  return {
    onEvent: options.onEvent,
    inbox: options.inbox,
    onHook: options.onHook,
    onVerify: options.onVerify,
    dedupeStore: givenStore,
    dedupeTtlMs: limits.dedupeTtlMs,
    processingTtlMs: limits.processingTtlMs,
    storeTimeoutMs: limits.storeTimeoutMs,
    safetyMs: limits.safetyMs,
    answerFormat,
    defaultDecision,
    defaultAnswer,
    logger,
    clock,
    secrets,
    scheme,
    toleranceSeconds: options.toleranceSeconds,
    endpointId,
    nonceStoreFor,
    maxBodyBytes: limits.maxBodyBytes,
    bodyTimeoutMs: limits.bodyTimeoutMs,
  };
}

/** The secrets (each suiting the scheme), the scheme and the hook answer format. */
function checkedSigning<E extends CallbackEvent, H extends HookCallbackRequest>(
  defaultScheme: CallbackSignatureScheme,
  options: CallbackHandlerOptions<E, H>,
): { secrets: string[]; scheme: CallbackSignatureScheme; answerFormat: HookAnswerFormat } {
  const secrets = normaliseSecrets(options.secrets); // fail at start-up, not on the first request
  if (options.signature !== undefined) checkScheme(options.signature);
  const scheme = options.signature ?? defaultScheme;
  secrets.forEach((secret, i) => {
    const problem = scheme.checkSecret?.(secret);
    if (problem !== undefined)
      throw new TypeError(`secrets[${i}] does not suit the signature scheme ${scheme.name}: ${problem}`);
  });
  if (options.hookAnswer !== undefined) checkHookAnswerFormat(options.hookAnswer);
  return { secrets, scheme, answerFormat: options.hookAnswer ?? assumedHookAnswer };
}

/** The sizes, times and budgets, defaults filled in. */
function checkedLimits<E extends CallbackEvent, H extends HookCallbackRequest>(
  options: CallbackHandlerOptions<E, H>,
): {
  dedupeTtlMs: number;
  processingTtlMs: number;
  maxBodyBytes: number;
  bodyTimeoutMs: number;
  storeTimeoutMs: number;
  safetyMs: number;
} {
  const dedupeTtlMs = options.dedupeTtlMs ?? DEFAULT_DEDUPE_TTL_MS;
  const processingTtlMs = options.processingTimeoutMs ?? DEFAULT_PROCESSING_TIMEOUT_MS;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const bodyTimeoutMs = options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  const storeTimeoutMs = options.storeTimeoutMs ?? DEFAULT_STORE_BUDGET_MS;
  // a timer holds at most 2^31 − 1 ms; Node turns a longer one into 1 ms
  if (!(bodyTimeoutMs > 0 && bodyTimeoutMs <= 2_147_483_647))
    throw new TypeError('bodyTimeoutMs must be a positive number of ms, at most 2147483647');
  if (!(storeTimeoutMs > 0 && storeTimeoutMs <= 2_147_483_647))
    throw new TypeError('storeTimeoutMs must be a positive number of ms, at most 2147483647');
  const safetyMs = options.hookTimeoutSafetyMs ?? DEFAULT_HOOK_SAFETY_MS;
  if (options.toleranceSeconds !== undefined && !(options.toleranceSeconds >= 0)) {
    throw new TypeError('toleranceSeconds must be a number >= 0');
  }
  if (!(maxBodyBytes > 0)) throw new TypeError('maxBodyBytes must be a positive number');
  return { dedupeTtlMs, processingTtlMs, maxBodyBytes, bodyTimeoutMs, storeTimeoutMs, safetyMs };
}

function checkedEndpointId(endpointId: string | readonly string[] | undefined): typeof endpointId {
  if (
    endpointId !== undefined &&
    !(typeof endpointId === 'string'
      ? endpointId !== ''
      : Array.isArray(endpointId) &&
        endpointId.length > 0 &&
        endpointId.every((e) => typeof e === 'string' && e !== ''))
  ) {
    throw new TypeError('endpointId must be a non-empty string (the address id), or a non-empty list of them');
  }
  return endpointId;
}

/** The nonce store of each kind of request: the given one, none (`false`), or the default replay guard. */
function nonceStoreChoice<E extends CallbackEvent, H extends HookCallbackRequest>(
  options: CallbackHandlerOptions<E, H>,
  clock: () => number,
): (kind: string) => NonceStore | undefined {
  if (
    options.nonceStore !== undefined &&
    options.nonceStore !== false &&
    typeof options.nonceStore?.claim !== 'function'
  ) {
    throw new TypeError(
      'nonceStore must be a store with claim(id, ttlMs) (MemoryDedupeStore, RedisDedupeStore), or false',
    );
  }
  // the default replay guard: hooks only (events are deduplicated by id), this process only
  let hookNonces: NonceStore | undefined;
  return (kind) =>
    options.nonceStore === false
      ? undefined
      : (options.nonceStore ?? (kind === 'hook' ? (hookNonces ??= new MemoryDedupeStore({ now: clock })) : undefined));
}

/** An inbox is an inbox, and excludes onEvent and dedupeStore. */
function checkInbox<E extends CallbackEvent, H extends HookCallbackRequest>(
  options: CallbackHandlerOptions<E, H>,
): void {
  if (options.inbox === undefined) return;
  if (typeof options.inbox?.append !== 'function')
    throw new TypeError('inbox must be an inbox (MemoryInbox, RedisInbox) with append(events)');
  if (options.onEvent)
    throw new TypeError(
      'inbox and onEvent exclude each other: with an inbox, events are processed by inbox.consume(handler)',
    );
  if (options.dedupeStore)
    throw new TypeError('inbox and dedupeStore exclude each other: the inbox deduplicates by event id itself');
}

/** The decision when onHook fails, and its answer written once (it must serialise, within 64 KB). */
function checkedDefaultDecision<E extends CallbackEvent, H extends HookCallbackRequest>(
  options: CallbackHandlerOptions<E, H>,
  answerFormat: HookAnswerFormat,
): { defaultDecision: HookDecision; defaultAnswer: string } {
  const fallback = options.hookDefaultDecision ?? 'allow';
  const defaultDecision: HookDecision = fallback === 'allow' ? allow() : fallback === 'reject' ? reject() : fallback;
  if (!isHookDecision(defaultDecision))
    throw new TypeError('hookDefaultDecision must be allow(), reject(…) or rewrite(…)');
  const defaultAnswer = JSON.stringify(answerFormat.encode(defaultDecision)); // throws now if unserialisable
  if (typeof defaultAnswer !== 'string')
    throw new TypeError(`hookAnswer ${answerFormat.name} encodes the default decision to nothing JSON can write`);
  if (utf8Length(defaultAnswer) > MAX_HOOK_ANSWER_BYTES) {
    throw new TypeError('hookDefaultDecision serialises to more than 64 KB');
  }
  return { defaultDecision, defaultAnswer };
}
