// Copied by im-openapi from templates/runtime/core/api-errors.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The errors of answers (REST seed section 7): `ApiError`, one subclass per documented code,
 * `RateLimitedError` and `CredentialsRevokedError`. Re-exported by `errors.ts` with the rest.
 */
import { ImError } from './error-base.js';

export interface ApiErrorInit {
  status: number;
  code: string | undefined;
  /** The service's own text (already redacted). */
  serviceMessage: string | undefined;
  requestId: string | undefined;
  details: Record<string, unknown> | undefined;
  headers: Record<string, string>;
  operationId: string;
  attempts: number;
  mayBeEchoOfEarlierAttempt: boolean;
  /** Extra, actionable text appended to the message. */
  hint?: string | undefined;
}

/** An answer of the service that is not a success. */
export class ApiError extends ImError {
  readonly status: number;
  readonly code: string | undefined;
  readonly requestId: string | undefined;
  readonly details: Record<string, unknown> | undefined;
  /** Response headers, lower-cased, secret values masked. */
  readonly headers: Record<string, string>;
  readonly operationId: string;
  /** Attempts sent for this call (1 when nothing was resent). */
  readonly attempts: number;
  /**
   * True when this answer came to a RESENT attempt and may be the echo of an earlier attempt
   * that the service did execute: `already_exists` for a unique create (class U),
   * `not_found` / `version_conflict` for an idempotent operation (class I).
   */
  readonly mayBeEchoOfEarlierAttempt: boolean;
  /** The service's own message text. */
  readonly serviceMessage: string | undefined;

  constructor(init: ApiErrorInit) {
    super(composeMessage(init));
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.details = init.details;
    this.headers = init.headers;
    this.operationId = init.operationId;
    this.attempts = init.attempts;
    this.mayBeEchoOfEarlierAttempt = init.mayBeEchoOfEarlierAttempt;
    this.serviceMessage = init.serviceMessage;
  }
}

function composeMessage(init: ApiErrorInit): string {
  const head = `${init.operationId} failed: ${init.status}${init.code ? ` ${init.code}` : ''}`;
  const said = init.serviceMessage ? ` - ${init.serviceMessage}` : '';
  const reqId = init.requestId ? ` (request_id ${init.requestId})` : '';
  const echo = init.mayBeEchoOfEarlierAttempt
    ? ' This answer came to a resent attempt: an earlier attempt of this same call may have succeeded, so this may be the echo of your own change.'
    : '';
  const hint = init.hint ? ` ${init.hint}` : '';
  return `${head}${said}${reqId}.${echo}${hint}`;
}

/** 400 invalid_argument. */
export class InvalidArgumentError extends ApiError {}
/** 401 invalid_client: wrong client id or secret, or org/app do not exist (not told apart). */
export class InvalidClientError extends ApiError {}
/** 401 unauthenticated: the App Token is invalid or expired (and one re-exchange did not help). */
export class UnauthenticatedError extends ApiError {}
/** 403 permission_denied: the token's application differs from org/app in the path. */
export class PermissionDeniedError extends ApiError {}
/** 403 ip_not_allowed: the source IP is not in the application's allowlist. */
export class IpNotAllowedError extends ApiError {}
/** 403 tenant_unavailable: the tenant is suspended or in its closure cooling-off period. */
export class TenantUnavailableError extends ApiError {}
/** 403 app_unavailable: the application is disabled or suspended. */
export class AppUnavailableError extends ApiError {}
/** already_exists: a repeat of a unique create. */
export class AlreadyExistsError extends ApiError {}
/** not_found. */
export class NotFoundError extends ApiError {}
/** version_conflict. */
export class VersionConflictError extends ApiError {}

/** 429 rate_limited. `retryAfterMs` is the wait the service asked for (when it said one). */
export class RateLimitedError extends ApiError {
  readonly retryAfterMs: number | undefined;
  constructor(init: ApiErrorInit & { retryAfterMs: number | undefined }) {
    super(init);
    this.retryAfterMs = init.retryAfterMs;
  }
}

/**
 * `details.reason` app_deleted or tenant_closed: the credentials are gone for good. The client
 * has discarded them; every later call of this client fails at once with this error.
 */
export class CredentialsRevokedError extends ApiError {
  readonly reason: 'app_deleted' | 'tenant_closed';
  constructor(init: ApiErrorInit & { reason: 'app_deleted' | 'tenant_closed' }) {
    super(init);
    this.reason = init.reason;
  }
}
