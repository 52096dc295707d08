/**
 * Maps an answer of the service (REST seed 2.2 body `{error:{code,message,request_id,details}}`)
 * to the error class of its code, with a hint that names the likely cause and the fix.
 */
import type { RetryClass } from '../operation.js';
import { SecretRedactor, redactHeaders } from '../internal/redact.js';
import type { ResponseHeaders } from '../internal/http-attempt.js';
import {
  AlreadyExistsError,
  ApiError,
  AppUnavailableError,
  CredentialsRevokedError,
  InvalidArgumentError,
  InvalidClientError,
  IpNotAllowedError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitedError,
  TenantUnavailableError,
  UnauthenticatedError,
  VersionConflictError,
  type ApiErrorInit,
} from './errors.js';

export interface ErrorContext {
  operationId: string;
  /** Attempts sent for this call so far, this one included. */
  attempts: number;
  /** True when the answer came to a resent attempt. */
  resent: boolean;
  retryClass: RetryClass;
  /** Removes the client's known secrets from text taken from the answer. */
  redactor?: SecretRedactor;
  /** For 429: the wait that Retry-After gave, in ms. */
  retryAfterMs?: number;
  /** Replaces the default hint of the code. */
  hint?: string;
}

export interface ParsedErrorBody {
  code: string | undefined;
  message: string | undefined;
  requestId: string | undefined;
  details: Record<string, unknown> | undefined;
  /** True when the body was not the documented JSON error object. */
  nonJson: boolean;
}

export const REVOKED_REASONS = ['app_deleted', 'tenant_closed'] as const;

/**
 * Reads the documented error body; tolerates text, HTML, empty and odd JSON bodies. A text body
 * is redacted BEFORE it is cut to a snippet: cut first, a token straddling the cut would no
 * longer match and its prefix would leak.
 */
export function parseErrorBody(body: unknown, redactor?: SecretRedactor): ParsedErrorBody {
  let value = body;
  if (typeof body === 'string') {
    try {
      value = body.trim() === '' ? undefined : JSON.parse(body);
    } catch {
      return {
        code: undefined,
        message: snippet(redactor ? redactor.text(body) : body),
        requestId: undefined,
        details: undefined,
        nonJson: true,
      };
    }
  }
  const err = isRecord(value) && isRecord(value.error) ? value.error : undefined;
  if (!err) {
    return {
      code: undefined,
      message: undefined,
      requestId: undefined,
      details: undefined,
      nonJson: value !== undefined,
    };
  }
  return {
    code: typeof err.code === 'string' ? err.code : undefined,
    message: typeof err.message === 'string' ? err.message : undefined,
    requestId: typeof err.request_id === 'string' ? err.request_id : undefined,
    details: isRecord(err.details) ? err.details : undefined,
    nonJson: false,
  };
}

/** The revocation reason of an answer (`details.reason` app_deleted / tenant_closed), if any. */
export function revokedReason(parsed: ParsedErrorBody): 'app_deleted' | 'tenant_closed' | undefined {
  const reason = parsed.details?.reason;
  return reason === 'app_deleted' || reason === 'tenant_closed' ? reason : undefined;
}

export function errorFromResponse(
  status: number,
  body: unknown,
  headers: ResponseHeaders | Record<string, string> | undefined,
  ctx: ErrorContext,
): ApiError {
  const redactor = ctx.redactor ?? new SecretRedactor();
  const parsed = parseErrorBody(body, redactor);
  const shownHeaders: Record<string, string> = {};
  for (const [name, value] of Object.entries(redactHeaders(headers))) shownHeaders[name] = redactor.text(value);
  const code = parsed.code ?? (status === 429 ? 'rate_limited' : undefined);
  const echo =
    ctx.resent &&
    ((ctx.retryClass === 'U' && code === 'already_exists') ||
      (ctx.retryClass === 'I' && (code === 'not_found' || code === 'version_conflict')));
  const reason = revokedReason(parsed);
  const init: ApiErrorInit = {
    status,
    code,
    serviceMessage: parsed.message === undefined ? undefined : redactor.text(parsed.message),
    requestId: parsed.requestId ?? shownHeaders['x-request-id'],
    details: parsed.details === undefined ? undefined : (redactor.value(parsed.details) as Record<string, unknown>),
    headers: shownHeaders,
    operationId: ctx.operationId,
    attempts: ctx.attempts,
    mayBeEchoOfEarlierAttempt: echo,
    hint: ctx.hint ?? defaultHint(status, code, reason, parsed),
  };
  if (reason) return new CredentialsRevokedError({ ...init, reason });
  switch (code) {
    case 'invalid_argument':
      return new InvalidArgumentError(init);
    case 'invalid_client':
      return new InvalidClientError(init);
    case 'unauthenticated':
      return new UnauthenticatedError(init);
    case 'permission_denied':
      return new PermissionDeniedError(init);
    case 'ip_not_allowed':
      return new IpNotAllowedError(init);
    case 'tenant_unavailable':
      return new TenantUnavailableError(init);
    case 'app_unavailable':
      return new AppUnavailableError(init);
    case 'rate_limited':
      return new RateLimitedError({ ...init, retryAfterMs: ctx.retryAfterMs });
    case 'already_exists':
      return new AlreadyExistsError(init);
    case 'not_found':
      return new NotFoundError(init);
    case 'version_conflict':
      return new VersionConflictError(init);
    default:
      return new ApiError(init);
  }
}

function defaultHint(
  status: number,
  code: string | undefined,
  reason: string | undefined,
  parsed: ParsedErrorBody,
): string | undefined {
  if (reason) {
    return (
      `The service says ${reason === 'app_deleted' ? 'the application was deleted' : 'the tenant was closed'}: ` +
      'this client discarded its credentials and fails every later call at once. Do not retry; discard the stored client id and secret.'
    );
  }
  switch (code) {
    case 'invalid_argument':
      return parsed.details?.reason === 'url_not_allowed'
        ? 'The callback address URL was rejected (see details.rule).'
        : 'The service refused an argument; check `details` and the method documentation.';
    case 'invalid_client':
      return (
        'The token exchange was refused: the client id or client secret is wrong, or org_name/app_name do not exist ' +
        '(the service does not tell these apart). Check clientId, clientSecret and orgName/appName (or appKey "org#app") for this baseUrl.'
      );
    case 'unauthenticated':
      return (
        'The App Token was refused even after a fresh exchange: the issuing secret may have been revoked or expired, ' +
        'or the application or tenant was disabled or suspended. Check the application in the console.'
      );
    case 'permission_denied':
      return "The token's application differs from org_name/app_name in the path: check orgName/appName (or appKey) and that a shared token store does not mix applications.";
    case 'ip_not_allowed':
      return "This server's source IP is not in the application's IP allowlist: add it in the console.";
    case 'tenant_unavailable':
      return 'The tenant is suspended or in its closure cooling-off period: contact the platform.';
    case 'app_unavailable':
      return 'The application is disabled or suspended: check its status in the console.';
    case 'rate_limited':
      return "The application's per-second OpenAPI quota is used up: wait as Retry-After says, or lower the call rate.";
    default:
      if (status >= 500) return 'The service failed to answer; it may help to retry later.';
      if (status >= 300 && status <= 399) {
        return 'The answer is a redirect, which is not followed (it could carry the App Token elsewhere): check baseUrl (scheme, host, path).';
      }
      if (parsed.nonJson)
        return 'The answer was not the documented JSON error body (a proxy or load balancer may have answered): check baseUrl.';
      return undefined;
  }
}

function snippet(text: string): string | undefined {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat === '') return undefined;
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
