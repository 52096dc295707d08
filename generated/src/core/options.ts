// Copied by im-openapi from templates/runtime/core/options.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * Options of the client and of each call.
 */
import type { Sleep } from '../internal/call-scope.js';
import type { FetchLike } from '../internal/http-attempt.js';
import type { Logger } from '../internal/logger.js';
import type { TokenEvent, TokenStore } from '../internal/token-manager.js';
import type { CredentialsRevokedError } from './errors.js';
import type { ValidationIssue } from '../operation.js';

export type ClientSecretSource = string | (() => string | Promise<string>);

export interface ClientOptions {
  /** The service's base URL (http or https), e.g. `https://api.example.com`. */
  baseUrl: string;
  /** The tenant (the part of the AppKey before '#'). Give orgName + appName, or appKey. */
  orgName?: string;
  /** The application (the part of the AppKey after '#'). */
  appName?: string;
  /** `org#app`, instead of orgName + appName. */
  appKey?: string;
  clientId: string;
  /**
   * The client secret, or a function (sync or async) that returns the current one. With a
   * function, an `invalid_client` answer re-reads it once and exchanges again (secret rotation
   * without restart).
   */
  clientSecret: ClientSecretSource;
  /** Resends after a failure or a 429 (default 2). N operations are resent only after a 429. */
  maxRetries?: number;
  /** Per-attempt timeout in ms (default 60 000). */
  timeoutMs?: number;
  /** Overall time limit of one call across all its attempts and waits, in ms (default none). */
  deadlineMs?: number;
  /** The fetch implementation (default: global fetch). */
  fetch?: FetchLike;
  /** Any subset of debug/info/warn/error (default: silent). Lines never contain secrets. */
  logger?: Logger;
  /** Where App Tokens are cached (default: in memory, this process). */
  tokenStore?: TokenStore;
  /**
   * Longest wait for one token store call (get, set, delete), in ms; default 2 000. A store that
   * does not answer in time is given up: the client exchanges a token itself (or keeps it in
   * memory only) and logs a warning, so a stalled shared store never hangs calls.
   */
  tokenStoreTimeoutMs?: number;
  /** Run the generated request validators before sending (default true). */
  validateRequests?: boolean;
  /**
   * Also check success responses against the spec (default false; useful in tests against a
   * mock server). Lenient by design: the response is returned as it came, unknown fields and
   * new enum values are kept; differences go to `onResponseDrift` (and the logger as warnings),
   * never thrown.
   */
  validateResponses?: boolean;
  /** Called with each response that differs from the spec, when validateResponses is on. */
  onResponseDrift?: (drift: ResponseDrift) => void;
  /**
   * Largest success body read, in bytes (default 64 MiB): JSON and text answers are read up to
   * it, a binary answer's stream ends there. Counted after decompression. Past it:
   * `ResponseTooLargeError` (code `response_too_large`), never resent. Error bodies are read up
   * to 64 KiB only (the rest is dropped).
   */
  maxResponseBytes?: number;
  /** Longest Retry-After wait that is honoured, in ms (default 60 000); longer → RateLimitedError. */
  maxRetryAfterMs?: number;
  /** Refresh the App Token this long before expiry (default: min(5 min, 10 % of its lifetime)). */
  tokenRefreshMarginMs?: number;
  /** Token lifecycle events (never carry the token or the secret). */
  onTokenEvent?: (event: TokenEvent) => void;
  /**
   * The client refuses to start in a browser page or a web worker: it holds the Client Secret
   * and an App Token, which stands for the administrative authority of the whole application.
   * Set this only for a server-side runtime that looks like a browser.
   */
  dangerouslyAllowBrowser?: boolean;
  /** Called once when the service says app_deleted / tenant_closed. */
  onCredentialsRevoked?: (error: CredentialsRevokedError) => void;
  /**
   * Unstable, for tests: replace randomness (backoff jitter), sleeping and the clock.
   * @internal
   */
  internals?: RuntimeInternals;
}

export interface ResponseDrift {
  operationId: string;
  status: number;
  requestId: string | undefined;
  /** Each difference: JSON pointer into the response body, the rule, a message. */
  issues: ValidationIssue[];
}

export interface RuntimeInternals {
  random?: () => number;
  sleep?: Sleep;
  now?: () => number;
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** Per-attempt timeout of this call, in ms. */
  timeoutMs?: number;
  /** Overall time limit of this call across attempts and waits, in ms. */
  deadlineMs?: number;
  maxRetries?: number;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** Dedupe key of a D operation (client_msg_id or the idempotency header); default: generated. */
  idempotencyKey?: string;
  /** Run the request validator for this call (default: the client's validateRequests). */
  validate?: boolean;
  /** Check this call's response against the spec (default: the client's validateResponses). */
  validateResponse?: boolean;
  /**
   * The request body media type, for operations that list several (default: the first listed).
   * A type the operation does not list is refused before sending.
   */
  contentType?: string;
  /** Largest success body read for this call, in bytes (default: the client's maxResponseBytes). */
  maxResponseBytes?: number;
}
