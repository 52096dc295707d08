/**
 * What a client made by `withOptions` carries over from the client it came from: the session (App
 * Token cache, 429 pause, revoked state, secrets to mask) unless an identity option changes, and the
 * transport (its keep-alive connections) unless a transport option changes.
 */
import { CredentialsRevokedError } from './errors.js';
import type { ClientSecretSource } from './options.js';
import type { ResolvedConfig } from '../internal/config.js';
import type { CoreFeatures } from '../internal/core-features.js';
import type { SafeLogger } from '../internal/logger.js';
import type { QuotaControl } from '../internal/quota-control.js';
import { QuotaGate } from '../internal/quota-gate.js';
import type { SecretRedactor } from '../internal/redact.js';
import { TokenManager, tokenStoreKey, type StoredToken } from '../internal/token-manager.js';

/**
 * What clients made by `withOptions` share with the client they came from: the App Token cache,
 * the 429 pause (the quota is per application), the revoked state and the secrets to mask.
 */
export interface Session {
  tokens: TokenManager;
  gate: QuotaGate;
  /** The pause of this session's token exchanges after a 429 to one (exchanges are limited per source IP). */
  exchangeGate: QuotaGate;
  /** Absent when the new client has a rateLimit of its own (it still shares the gate). */
  quota: QuotaControl | undefined;
  redactor: SecretRedactor;
  state: { secret: ClientSecretSource | undefined; revoked: CredentialsRevokedError | undefined };
}

/** Carries the session from `withOptions` through a subclass constructor that takes options only. */
export const SHARED_SESSION = Symbol('im-openapi.shared-session');

/** Options that decide which App Token a client holds: overriding one starts a session of its own. */
export const IDENTITY_OPTIONS = [
  'baseUrl',
  'orgName',
  'appName',
  'appKey',
  'clientId',
  'clientSecret',
  'tokenStore',
  'quotaStore',
] as const;

/** Carries the transport (its keep-alive connections) from `withOptions` when these options stay the same. */
export const SHARED_TRANSPORT = Symbol('im-openapi.shared-transport');
export const TRANSPORT_OPTIONS = ['baseUrl', 'transport', 'fetch', 'agent', 'proxy'] as const;

/**
 * The token cache, the 429 gates and the fleet quota of a new client: each one the client it came
 * from shares (`shared`, from `withOptions`), else its own.
 */
export function sessionFor(
  shared: Session | undefined,
  own: { config: ResolvedConfig; features: CoreFeatures; logger: SafeLogger; exchange: () => Promise<StoredToken> },
): Pick<Session, 'tokens' | 'gate' | 'exchangeGate' | 'quota'> {
  const { config, features, logger } = own;
  const tokens =
    shared?.tokens ??
    new TokenManager({
      store: config.tokenStore,
      storeBudgetMs: config.tokenStoreTimeoutMs,
      key: tokenStoreKey(config.baseUrl, config.orgName, config.appName, config.clientId),
      exchange: own.exchange,
      now: config.now,
      ...(config.tokenRefreshMarginMs !== undefined ? { refreshMarginMs: config.tokenRefreshMarginMs } : {}),
      onEvent: (event) => {
        logger.debug(`token event: ${event.type}`);
        config.onTokenEvent?.(event);
      },
      logger,
    });
  const gate = shared?.gate ?? new QuotaGate(config.now, config.sleep);
  const exchangeGate = shared?.exchangeGate ?? new QuotaGate(config.now, config.sleep, 'exchange');
  const quota =
    shared?.quota ??
    features.quota?.create(
      {
        gate,
        exchangeGate,
        hostName: config.hostName,
        store: config.quotaStore,
        rateLimit: config.rateLimit,
        now: config.now,
        sleep: config.sleep,
        logger,
      },
      config,
    );
  return { tokens, gate, exchangeGate, quota };
}

/** The error of every call after the credentials were revoked (undefined while they are not). */
export function revokedErrorOf(state: Session['state'], operationId: string): CredentialsRevokedError | undefined {
  const first = state.revoked;
  if (!first) return undefined;
  return new CredentialsRevokedError({
    status: first.status,
    code: first.code,
    serviceMessage: undefined,
    requestId: first.requestId,
    details: first.details,
    headers: {},
    operationId,
    attempts: 0,
    mayBeEchoOfEarlierAttempt: false,
    reason: first.reason,
    hint:
      `Not sent: the service said ${first.reason} earlier (request_id ${first.requestId ?? 'unknown'}), so this client ` +
      'discarded its credentials. Create a new client with valid credentials.',
  });
}
