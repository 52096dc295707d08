// Copied by im-openapi from templates/runtime/internal/request-checks.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The checks a call passes before anything is built or sent: its request options, and its params
 * (near-miss field names, then the operation's lazily loaded request validator).
 */
import type { OperationSpec, RequestValidator } from '../operation.js';
import { ConfigError, ImError, ValidationError } from '../core/errors.js';
import type { RequestOptions } from '../core/options.js';
import { checkedHeaders, MAX_TIMER_MS } from './config.js';
import { nearMissIssues } from './near-miss.js';

/** Validators already loaded, by operation: later calls skip the dynamic import's promise. */
const loadedValidators = new WeakMap<OperationSpec, RequestValidator>();

async function loadValidator(op: OperationSpec): Promise<RequestValidator> {
  const validator = await op.loadValidator!();
  loadedValidators.set(op, validator);
  return validator;
}

/** The operation's request validator: loaded once, then taken from the cache without a promise hop. */
export function validatorOf(op: OperationSpec): RequestValidator | Promise<RequestValidator> {
  return loadedValidators.get(op) ?? loadValidator(op);
}

/**
 * Throws a ValidationError naming each field and rule the params break; nothing is sent then.
 * Returns a promise only while the validator is still loading (a cached one adds no promise hop).
 */
export function validateParams(op: OperationSpec, params: Record<string, unknown>): Promise<void> | undefined {
  const misses = nearMissIssues(op, params);
  if (misses.length > 0) throw new ValidationError(op.id, misses);
  if (!op.loadValidator) return undefined;
  const loaded = loadedValidators.get(op);
  if (loaded === undefined)
    return loadValidator(op).then(
      (validator) => runValidator(op, validator, params),
      (err: unknown) => Promise.reject(validatorFailed(op, err)),
    );
  runValidator(op, loaded, params);
  return undefined;
}

function runValidator(op: OperationSpec, validator: RequestValidator, params: Record<string, unknown>): void {
  let issues: ReturnType<RequestValidator['validate']>;
  try {
    issues = validator.validate(params);
  } catch (err) {
    throw validatorFailed(op, err);
  }
  if (issues && issues.length > 0) throw new ValidationError(op.id, issues);
}

function validatorFailed(op: OperationSpec, err: unknown): ImError {
  return new ImError(
    `The request validator of ${op.id} failed to load or run; pass { validate: false } to skip it, and report this.`,
    { cause: err },
  );
}

/** Checks one call's options; returns its own headers, checked. */
export function checkRequestOptions(options: RequestOptions): Record<string, string> {
  if (typeof options !== 'object' || options === null) throw new ConfigError('requestOptions', 'must be an object.');
  const { maxRetries, timeoutMs, deadlineMs, headers, signal, maxResponseBytes, priority, maxRetryAfterMs } = options;
  if (
    maxRetryAfterMs !== undefined &&
    !(typeof maxRetryAfterMs === 'number' && Number.isFinite(maxRetryAfterMs) && maxRetryAfterMs >= 0)
  ) {
    throw new ConfigError(
      'requestOptions.maxRetryAfterMs',
      `must be a finite number >= 0 (got ${String(maxRetryAfterMs)}).`,
    );
  }
  if (priority !== undefined && priority !== 'interactive' && priority !== 'background') {
    throw new ConfigError(
      'requestOptions.priority',
      `must be 'interactive' or 'background' (got ${String(priority)}).`,
    );
  }
  // (contentType is checked against the operation's media types when the request is built)
  if (maxResponseBytes !== undefined && !(Number.isInteger(maxResponseBytes) && maxResponseBytes > 0)) {
    throw new ConfigError(
      'requestOptions.maxResponseBytes',
      `must be an integer > 0 (got ${String(maxResponseBytes)}).`,
    );
  }
  if (
    signal !== undefined &&
    !(
      typeof signal === 'object' &&
      signal !== null &&
      typeof signal.aborted === 'boolean' &&
      typeof signal.addEventListener === 'function'
    )
  ) {
    throw new ConfigError(
      'requestOptions.signal',
      'must be an AbortSignal (e.g. AbortController#signal or AbortSignal.timeout(ms)).',
    );
  }
  if (maxRetries !== undefined && (!Number.isInteger(maxRetries) || maxRetries < 0)) {
    throw new ConfigError('requestOptions.maxRetries', `must be an integer >= 0 (got ${String(maxRetries)}).`);
  }
  checkTimerMs('timeoutMs', timeoutMs);
  checkTimerMs('deadlineMs', deadlineMs);
  return checkedHeaders('requestOptions.headers', headers);
}

function checkTimerMs(name: 'timeoutMs' | 'deadlineMs', ms: unknown): void {
  if (ms !== undefined && !(typeof ms === 'number' && ms > 0 && ms <= MAX_TIMER_MS)) {
    throw new ConfigError(
      `requestOptions.${name}`,
      `must be a positive number of ms, at most ${MAX_TIMER_MS} (the longest timer wait) (got ${String(ms)}).`,
    );
  }
}
