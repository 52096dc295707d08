/**
 * A Web-standard callback receiver: `(request: Request) => Promise<Response>` (seed 001 section 4).
 * It reads the body (within `maxBodyBytes` → 413 and `bodyTimeoutMs` of the request's arrival →
 * 408), verifies the signature and nonce (→ 401; a failing nonce store → 503, or the default
 * decision for a hook), then hands the callback to the flow of its kind in `flows/`: verify →
 * 200 `{"challenge": …}`; events → `onEvent` with dedupe by id (`event-flow.ts`) or the inbox
 * (`inbox-flow.ts`); hook → `onHook`'s decision within the hook's timeout_ms (`hook-flow.ts`).
 *
 * Nothing waits without limit (issue 16 items 1 and 2): every nonce/dedupe store call has a
 * budget (`storeTimeoutMs`, default 2 s; for a hook, never past its answer deadline). A fallback
 * hook answer carries `x-im-hook-fallback: timeout | handler_failed | too_large |
 * invalid_decision | no_handler | unserialisable | store_unavailable` (diagnostics; the service
 * ignores it).
 */
import { readWebBody } from './read-body.js';
import { CallbackVerificationError, errorText } from './errors.js';
import type {
  CallbackEvent,
  CallbackLogger,
  EventCallbackRequest,
  HeadersLike,
  HookCallbackRequest,
  VerifyCallbackRequest,
} from './types.js';
import type { CallbackSignatureScheme } from './signature-scheme.js';
import { claimNonce, verifySignedWith } from './verify-core.js';
import type { VerifiedCallback } from './verify-core.js';
import { budgeted, type CallbackCoreResult, hookTimeoutMsOf, json, JSON_TYPE } from './flows/flow-kit.js';
import { handleVerify } from './flows/verify-flow.js';
import { handleEvents } from './flows/event-flow.js';
import { appendToInbox } from './flows/inbox-flow.js';
import { handleHook } from './flows/hook-flow.js';

export type { CallbackCoreResult, EventContext, HookContext } from './flows/flow-kit.js';
export { FALLBACK_HOOK_TIMEOUT_MS } from './flows/flow-kit.js';
export { DEFAULT_BODY_TIMEOUT_MS, readWebBody } from './read-body.js';
export {
  DEFAULT_HOOK_SAFETY_MS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_PROCESSING_TIMEOUT_MS,
  defaultLogger,
} from './handler-settings.js';
import { checkedSettings, type HandlerSettings } from './handler-settings.js';
import type { CallbackHandlerOptions } from './handler-options.js';

export type { CallbackHandlerOptions } from './handler-options.js';

export type CallbackHandler = (request: Request) => Promise<Response>;

/** Internal entry used by the node adapter to skip building a `Request`. Unstable. */
export const HANDLER_INTERNALS: unique symbol = Symbol.for('im-server-sdk.callbacks.handler');

export interface HandlerInternals {
  maxBodyBytes: number;
  bodyTimeoutMs: number;
  logger: CallbackLogger;
  handleBytes(method: string, headers: HeadersLike, body: Uint8Array, startedAt: number): Promise<CallbackCoreResult>;
}

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
  const settings = checkedSettings(defaultScheme, options);
  const { maxBodyBytes, bodyTimeoutMs, logger, clock } = settings;
  const handleBytes = (
    method: string,
    headers: HeadersLike,
    body: Uint8Array,
    startedAt: number,
  ): Promise<CallbackCoreResult> => handleRequestBytes(settings, method, headers, body, startedAt);
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

/** One request's bytes: method and size, the signature (and nonce), then the flow of its kind. */
async function handleRequestBytes<E extends CallbackEvent, H extends HookCallbackRequest>(
  settings: HandlerSettings<E, H>,
  method: string,
  headers: HeadersLike,
  body: Uint8Array,
  startedAt: number,
): Promise<CallbackCoreResult> {
  const { logger, storeTimeoutMs, clock, toleranceSeconds, endpointId } = settings;
  if (method.toUpperCase() !== 'POST') return json(405, { error: 'method_not_allowed' }, { allow: 'POST' });
  if (body.byteLength > settings.maxBodyBytes) return json(413, { error: 'body_too_large' });

  let verified: VerifiedCallback;
  let hookDeadline: number | undefined;
  try {
    // nothing of the body is read, let alone parsed, before its signature holds (seed 001 §5)
    verified = await verifySignedWith(
      {
        headers,
        rawBody: body,
        secrets: settings.secrets,
        ...(toleranceSeconds !== undefined ? { toleranceSeconds } : {}),
        ...(endpointId !== undefined ? { endpointId } : {}),
        now: clock,
      },
      settings.scheme,
    );
    // A hook must be answered within timeout_ms of its ARRIVAL: the nonce store's budget ends there too.
    if (verified.kind === 'hook')
      hookDeadline =
        startedAt + hookTimeoutMsOf((verified.body as { timeout_ms?: unknown }).timeout_ms) - settings.safetyMs;
    const nonceStore = settings.nonceStoreFor(verified.kind);
    if (nonceStore) {
      const budgetMs = hookDeadline === undefined ? storeTimeoutMs : Math.min(storeTimeoutMs, hookDeadline - clock());
      await claimNonce(
        budgeted(nonceStore, () => budgetMs, 'nonce store'),
        verified.nonce,
        toleranceSeconds,
      );
    }
  } catch (err) {
    if (err instanceof CallbackVerificationError) {
      logger.warn?.('callback refused', { reason: err.reason, hint: err.hint });
      return json(err.status, { error: err.reason });
    }
    // Only the nonce store can fail here, and only after the signature held.
    if (hookDeadline !== undefined) {
      logger.error?.('nonce store failed or was too slow; answering the hook with the default decision', {
        error: errorText(err),
      });
      return {
        status: 200,
        headers: { ...JSON_TYPE, 'x-im-hook-fallback': 'store_unavailable' },
        body: settings.defaultAnswer,
      };
    }
    logger.error?.('callback verification failed unexpectedly (the nonce store, or a custom signature scheme?)', {
      error: errorText(err),
    });
    return json(503, { error: 'unavailable' });
  }
  for (const d of verified.disagreements) {
    logger.warn?.('header disagrees with the signed body; the body was used', {
      header: d.header,
      requestId: verified.requestId,
    });
  }
  return dispatch(settings, verified, startedAt);
}

/** The flow of the callback's kind: verify, events (into `onEvent` or the inbox), hook. */
function dispatch<E extends CallbackEvent, H extends HookCallbackRequest>(
  settings: HandlerSettings<E, H>,
  verified: VerifiedCallback,
  startedAt: number,
): Promise<CallbackCoreResult> | CallbackCoreResult {
  switch (verified.kind) {
    case 'verify':
      return handleVerify(settings, verified as VerifiedCallback<VerifyCallbackRequest>);
    case 'event': {
      const events = verified as unknown as VerifiedCallback<EventCallbackRequest<E>>;
      if (!Array.isArray(events.body.events)) return json(400, { error: 'malformed_body' });
      return settings.inbox ? appendToInbox(settings, settings.inbox, events) : handleEvents(settings, events);
    }
    case 'hook':
      return handleHook(settings, verified as unknown as VerifiedCallback<H>, startedAt);
    default:
      settings.logger.warn?.('unknown callback kind acknowledged without processing', {
        kind: verified.kind,
        requestId: verified.requestId,
      });
      return json(200, {});
  }
}

function toResponse(result: CallbackCoreResult): Response {
  return new Response(result.body, { status: result.status, headers: result.headers });
}
