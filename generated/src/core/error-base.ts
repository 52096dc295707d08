// Copied by im-openapi from templates/runtime/core/error-base.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The base of every SDK error (`ImError`) and the errors raised before or without a call (a
 * client option, params refused, a shared store that failed). Re-exported by `errors.ts` with the
 * rest.
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
