/**
 * Error classes of the SDK. Every error is an `ImError`; answers of the service are `ApiError`s
 * with one subclass per documented code (REST seed section 7). Messages name the likely cause
 * and the fix, and never contain the App Token, the client secret or an Authorization value.
 */
import type { ValidationIssue } from '../operation.js';
import { isSecretLookingName } from '../internal/redact.js';

export class ImError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    Object.defineProperty(this, 'name', { value: new.target.name, enumerable: false, writable: true });
    // Keep `cause` out of JSON.stringify (it may be a foreign object); it stays readable.
    if (options && 'cause' in options) {
      Object.defineProperty(this, 'cause', { value: options.cause, enumerable: false, writable: true });
    }
  }

  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, message: this.message };
    for (const [k, v] of Object.entries(this)) out[k] = v;
    return out;
  }
}

/** A client option is missing or malformed. `option` names it. */
export class ConfigError extends ImError {
  readonly option: string;
  constructor(option: string, problem: string, hint?: string) {
    super(`Invalid client option \`${option}\`: ${problem}${hint ? ` ${hint}` : ''}`);
    this.option = option;
  }
}

/** The params of a call were refused before anything was sent. */
export class ValidationError extends ImError {
  readonly operationId: string;
  readonly issues: readonly ValidationIssue[];
  constructor(operationId: string, issues: readonly ValidationIssue[]) {
    const shown = issues.slice(0, 10).map(describeIssue);
    const more = issues.length > 10 ? ` (and ${issues.length - 10} more)` : '';
    super(
      `Invalid params for ${operationId}; nothing was sent: ${shown.join('; ')}${more}. ` +
        'Fix the named fields (see the method documentation for each field and rule).',
    );
    this.operationId = operationId;
    this.issues = issues.map((i) => (isSecretPointer(i.pointer) ? { ...i, message: genericMessage(i) } : i));
  }
}

function isSecretPointer(pointer: string): boolean {
  return pointer.split('/').some((seg) => seg !== '' && isSecretLookingName(seg));
}

function genericMessage(issue: ValidationIssue): string {
  return `${issue.pointer || '(params)'} does not satisfy the rule \`${issue.rule}\``;
}

function describeIssue(issue: ValidationIssue): string {
  if (isSecretPointer(issue.pointer)) return genericMessage(issue);
  const where = issue.pointer || '(params)';
  const allowed = issue.allowed ? ` (allowed: ${issue.allowed.map((a) => JSON.stringify(a)).join(', ')})` : '';
  return `${where}: ${issue.message} [${issue.rule}]${allowed}`;
}

/** The service could not be reached, or the connection broke before a full answer arrived. */
export class ConnectionError extends ImError {
  readonly operationId: string | undefined;
  readonly attempts: number;
  /** Low-level error code when known, e.g. `ECONNRESET`, `ECONNREFUSED`. */
  readonly errorCode: string | undefined;
  constructor(message: string, opts: { operationId?: string; attempts?: number; errorCode?: string; cause?: unknown }) {
    super(message, { cause: opts.cause });
    this.operationId = opts.operationId;
    this.attempts = opts.attempts ?? 1;
    this.errorCode = opts.errorCode;
  }
}

/** An attempt took longer than `timeoutMs`, or the call as a whole passed its `deadlineMs`. */
export class TimeoutError extends ImError {
  readonly operationId: string | undefined;
  readonly kind: 'attempt' | 'deadline';
  readonly timeoutMs: number;
  readonly attempts: number;
  constructor(
    message: string,
    opts: { operationId?: string; kind: 'attempt' | 'deadline'; timeoutMs: number; attempts?: number; cause?: unknown },
  ) {
    super(message, { cause: opts.cause });
    this.operationId = opts.operationId;
    this.kind = opts.kind;
    this.timeoutMs = opts.timeoutMs;
    this.attempts = opts.attempts ?? 1;
  }
}

/**
 * A success body was larger than the bound (`maxResponseBytes`, client or call option). Reading
 * stopped at the bound (also inside decompression). Never resent: the service answered, and
 * asking again would bring the same answer.
 */
export class ResponseTooLargeError extends ImError {
  readonly code = 'response_too_large';
  readonly operationId: string;
  readonly status: number;
  readonly limitBytes: number;
  readonly attempts: number;
  constructor(opts: { operationId: string; status: number; limitBytes: number; attempts: number }) {
    super(
      `${opts.operationId}: the ${opts.status} answer is over maxResponseBytes (${opts.limitBytes}); reading stopped there. Not resent: the service answered, so the operation was executed (check its effect before repeating it). Raise maxResponseBytes if such answers are expected.`,
    );
    this.operationId = opts.operationId;
    this.status = opts.status;
    this.limitBytes = opts.limitBytes;
    this.attempts = opts.attempts;
  }
}

/** The caller's AbortSignal fired. `reason` is the signal's reason. */
export class AbortError extends ImError {
  readonly operationId: string | undefined;
  readonly reason: unknown;
  constructor(operationId?: string, reason?: unknown) {
    super(`${operationId ?? 'The call'} was aborted by the caller's AbortSignal.`);
    this.operationId = operationId;
    Object.defineProperty(this, 'reason', { value: reason, enumerable: false });
  }
}

/**
 * A list walk got a `next_cursor` that it had already followed: the service (or something in
 * between) answers in a cycle, so the walk stops instead of looping forever. Nothing more is
 * sent; the pages already yielded stand. (The cursor itself is not shown: it may encode data.)
 */
export class PaginationCycleError extends ImError {
  /** Pages fetched in this walk before the repeated cursor was seen. */
  readonly pagesFetched: number;
  constructor(pagesFetched: number) {
    super(
      `The service returned a next_cursor that this walk already followed (after ${pagesFetched} page(s)); ` +
        'stopping to avoid an endless loop. The items seen so far were yielded; report the request ids to the service.',
    );
    this.pagesFetched = pagesFetched;
  }
}

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
 * A call that was NOT sent: the client is paused by an earlier 429 for longer than
 * `maxRetryAfterMs` (`client.rateLimit` shows the pause and can clear it). Not an `ApiError`: the
 * service did not answer this call. `sent` is false; `attempts` counts the attempts this call
 * had sent before the pause stopped it (0 for a call that never went out).
 */
export class RateLimitPausedError extends ImError {
  readonly code = 'rate_limit_paused' as const;
  readonly sent = false as const;
  readonly operationId: string;
  readonly attempts: number;
  /** Ms left in the pause when the call was refused. */
  readonly retryAfterMs: number;
  /** Epoch ms when the pause ends. */
  readonly pausedUntil: number;
  /**
   * Which pause: `app`, every call of the application (a 429 to a REST call: the quota is per
   * application), or `exchange`, the token exchanges of this host (a 429 to a token exchange: the
   * service limits exchanges per source IP; calls with a valid App Token go on).
   */
  readonly gate: 'app' | 'exchange';
  constructor(init: {
    operationId: string;
    attempts: number;
    retryAfterMs: number;
    pausedUntil: number;
    maxRetryAfterMs: number;
    gate?: 'app' | 'exchange';
  }) {
    const gate = init.gate ?? 'app';
    super(
      gate === 'app'
        ? `${init.operationId} was not sent: the client is paused by an earlier 429 for ${init.retryAfterMs} ms more, longer than ` +
            `maxRetryAfterMs (${init.maxRetryAfterMs} ms). Retry after retryAfterMs, raise maxRetryAfterMs, or call client.rateLimit.clear() ` +
            'if you know the quota is available again.'
        : `${init.operationId} was not sent: token exchanges of this host are paused by an earlier 429 to a token exchange (the service ` +
            `limits exchanges per source IP) for ${init.retryAfterMs} ms more, longer than maxRetryAfterMs (${init.maxRetryAfterMs} ms). ` +
            'Calls holding a valid App Token are not affected; retry after retryAfterMs, or share the App Token between processes (tokenStore) so fewer exchanges are needed.',
    );
    this.gate = gate;
    this.operationId = init.operationId;
    this.attempts = init.attempts;
    this.retryAfterMs = init.retryAfterMs;
    this.pausedUntil = init.pausedUntil;
  }
}

/**
 * The client-side rate limit (`rateLimit` option) or the token exchange pacing (120 a minute per
 * source IP) would make this call wait longer than it may: past its deadline, or past
 * `rateLimit.maxWaitMs`. Nothing was sent.
 */
export class RateLimitWaitError extends ImError {
  readonly code = 'rate_limit_wait' as const;
  readonly sent = false as const;
  readonly operationId: string;
  /** What the call waited for: a send slot of the rate limit, or a token exchange slot of this host. */
  readonly limit: 'rateLimit' | 'exchangePacing';
  /** Ms the call had waited when it was given up. */
  readonly waitedMs: number;
  /** The wait it would have needed, as far as known (at least this much). */
  readonly neededMs: number;
  /** The call's budget: its remaining deadline or rateLimit.maxWaitMs, whichever was shorter. */
  readonly budgetMs: number;
  constructor(init: {
    operationId: string;
    limit: 'rateLimit' | 'exchangePacing';
    waitedMs: number;
    neededMs: number;
    budgetMs: number;
    perSecond: number;
    cause?: unknown;
  }) {
    const what =
      init.limit === 'rateLimit'
        ? `a send slot of the client's rateLimit (${init.perSecond}/s)`
        : `a token exchange slot of this host (the service allows 120 a minute per source IP)`;
    super(
      `${init.operationId} was not sent: it would wait at least ${Math.round(init.neededMs)} ms for ${what}, longer than its budget of ` +
        `${Math.round(init.budgetMs)} ms (its deadline or rateLimit.maxWaitMs). Lower the call rate, raise deadlineMs or rateLimit.maxWaitMs, ` +
        "or send bulk work with priority 'background' so interactive calls go first.",
      init.cause !== undefined ? { cause: init.cause } : undefined,
    );
    this.operationId = init.operationId;
    this.limit = init.limit;
    this.waitedMs = Math.round(init.waitedMs);
    this.neededMs = Math.round(init.neededMs);
    this.budgetMs = Math.round(init.budgetMs);
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

/**
 * A shared store (Redis, or a store of your own: tokens, the quota gate, dedupe and nonces, the
 * callback inbox) failed or refused. `what` names the call (`Redis EVALSHA`, `inbox append`, …),
 * never a key's value; the store's own error is `cause`. The client falls back where its docs say
 * so (exchanging instead of the token cache, limiting alone instead of the fleet), and the
 * callback kit answers 503 or the hook's default decision.
 */
export class StoreError extends ImError {
  readonly code: string = 'store_failed';
  /** The store call that failed. */
  readonly what: string;
  constructor(what: string, problem: string, options?: { cause?: unknown }) {
    super(`${what} ${problem}`, options);
    this.what = what;
  }
}

/** `err` as a StoreError of `what` (an ImError stays as it is: it already says what it is). */
export function asStoreError(err: unknown, what: string): ImError {
  if (err instanceof ImError) return err;
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return new StoreError(what, `failed (${text})`, { cause: err });
}
