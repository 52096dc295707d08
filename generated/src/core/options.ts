// Copied by im-openapi from templates/runtime/core/options.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * Options of the client and of each call.
 */
import type { Sleep } from '../internal/call-scope.js';
import type { FetchLike } from '../internal/http-attempt.js';
import type { Logger } from '../internal/logger.js';
import type { TokenEvent, TokenStore } from '../internal/token-manager.js';
import type { CallPriority, RateLimitOptions } from '../internal/rate-limit-options.js';
import type { QuotaStore } from '../stores/quota-store.js';
import type { CredentialsRevokedError } from './errors.js';
import type { ValidationIssue } from '../operation.js';
import type { CallHooks } from './hooks.js';

export type ClientSecretSource = string | (() => string | Promise<string>);

/** Options of `new ImClient(...)` / `new ImCore(...)` / `new ImLeanCore(...)` (which refuses the node transport, proxy and quota options); `client.withOptions(...)` takes any subset. */
export interface ClientOptions {
  /** The service's base URL (http or https), e.g. `https://api.example.com`. */
  baseUrl: string;
  /** The tenant (the part of the AppKey before '#'). Give orgName + appName, or appKey. */
  orgName?: string | undefined;
  /** The application (the part of the AppKey after '#'). */
  appName?: string | undefined;
  /** `org#app`, instead of orgName + appName. */
  appKey?: string | undefined;
  /** The Client ID shown in the console for this application. */
  clientId: string;
  /**
   * The client secret, or a function (sync or async) that returns the current one. With a
   * function, an `invalid_client` answer re-reads it once and exchanges again (secret rotation
   * without restart).
   */
  clientSecret: ClientSecretSource;
  /** Resends after a failure or a 429 (default 2). N operations are resent only after a 429. */
  maxRetries?: number | undefined;
  /** Per-attempt timeout in ms (default 60 000). */
  timeoutMs?: number | undefined;
  /** Overall time limit of one call across all its attempts and waits, in ms (default none). */
  deadlineMs?: number | undefined;
  /**
   * A fetch implementation to send with (default: none; see `transport`). Giving one selects
   * the fetch transport. A proxy or custom connection pool with fetch: pass a fetch that uses
   * your undici dispatcher, e.g. `(url, init) => fetch(url, { ...init, dispatcher })`.
   */
  fetch?: FetchLike | undefined;
  /**
   * How requests are sent. `'node'`: node:http / node:https with a keep-alive agent per
   * client, the default on Node >= 20.16 when no `fetch` is given (faster per call than fetch).
   * `'fetch'`: the `fetch` option, else the global fetch; the default elsewhere (Bun, Deno,
   * workers, older Node) and the behaviour before version 0.2 on Node.
   */
  transport?: 'node' | 'fetch' | undefined;
  /**
   * Node transport: the `http.Agent` (or `https.Agent`, for an https baseUrl) that carries
   * every request, e.g. your own pool settings or a proxy agent. Default: a keep-alive agent of
   * this client (idle sockets closed after 4 s).
   */
  agent?: NodeAgentLike | undefined;
  /**
   * Node transport: send through an HTTP proxy (CONNECT tunnel; TLS to the service inside it).
   * A URL (`http://user:pass@proxy:3128`; the credentials go only into Proxy-Authorization),
   * `'env'` (HTTPS_PROXY / HTTP_PROXY and NO_PROXY, lower-case names first, as curl reads them)
   * or `false`. Default: none, unless NODE_USE_ENV_PROXY=1, which means `'env'`. NO_PROXY is
   * honoured either way.
   */
  proxy?: string | false | undefined;
  /** Any subset of debug/info/warn/error (default: silent). Lines never contain secrets. */
  logger?: Logger | undefined;
  /** Where App Tokens are cached (default: in memory, this process). */
  tokenStore?: TokenStore | undefined;
  /**
   * Longest wait for one token store call (get, set, delete), in ms; default 2 000. A store that
   * does not answer in time is given up: the client exchanges a token itself (or keeps it in
   * memory only) and logs a warning, so a stalled shared store never hangs calls.
   */
  tokenStoreTimeoutMs?: number | undefined;
  /** Run the generated request validators before sending (default true). */
  validateRequests?: boolean | undefined;
  /**
   * Also check success responses against the spec (default false; useful in tests against a
   * mock server). Lenient by design: the response is returned as it came, unknown fields and
   * new enum values are kept; differences go to `onResponseDrift` (and the logger as warnings),
   * never thrown.
   */
  validateResponses?: boolean | undefined;
  /** Called with each response that differs from the spec, when validateResponses is on. */
  onResponseDrift?: ((drift: ResponseDrift) => void) | undefined;
  /**
   * Largest success body read, in bytes (default 64 MiB): JSON and text answers are read up to
   * it, a binary answer's stream ends there. Counted after decompression. Past it:
   * `ResponseTooLargeError` (code `response_too_large`), never resent. Error bodies are read up
   * to 64 KiB only (the rest is dropped).
   */
  maxResponseBytes?: number | undefined;
  /**
   * Longest Retry-After wait that is honoured, in ms (default 60 000). A 429 asking for longer
   * fails with `RateLimitedError` (the service answered) and pauses the client, at most 1 hour;
   * calls the pause keeps back fail unsent with `RateLimitPausedError` (`sent: false`). See
   * `client.rateLimit` to read or clear the pause.
   */
  maxRetryAfterMs?: number | undefined;
  /** Refresh the App Token this long before expiry (default: min(5 min, 10 % of its lifetime)). */
  tokenRefreshMarginMs?: number | undefined;
  /** Token lifecycle events (never carry the token or the secret). */
  onTokenEvent?: ((event: TokenEvent) => void) | undefined;
  /**
   * The client refuses to start in a browser page or a web worker: it holds the Client Secret
   * and an App Token, which stands for the administrative authority of the whole application.
   * Set this only for a server-side runtime that looks like a browser.
   */
  dangerouslyAllowBrowser?: boolean | undefined;
  /**
   * Headers sent with every call of this client (names are case-insensitive; a call's own
   * `headers` option wins). Authorization and Content-Type are always set by the client.
   */
  defaultHeaders?: Record<string, string> | undefined;
  /**
   * Where the application's OpenAPI quota is shared by a fleet (e.g. `new RedisQuotaStore({ client })`):
   * a 429 closes the gate for every process, `rateLimit` draws from one schedule, token exchanges
   * are paced per host, counters add up per fleet. Default: this client alone.
   */
  quotaStore?: QuotaStore | undefined;
  /**
   * A client-side rate limit, e.g. `{ perSecond: 0.9 * quota }`: calls wait for a send slot
   * (interactive before background) instead of collecting 429s. With `quotaStore` the rate is the
   * whole fleet's. Default: none.
   */
  rateLimit?: RateLimitOptions | undefined;
  /**
   * Called around every call with a frozen, redacted view (never a header, a body, the token or
   * the secret): `onRequest` before each attempt, `onResponse` after each answer, `onRetry` when
   * another attempt follows, `onError` when a call fails. Hooks are not awaited; one that throws
   * is logged as a warning and the call goes on. Unset: no cost.
   */
  hooks?: CallHooks | undefined;
  /** Called once when the service says app_deleted / tenant_closed. */
  onCredentialsRevoked?: ((error: CredentialsRevokedError) => void) | undefined;
  /**
   * Unstable, for tests: replace randomness (backoff jitter), sleeping and the clock.
   * @internal
   */
  internals?: RuntimeInternals | undefined;
}

/** An `http.Agent` / `https.Agent` (typed loosely so that the types need no @types/node). */
export interface NodeAgentLike {
  destroy(): void;
}

/** A success response that differs from the spec (see `validateResponses`). */
export interface ResponseDrift {
  /** The operation called, e.g. `users.get`. */
  operationId: string;
  /** The HTTP status of the answer. */
  status: number;
  /** The service's request id of the answer, when it sent one. */
  requestId: string | undefined;
  /** Each difference: JSON pointer into the response body, the rule, a message. */
  issues: ValidationIssue[];
}

/** Unstable, for tests (the `internals` client option). */
export interface RuntimeInternals {
  /** Replaces Math.random (backoff jitter). */
  random?: (() => number) | undefined;
  /** Replaces the sleep between attempts and during 429 waits. */
  sleep?: Sleep | undefined;
  /** Replaces Date.now (token expiry, deadlines, pauses). */
  now?: (() => number) | undefined;
  /** Replaces this host's name, the key of the token exchange pacing (tests stand for two hosts in one process). */
  hostName?: string | undefined;
}

/** Options of one call (the last argument of every method); each overrides the client's own. */
export interface RequestOptions {
  /**
   * Cancels the call (and its waits between attempts) when aborted: the call rejects with an
   * `AbortError`. E.g. `AbortSignal.timeout(5_000)` or an `AbortController`'s signal.
   */
  signal?: AbortSignal | undefined;
  /** Per-attempt timeout of this call, in ms. */
  timeoutMs?: number | undefined;
  /** Overall time limit of this call across attempts and waits, in ms. */
  deadlineMs?: number | undefined;
  /** Resends of this call after a failure or a 429 (default: the client's maxRetries). */
  maxRetries?: number | undefined;
  /** Extra request headers of this call (they win over the client's defaultHeaders). */
  headers?: Record<string, string> | undefined;
  /** Dedupe key of a D operation (client_msg_id or the idempotency header); default: generated. */
  idempotencyKey?: string | undefined;
  /** Run the request validator for this call (default: the client's validateRequests). */
  validate?: boolean | undefined;
  /** Check this call's response against the spec (default: the client's validateResponses). */
  validateResponse?: boolean | undefined;
  /**
   * The request body media type, for operations that list several (default: the first listed).
   * A type the operation does not list is refused before sending.
   */
  contentType?: string | undefined;
  /**
   * Longest Retry-After wait this call honours, in ms (default: the client's maxRetryAfterMs):
   * a batch job can wait out a long 429 that an interactive call should not.
   */
  maxRetryAfterMs?: number | undefined;
  /** Largest success body read for this call, in bytes (default: the client's maxResponseBytes). */
  maxResponseBytes?: number | undefined;
  /**
   * Who goes first for a send slot of `rateLimit`: 'interactive' (default) calls before
   * 'background' ones (the batch helpers' default), so bulk work never starves them.
   */
  priority?: CallPriority | undefined;
}
