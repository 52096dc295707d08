// Copied by im-openapi from templates/runtime/internal/token-exchange.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The token exchange request (internal, unstable): POST `/{org}/{app}/token` with
 * client_credentials, no Authorization header (REST seed 4.1), through the same attempt loop as
 * every operation (per-attempt timeout, resends as class Q, the 429 gate).
 */
import type { OperationSpec } from '../operation.js';
import { ImError } from '../core/errors.js';
import { CallScope } from './call-scope.js';
import type { Prefix } from './request-builder.js';
import { buildRequest } from './request-builder.js';
import { retryPolicyFor } from './retry.js';
import { sendWithRetries, type RuntimeContext } from './send-with-retries.js';
import type { StoredToken } from './token-manager.js';

/** The token exchange (REST seed 4.1), as the client itself sends it. */
export const TOKEN_EXCHANGE_OPERATION: OperationSpec = {
  id: 'app.token',
  method: 'POST',
  path: '/token',
  isTokenExchange: true,
  auth: false,
  pathParams: [],
  queryParams: [],
  body: 'object',
  bodyFields: ['grant_type', 'client_id', 'client_secret'],
  retryClass: 'Q',
  successStatuses: [200],
};

/**
 * The range of expires_in the service may set (REST seed 2.1: app_token_ttl_seconds, 300 s to
 * 1 year). An answer outside it is clamped: below 300 s a proxy or a bug would make the client
 * exchange on nearly every call (the seed allows 120 exchanges a minute per IP).
 */
export const MIN_EXPIRES_IN_S = 300;
export const MAX_EXPIRES_IN_S = 365 * 24 * 3600;
/** Lifetime assumed when an answer has no usable expires_in: the shortest the service allows. */
const FALLBACK_EXPIRES_IN_S = MIN_EXPIRES_IN_S;

export interface ExchangeSettings {
  prefix: Prefix;
  clientId: string;
  maxRetries: number;
  timeoutMs: number;
  deadlineMs: number | undefined;
}

export async function exchangeToken(
  rt: RuntimeContext,
  settings: ExchangeSettings,
  secret: string,
): Promise<StoredToken> {
  const op = TOKEN_EXCHANGE_OPERATION;
  const params = { grant_type: 'client_credentials', client_id: settings.clientId, client_secret: secret };
  const scope = new CallScope({
    operationId: op.id,
    ...(settings.deadlineMs !== undefined ? { deadlineMs: settings.deadlineMs } : {}),
    now: rt.now,
  });
  const started = rt.now();
  const observer = rt.observe?.(op.id, true);
  try {
    const sent = sendWithRetries(rt, {
      op,
      request: buildRequest(op, params, settings.prefix),
      policy: retryPolicyFor(op, params),
      headers: {},
      maxRetries: settings.maxRetries,
      timeoutMs: settings.timeoutMs,
      scope,
      observer,
    });
    const { data, response } = await (observer ? observer.track(sent) : sent);
    const body = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
    const accessToken = body.access_token;
    if (typeof accessToken !== 'string' || accessToken === '') {
      throw new ImError(
        `The token exchange answered ${response.status} without an access_token (request_id ${response.requestId ?? 'unknown'}); check baseUrl.`,
      );
    }
    rt.redactor.add(accessToken);
    let expiresIn = body.expires_in;
    if (typeof expiresIn !== 'number' || !Number.isFinite(expiresIn) || expiresIn <= 0) {
      rt.logger.warn(`token exchange answer has no usable expires_in; assuming ${FALLBACK_EXPIRES_IN_S} s`);
      expiresIn = FALLBACK_EXPIRES_IN_S;
    } else if (expiresIn < MIN_EXPIRES_IN_S || expiresIn > MAX_EXPIRES_IN_S) {
      const clamped = Math.min(Math.max(expiresIn, MIN_EXPIRES_IN_S), MAX_EXPIRES_IN_S);
      rt.logger.warn(
        `token exchange answered expires_in ${expiresIn} s, outside the documented 300 s to 1 year; using ${clamped} s`,
      );
      expiresIn = clamped;
    }
    return {
      accessToken,
      expiresAt: started + (expiresIn as number) * 1000,
      obtainedAt: started,
      ...(typeof body.application === 'string' ? { application: body.application } : {}),
    };
  } finally {
    scope.dispose();
  }
}
