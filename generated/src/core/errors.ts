// Copied by im-openapi from templates/runtime/core/errors.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * Error classes of the SDK. Every error is an `ImError`; answers of the service are `ApiError`s
 * with one subclass per documented code (REST seed section 7). Messages name the likely cause
 * and the fix, and never contain the App Token, the client secret or an Authorization value.
 * Here: the errors of a call that got no usable answer (connection, timeout, too large, abort,
 * a pagination cycle); the base and pre-call errors are in `error-base.ts`, the answers' errors in
 * `api-errors.ts`, the rate limits' in `rate-limit-errors.ts`; this file exports them all.
 */
import { ImError } from './error-base.js';

export { ImError, ConfigError, ValidationError, StoreError, asStoreError } from './error-base.js';
export * from './api-errors.js';
export * from './rate-limit-errors.js';

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
