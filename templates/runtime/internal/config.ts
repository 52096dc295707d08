/**
 * Checks and normalises the client options (internal, unstable). Every problem is a
 * `ConfigError` naming the option; secret values are never echoed.
 */
import { DEFAULT_STORE_BUDGET_MS } from '../stores/store-budget.js';
import { ConfigError } from '../core/errors.js';
import type { ClientOptions, ClientSecretSource, ResponseDrift } from '../core/options.js';
import { realSleep, type Sleep } from './call-scope.js';
import { assertServerSide } from './server-only.js';
import type { Transport } from './http-attempt.js';
import { refuseQuotaOptions, type CoreFeatures, type TransportKind } from './core-features.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from './attempt-types.js';
import type { Logger } from './logger.js';
import { SDK_NAME, SDK_VERSION } from '../sdk-version.js';
import { MemoryTokenStore, type TokenEvent, type TokenStore } from './token-manager.js';
import type { CredentialsRevokedError } from '../core/errors.js';
import type { ResolvedRateLimit } from './rate-limit-options.js';
import type { QuotaStore } from '../stores/quota-store.js';
import type { CallHooks } from '../core/hooks.js';
import {
  checkedHeaders,
  hooksOf,
  MAX_TIMER_MS,
  nonEmptyString,
  number,
  optionalFunction,
  segment,
} from './config-values.js';

export { checkedHeaders, MAX_TIMER_MS } from './config-values.js';

export interface ResolvedConfig {
  baseUrl: string;
  orgName: string;
  appName: string;
  clientId: string;
  clientSecret: ClientSecretSource;
  maxRetries: number;
  timeoutMs: number;
  deadlineMs: number | undefined;
  /** Sends one attempt: the node:http transport or the fetch transport (transport/choose.ts). */
  send: Transport;
  transport: TransportKind;
  logger: Logger | undefined;
  tokenStore: TokenStore;
  tokenStoreTimeoutMs: number;
  validateRequests: boolean;
  validateResponses: boolean;
  onResponseDrift: ((drift: ResponseDrift) => void) | undefined;
  maxRetryAfterMs: number;
  maxResponseBytes: number;
  tokenRefreshMarginMs: number | undefined;
  onTokenEvent: ((event: TokenEvent) => void) | undefined;
  onCredentialsRevoked: ((error: CredentialsRevokedError) => void) | undefined;
  hooks: CallHooks | undefined;
  quotaStore: QuotaStore | undefined;
  rateLimit: ResolvedRateLimit | undefined;
  /** Sent with every request (lower-case names): the User-Agent, then the defaultHeaders option. */
  baseHeaders: Record<string, string>;
  random: () => number;
  sleep: Sleep;
  now: () => number;
  /** This host's name as the exchange pacing keys it (internals.hostName; default os.hostname()). */
  hostName: string | undefined;
}

function baseUrlOf(value: unknown): string {
  const hint = 'Give the service base URL, e.g. "https://api.example.com" (without org/app).';
  const text = nonEmptyString('baseUrl', value, hint);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError('baseUrl', 'is not an absolute URL.', hint);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError('baseUrl', `must use http or https (got ${url.protocol}).`, hint);
  }
  if (url.username || url.password)
    throw new ConfigError('baseUrl', 'must not contain user info (user:password@).', hint);
  if (url.search || url.hash) throw new ConfigError('baseUrl', 'must not contain a query or a fragment.', hint);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

function orgAndApp(o: ClientOptions): { orgName: string; appName: string } {
  const hint = 'Give either appKey "org#app" or both orgName and appName.';
  if (o.appKey !== undefined) {
    if (o.orgName !== undefined || o.appName !== undefined) {
      throw new ConfigError('appKey', 'was given together with orgName/appName; give one form only.', hint);
    }
    const key = nonEmptyString('appKey', o.appKey, hint);
    const parts = key.split('#');
    if (parts.length !== 2) {
      throw new ConfigError(
        'appKey',
        `must have the form "org#app" with exactly one "#" (got ${parts.length - 1}).`,
        hint,
      );
    }
    return { orgName: segment('appKey', parts[0], hint), appName: segment('appKey', parts[1], hint) };
  }
  if (o.orgName === undefined && o.appName === undefined) throw new ConfigError('orgName', 'is required.', hint);
  return { orgName: segment('orgName', o.orgName, hint), appName: segment('appName', o.appName, hint) };
}

function secretSource(value: unknown): ClientSecretSource {
  const hint = 'Give the client secret shown once in the console, or a function that returns the current one.';
  if (typeof value === 'function') return value as ClientSecretSource;
  if (value === undefined) throw new ConfigError('clientSecret', 'is required.', hint);
  if (typeof value !== 'string')
    throw new ConfigError('clientSecret', `must be a string or a function (got ${typeof value}).`, hint);
  if (value.trim() === '') throw new ConfigError('clientSecret', 'must not be empty.', hint);
  return value;
}

function tokenStoreOf(value: unknown): TokenStore {
  if (value === undefined) return new MemoryTokenStore();
  const s = value as Record<string, unknown>;
  if (typeof value !== 'object' || value === null || ['get', 'set', 'delete'].some((m) => typeof s[m] !== 'function')) {
    throw new ConfigError('tokenStore', 'must implement get(key), set(key, token) and delete(key).');
  }
  if (s.withExchangeLock !== undefined && typeof s.withExchangeLock !== 'function') {
    throw new ConfigError('tokenStore', 'withExchangeLock must be a function when present.');
  }
  return value as TokenStore;
}

/** `im-server-sdk/1.2.3 node/20.11.0` (or the runtime's name where it is not Node). */
export function userAgent(): string {
  const g = globalThis as {
    process?: { versions?: { node?: string } };
    Deno?: { version?: { deno?: string } };
    Bun?: { version?: string };
    navigator?: { userAgent?: string };
  };
  const runtime = g.Bun?.version
    ? `bun/${g.Bun.version}`
    : g.Deno?.version?.deno
      ? `deno/${g.Deno.version.deno}`
      : g.process?.versions?.node
        ? `node/${g.process.versions.node}`
        : 'runtime/unknown';
  return `${SDK_NAME}/${SDK_VERSION} ${runtime}`;
}

/**
 * The options checked and normalised; `features` (the client class's) checks the transport and
 * quota options. `sharedTransport`: the transport of the client `withOptions` derives from, when
 * its transport options stay the same (its connections are reused, no second one is made).
 */
export function resolveConfig(
  options: ClientOptions,
  features: CoreFeatures,
  sharedTransport?: Pick<ResolvedConfig, 'send' | 'transport'>,
): ResolvedConfig {
  if (typeof options !== 'object' || options === null) {
    throw new ConfigError(
      'options',
      'must be an object with baseUrl, appKey (or orgName and appName), clientId and clientSecret.',
    );
  }
  const o = options;
  assertServerSide(o.dangerouslyAllowBrowser);
  const baseUrl = baseUrlOf(o.baseUrl);
  const { orgName, appName } = orgAndApp(o);
  const clientId = nonEmptyString('clientId', o.clientId, 'Give the client id shown in the console.');
  const clientSecret = secretSource(o.clientSecret);
  const transport = sharedTransport
    ? { kind: sharedTransport.transport, send: sharedTransport.send }
    : features.transport(o, baseUrl);
  const quota = features.quota ? features.quota.resolve(o) : refuseQuotaOptions(o);
  if (o.logger !== undefined && (typeof o.logger !== 'object' || o.logger === null)) {
    throw new ConfigError('logger', 'must be an object with any of debug/info/warn/error.');
  }
  if (o.validateRequests !== undefined && typeof o.validateRequests !== 'boolean') {
    throw new ConfigError('validateRequests', 'must be a boolean.');
  }
  if (o.validateResponses !== undefined && typeof o.validateResponses !== 'boolean') {
    throw new ConfigError('validateResponses', 'must be a boolean.');
  }
  const internals = o.internals ?? {};
  return {
    baseUrl,
    orgName,
    appName,
    clientId,
    clientSecret,
    maxRetries: number('maxRetries', o.maxRetries, 2, 0, true),
    timeoutMs: number('timeoutMs', o.timeoutMs, 60_000, 1, false, MAX_TIMER_MS),
    deadlineMs: o.deadlineMs === undefined ? undefined : number('deadlineMs', o.deadlineMs, 0, 1, false, MAX_TIMER_MS),
    send: transport.send,
    transport: transport.kind,
    logger: o.logger,
    tokenStore: tokenStoreOf(o.tokenStore),
    tokenStoreTimeoutMs: number(
      'tokenStoreTimeoutMs',
      o.tokenStoreTimeoutMs,
      DEFAULT_STORE_BUDGET_MS,
      1,
      false,
      MAX_TIMER_MS,
    ),
    validateRequests: o.validateRequests ?? true,
    validateResponses: o.validateResponses ?? false,
    onResponseDrift: optionalFunction('onResponseDrift', o.onResponseDrift),
    maxRetryAfterMs: number('maxRetryAfterMs', o.maxRetryAfterMs, 60_000, 0),
    maxResponseBytes: number('maxResponseBytes', o.maxResponseBytes, DEFAULT_MAX_RESPONSE_BYTES, 1, true),
    tokenRefreshMarginMs:
      o.tokenRefreshMarginMs === undefined ? undefined : number('tokenRefreshMarginMs', o.tokenRefreshMarginMs, 0, 0),
    onTokenEvent: optionalFunction('onTokenEvent', o.onTokenEvent),
    onCredentialsRevoked: optionalFunction('onCredentialsRevoked', o.onCredentialsRevoked),
    hooks: hooksOf(o.hooks),
    quotaStore: quota.store,
    rateLimit: quota.rateLimit,
    baseHeaders: { 'user-agent': userAgent(), ...checkedHeaders('defaultHeaders', o.defaultHeaders) },
    random: internals.random ?? Math.random,
    sleep: internals.sleep ?? realSleep,
    now: internals.now ?? Date.now,
    hostName: internals.hostName,
  };
}
