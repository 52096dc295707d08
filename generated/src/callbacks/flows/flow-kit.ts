// Copied by im-openapi from templates/runtime/callbacks/flows/flow-kit.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * What the callback handler's flows share (internal): the handler's settings once checked, the
 * JSON answer, and store calls within a budget. One flow per callback kind lives beside this file
 * (`verify-flow.ts`, `event-flow.ts`, `inbox-flow.ts`, `hook-flow.ts`); `../handler.ts` reads,
 * verifies and dispatches to them.
 */
import type { HookAnswerFormat, HookDecision } from '../decisions.js';
import type { CallbackInbox } from '../inbox/types.js';
import type {
  CallbackEvent,
  CallbackLogger,
  EventCallbackRequest,
  HookCallbackRequest,
  VerifyCallbackRequest,
} from '../types.js';
import type { VerifiedCallback } from '../verify-core.js';
import { withStoreBudget } from '../../stores/store-budget.js';
import type { DedupeStore } from '../../stores/dedupe-store.js';

export interface CallbackCoreResult {
  status: number;
  headers: Record<string, string>;
  body: string;
}

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

/** The handler's options as the flows use them: checked, with their defaults filled in. */
export interface FlowSettings<E extends CallbackEvent, H extends HookCallbackRequest> {
  onEvent?: ((event: E, context: EventContext<E>) => unknown) | undefined;
  inbox?: Pick<CallbackInbox<E>, 'append'> | undefined;
  onHook?: ((request: H, context: HookContext<H>) => HookDecision | Promise<HookDecision>) | undefined;
  onVerify?:
    | ((request: VerifyCallbackRequest, verified: VerifiedCallback<VerifyCallbackRequest>) => unknown)
    | undefined;
  /** The event-id store of `onEvent`'s path (absent with an inbox, which deduplicates itself). */
  dedupeStore: DedupeStore | undefined;
  dedupeTtlMs: number;
  processingTtlMs: number;
  storeTimeoutMs: number;
  safetyMs: number;
  answerFormat: HookAnswerFormat;
  defaultDecision: HookDecision;
  /** The default decision, encoded once at start-up. */
  defaultAnswer: string;
  logger: CallbackLogger;
  clock: () => number;
}

export const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };

export function json(status: number, value: unknown, extra: Record<string, string> = {}): CallbackCoreResult {
  return { status, headers: { ...JSON_TYPE, ...extra }, body: JSON.stringify(value) };
}

const UTF8 = new TextEncoder();
/** UTF-8 byte length of `text`. */
export function utf8Length(text: string): number {
  return UTF8.encode(text).byteLength;
}

/** Used when a hook request carries no usable timeout_ms. */
export const FALLBACK_HOOK_TIMEOUT_MS = 3000;

/** A hook's timeout_ms as a wait: the fallback when unusable, and never beyond what a timer holds (2^31 − 1 ms: Node turns a longer one into 1 ms). */
export function hookTimeoutMsOf(t: unknown): number {
  return typeof t === 'number' && Number.isFinite(t) && t > 0 ? Math.min(t, 2_147_483_647) : FALLBACK_HOOK_TIMEOUT_MS;
}

/** `store` with every call inside a budget (`budgetMs()` is read at each call). */
export function budgeted(store: DedupeStore, budgetMs: () => number, what: string): DedupeStore {
  const wrapped: DedupeStore = {
    claim: (id, ttlMs) =>
      withStoreBudget(
        Promise.resolve().then(() => store.claim(id, ttlMs)),
        budgetMs(),
        `${what} claim`,
      ),
    release: (id) =>
      withStoreBudget(
        Promise.resolve().then(() => store.release(id)),
        budgetMs(),
        `${what} release`,
      ),
  };
  if (store.begin)
    wrapped.begin = (id, ttlMs) =>
      withStoreBudget(
        Promise.resolve().then(() => store.begin!(id, ttlMs)),
        budgetMs(),
        `${what} begin`,
      );
  if (store.complete)
    wrapped.complete = (id, ttlMs) =>
      withStoreBudget(
        Promise.resolve().then(() => store.complete!(id, ttlMs)),
        budgetMs(),
        `${what} complete`,
      );
  return wrapped;
}
