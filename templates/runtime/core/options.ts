/**
 * Options of the client and of each call.
 */
import type { Sleep } from '../internal/call-scope.js';
import type { FetchLike } from '../internal/http-attempt.js';
import type { Logger } from '../internal/logger.js';
import type { TokenEvent, TokenStore } from '../internal/token-manager.js';
import type { CredentialsRevokedError } from './errors.js';

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
  /** Run the generated request validators before sending (default true). */
  validateRequests?: boolean;
  /** Longest Retry-After wait that is honoured, in ms (default 60 000); longer → RateLimitedError. */
  maxRetryAfterMs?: number;
  /** Refresh the App Token this long before expiry (default: min(5 min, 10 % of its lifetime)). */
  tokenRefreshMarginMs?: number;
  /** Token lifecycle events (never carry the token or the secret). */
  onTokenEvent?: (event: TokenEvent) => void;
  /** Called once when the service says app_deleted / tenant_closed. */
  onCredentialsRevoked?: (error: CredentialsRevokedError) => void;
  /**
   * Unstable, for tests: replace randomness (backoff jitter), sleeping and the clock.
   * @internal
   */
  internals?: RuntimeInternals;
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
}
