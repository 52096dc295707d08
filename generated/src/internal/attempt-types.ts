// Copied by im-openapi from templates/runtime/internal/attempt-types.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The attempt loop's shared types (internal, unstable): what the loop needs from the client
 * (`RuntimeContext`), one call's settings (`CallSettings`), one sent attempt, and what a call
 * answers (`WithResponse`). In a file of their own so that the loop (`send-with-retries.ts`), the
 * steps before an attempt (`before-attempt.ts`) and after one (`after-attempt.ts`) import them
 * without importing each other in a circle.
 */
import type { OperationSpec } from '../operation.js';
import type { CredentialsRevokedError } from '../core/errors.js';
import type { CallScope, Sleep } from './call-scope.js';
import type { AttemptOutcome, AttemptRequest, Transport } from './http-attempt.js';
import type { SafeLogger } from './logger.js';
import type { QuotaGate } from './quota-gate.js';
import type { QuotaControl } from './quota-control.js';
import type { CallPriority } from './rate-limit-options.js';
import type { SecretRedactor } from './redact.js';
import type { BuiltRequest } from './request-builder.js';
import type { RetryPolicy } from './retry.js';
import type { DecisionPolicy } from './retry-decision.js';
import type { CallObserver, ObserverFactory } from './observe.js';

/** Status, headers (secret values masked) and request id of the answer. */
export interface ResponseInfo {
  status: number;
  headers: Record<string, string>;
  requestId: string | undefined;
}

export interface WithResponse<T> {
  data: T;
  response: ResponseInfo;
}

/** What the loop needs from the client. */
export interface RuntimeContext {
  /** Sends one attempt (node:http or fetch transport). */
  send: Transport;
  logger: SafeLogger;
  gate: QuotaGate;
  /**
   * The pause of token exchanges after a 429 to one: the service limits exchanges per source IP
   * (REST seed section 8), so such a 429 pauses this host's exchanges, never the calls.
   */
  exchangeGate: QuotaGate;
  /** The fleet side of the quota: shared gate, rate limit, exchange pacing, counters. */
  quota?: QuotaControl | undefined;
  redactor: SecretRedactor;
  now: () => number;
  sleep: Sleep;
  random: () => number;
  maxRetryAfterMs: number;
  /** Headers of every request (lower-case names): User-Agent and the client's defaultHeaders. */
  baseHeaders?: Record<string, string>;
  getToken(signal: AbortSignal): Promise<string>;
  /** The cached App Token when it can be sent now with no wait and no refresh due (else undefined). */
  readyToken?(): string | undefined;
  invalidateToken(token: string): Promise<void>;
  /** After 403 permission_denied: drops `token` when it came from the token store (true), else false. */
  dropForeignToken?(token: string): Promise<boolean>;
  /** The revocation error when the credentials were revoked earlier. */
  revokedError(operationId: string): CredentialsRevokedError | undefined;
  /** Called with the first answer that says app_deleted / tenant_closed. */
  revoke(error: CredentialsRevokedError): Promise<void>;
  /** Observers of calls (hooks, diagnostics channels); absent when nothing can listen. */
  observe?: ObserverFactory | undefined;
}

export interface CallSettings {
  op: OperationSpec;
  request: BuiltRequest;
  policy: RetryPolicy;
  headers: Record<string, string>;
  maxRetries: number;
  timeoutMs: number;
  scope: CallScope;
  /** Largest success body read, in bytes (default DEFAULT_MAX_RESPONSE_BYTES). */
  maxResponseBytes?: number;
  /** Who goes first for a rate limit slot (default interactive). */
  priority?: CallPriority | undefined;
  /** Longest Retry-After wait this call honours (default: the client's maxRetryAfterMs). */
  maxRetryAfterMs?: number | undefined;
  /** Reports the call's attempts, retries and waits (absent: nobody listens). */
  observer?: CallObserver | undefined;
}

/** Default bound of a success body (JSON, text or binary), in bytes: 64 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** One attempt: its number, bounds and timing, and (once it settled) what came of it. */
export interface SentAttempt {
  number: number;
  timeoutMs: number;
  maxBytes: number;
  /** When it was sent (rt.now()), then how long it took once it settled. */
  started: number;
  tookMs: number;
  request: AttemptRequest;
  outcome: AttemptOutcome;
}

/** An answer with a status (as opposed to a failure to get one). */
export type Answer = Extract<AttemptOutcome, { kind: 'response' }>;

/** One call's fixed parts, as the steps after an attempt need them. */
export interface Loop {
  rt: RuntimeContext;
  call: CallSettings;
  policy: DecisionPolicy;
  where: () => string;
  debugs: boolean;
}
