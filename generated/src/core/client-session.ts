// Copied by im-openapi from templates/runtime/core/client-session.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * What a client made by `withOptions` carries over from the client it came from: the session (App
 * Token cache, 429 pause, revoked state, secrets to mask) unless an identity option changes, and the
 * transport (its keep-alive connections) unless a transport option changes.
 */
import type { CredentialsRevokedError } from './errors.js';
import type { ClientSecretSource } from './options.js';
import type { QuotaControl } from '../internal/quota-control.js';
import type { QuotaGate } from '../internal/quota-gate.js';
import type { SecretRedactor } from '../internal/redact.js';
import type { TokenManager } from '../internal/token-manager.js';

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
