/**
 * `ImLeanCore`: the core client that every generated operation goes through. Generated code
 * only calls `request(op, params, options)` or `list(op, params, options)` with the
 * operation's table entry; everything else (auth, retries, errors, pagination) lives here.
 * The features only some apps use come with the class an app imports (internal/core-features.ts):
 * `ImCore` (im-core.ts) and `ImClient` have them all.
 */
import type { OperationSpec } from '../operation.js';
import { ApiPromise, type WithResponse } from './api-promise.js';
import { ConfigError, type CredentialsRevokedError, ImError, InvalidClientError } from './errors.js';
import type { ClientOptions, RequestOptions } from './options.js';
import { resolveConfig, type ResolvedConfig } from '../internal/config.js';
import { safeLogger, type SafeLogger } from '../internal/logger.js';
import type { QuotaGate } from '../internal/quota-gate.js';
import type { QuotaControl } from '../internal/quota-control.js';
import type { RateLimitState } from '../internal/quota-gate.js';
import { LEAN_FEATURES, type CoreFeatures } from '../internal/core-features.js';
import { SecretRedactor } from '../internal/redact.js';
import type { RuntimeContext } from '../internal/send-with-retries.js';
import { sendCall, type CallClient } from '../internal/send-call.js';
import { TOKEN_EXCHANGE_OPERATION, exchangeToken } from '../internal/token-exchange.js';
import type { TokenManager, StoredToken } from '../internal/token-manager.js';
import { observerFactory } from '../internal/observe.js';
import {
  IDENTITY_OPTIONS,
  revokedErrorOf,
  SHARED_SESSION,
  SHARED_TRANSPORT,
  sessionFor,
  TRANSPORT_OPTIONS,
  type Session,
} from './client-session.js';

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/**
 * The lean core client: what every call needs (the App Token, retries by class, timeouts and
 * deadlines, the 429 pause, errors, request validation), sending with fetch. It leaves out the
 * node:http transport and its proxy support, `rateLimit` and `quotaStore` (those options are
 * refused with a ConfigError that says so), so an app of a few standalone functions stays small.
 * `ImCore` is the same client with every feature.
 */
export class ImLeanCore {
  /** The features clients of this class are built with (a subclass sets its own). */
  protected static readonly features: CoreFeatures = LEAN_FEATURES;
  readonly #options: ClientOptions;
  readonly #config: ResolvedConfig;
  readonly #redactor: SecretRedactor;
  readonly #logger: SafeLogger;
  readonly #tokens: TokenManager;
  readonly #runtime: RuntimeContext;
  readonly #callClient: CallClient;
  readonly #gate: QuotaGate;
  readonly #exchangeGate: QuotaGate;
  readonly #quota: QuotaControl | undefined;
  readonly #state: Session['state'];

  constructor(options: ClientOptions) {
    const features = (new.target as unknown as { features: CoreFeatures }).features;
    const shared = (options as { [SHARED_SESSION]?: Session })[SHARED_SESSION];
    const sharedTransport = (options as { [SHARED_TRANSPORT]?: Pick<ResolvedConfig, 'send' | 'transport'> })[
      SHARED_TRANSPORT
    ];
    const config = resolveConfig(options, features, sharedTransport);
    this.#options = { ...options };
    delete (this.#options as { [SHARED_SESSION]?: Session })[SHARED_SESSION];
    delete (this.#options as { [SHARED_TRANSPORT]?: unknown })[SHARED_TRANSPORT];
    this.#config = config;
    this.#redactor = shared?.redactor ?? new SecretRedactor();
    this.#state = shared?.state ?? { secret: config.clientSecret, revoked: undefined };
    if (typeof config.clientSecret === 'string') this.#redactor.add(config.clientSecret);
    this.#logger = safeLogger(config.logger, this.#redactor);
    const session = sessionFor(shared, {
      config,
      features,
      logger: this.#logger,
      exchange: () => this.#exchangeToken(),
    });
    this.#tokens = session.tokens;
    this.#gate = session.gate;
    this.#exchangeGate = session.exchangeGate;
    this.#quota = session.quota;
    this.#runtime = {
      send: this.#config.send,
      logger: this.#logger,
      gate: this.#gate,
      exchangeGate: this.#exchangeGate,
      quota: this.#quota,
      redactor: this.#redactor,
      now: config.now,
      sleep: config.sleep,
      random: config.random,
      maxRetryAfterMs: config.maxRetryAfterMs,
      baseHeaders: config.baseHeaders,
      getToken: (signal) => this.#tokens.getToken(signal),
      readyToken: () => this.#tokens.readyToken(),
      invalidateToken: (token) => this.#tokens.invalidate(token),
      dropForeignToken: (token) => this.#tokens.dropIfForeign(token),
      revokedError: (operationId) => this.#revokedError(operationId),
      revoke: (error) => this.#revoke(error),
      observe: observerFactory(config.hooks, this.#logger, config.now),
    };
    this.#callClient = { runtime: this.#runtime, config, logger: this.#logger };
  }

  /**
   * A new client of the same class with some options changed (e.g. `timeoutMs`, `maxRetries`,
   * `defaultHeaders`, `logger`), like openai-node's `withOptions`. It shares this client's App
   * Token cache, 429 pause and revoked state, so no second token exchange happens. Changing an
   * option that decides the token (`baseUrl`, `appKey`/`orgName`/`appName`, `clientId`,
   * `clientSecret`, `tokenStore`) gives it a token cache of its own instead. While the cache is
   * shared, token exchanges run with the first client's settings (its fetch, timeouts, logger).
   */
  withOptions(overrides: Partial<ClientOptions>): this {
    if (typeof overrides !== 'object' || overrides === null)
      throw new ConfigError('withOptions', 'must be given an object of client options.');
    const merged: ClientOptions = { ...this.#options };
    // appKey and orgName/appName are two spellings of one thing: the override's spelling wins.
    if (overrides.appKey !== undefined) {
      delete merged.orgName;
      delete merged.appName;
    }
    if (overrides.orgName !== undefined || overrides.appName !== undefined) delete merged.appKey;
    for (const [name, value] of Object.entries(overrides))
      if (value !== undefined) (merged as unknown as Record<string, unknown>)[name] = value;
    const ownSession = IDENTITY_OPTIONS.some(
      (name) => overrides[name] !== undefined && overrides[name] !== this.#options[name],
    );
    const session: Session = {
      tokens: this.#tokens,
      gate: this.#gate,
      exchangeGate: this.#exchangeGate,
      quota: overrides.rateLimit === undefined ? this.#quota : undefined,
      redactor: this.#redactor,
      state: this.#state,
    };
    const Ctor = this.constructor as new (options: ClientOptions) => this;
    // one pool of connections for the clients derived with the same transport options
    const sameTransport = TRANSPORT_OPTIONS.every(
      (name) => overrides[name] === undefined || overrides[name] === this.#options[name],
    );
    if (sameTransport)
      Object.assign(merged, { [SHARED_TRANSPORT]: { send: this.#config.send, transport: this.#config.transport } });
    return new Ctor(ownSession ? merged : Object.assign(merged, { [SHARED_SESSION]: session }));
  }

  get baseUrl(): string {
    return this.#config.baseUrl;
  }
  get orgName(): string {
    return this.#config.orgName;
  }
  get appName(): string {
    return this.#config.appName;
  }
  get clientId(): string {
    return this.#config.clientId;
  }
  /**
   * The client-wide pause after a 429 (the quota is per application): `pausedUntil` (epoch ms, or
   * null when calls go out), `remainingMs`, and `clear()` to open it now. A pause lasts at most
   * 1 hour whatever Retry-After says. (`ImCore` adds the fleet quota's metrics.)
   */
  get rateLimit(): RateLimitState {
    return this.#quota?.view() ?? this.#gate.view();
  }
  /** How this client sends requests: 'node' (node:http, the default on Node) or 'fetch' (see the transport option). */
  get transport(): 'node' | 'fetch' {
    return this.#config.transport;
  }
  /** Whether calls are validated before they are sent, unless a call's `validate` option says otherwise. */
  get validatesRequests(): boolean {
    return this.#config.validateRequests;
  }

  /** True once the service said app_deleted / tenant_closed; every call then fails at once. */
  get credentialsRevoked(): boolean {
    return this.#state.revoked !== undefined;
  }

  /** Calls one operation. Await the result, or `.withResponse()` for status, headers and request id. */
  request<T>(op: OperationSpec, params?: object, options?: RequestOptions): ApiPromise<T> {
    return new ApiPromise<T>(this.#call(op, params, options) as Promise<WithResponse<T>>);
  }

  #call(op: OperationSpec, rawParams: unknown, options: RequestOptions | undefined): Promise<WithResponse<unknown>> {
    // (no observer, no closure: a client without hooks and subscribers pays one check per call)
    const observer = this.#runtime.observe?.(op.id, false);
    if (observer === undefined) return sendCall(this.#callClient, op, rawParams, options, undefined);
    return observer.track(sendCall(this.#callClient, op, rawParams, options, observer));
  }

  async #readSecret(): Promise<string> {
    const source = this.#state.secret;
    if (source === undefined) throw this.#revokedError(TOKEN_EXCHANGE_OPERATION.id) ?? new ImError('No client secret.');
    let value: unknown;
    try {
      value = typeof source === 'function' ? await source() : source;
    } catch (err) {
      throw new ConfigError(
        'clientSecret',
        `the secret function threw (${err instanceof Error ? err.name : typeof err}).`,
      );
    }
    if (typeof value !== 'string' || value.trim() === '') {
      throw new ConfigError('clientSecret', 'the secret function must return a non-empty string.');
    }
    this.#redactor.add(value);
    return value;
  }

  async #exchangeToken(): Promise<StoredToken> {
    const first = await this.#readSecret();
    try {
      return await this.#exchangeWith(first);
    } catch (err) {
      if (err instanceof InvalidClientError && typeof this.#state.secret === 'function') {
        const second = await this.#readSecret();
        if (second !== first) {
          this.#logger.info(
            'token exchange refused (invalid_client); the client secret changed, exchanging again with the new one',
          );
          return await this.#exchangeWith(second);
        }
        this.#logger.debug('token exchange refused (invalid_client); re-read client secret is unchanged');
      }
      throw err;
    }
  }

  #exchangeWith(secret: string): Promise<StoredToken> {
    const c = this.#config;
    return exchangeToken(
      this.#runtime,
      { prefix: c, clientId: c.clientId, maxRetries: c.maxRetries, timeoutMs: c.timeoutMs, deadlineMs: c.deadlineMs },
      secret,
    );
  }

  #revokedError(operationId: string): CredentialsRevokedError | undefined {
    return revokedErrorOf(this.#state, operationId);
  }

  async #revoke(error: CredentialsRevokedError): Promise<void> {
    if (this.#state.revoked) return;
    this.#state.revoked = error;
    this.#state.secret = undefined;
    this.#logger.error(`credentials revoked (${error.reason}); every later call of this client fails at once`);
    await this.#tokens.discard(error.reason);
    try {
      this.#config.onCredentialsRevoked?.(error);
    } catch (err) {
      this.#logger.warn(`onCredentialsRevoked hook threw: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  toJSON(): Record<string, string> {
    return { baseUrl: this.baseUrl, orgName: this.orgName, appName: this.appName, clientId: this.clientId };
  }

  [INSPECT](): string {
    return `${this.constructor.name} ${JSON.stringify(this.toJSON())}`;
  }
}
