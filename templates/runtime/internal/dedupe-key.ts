/**
 * Dedupe keys of D operations (internal, unstable). Before the first send the key
 * (`client_msg_id` in the body, or an idempotency header) is filled: the caller's
 * `idempotencyKey` option, else the caller's own value, else a fresh UUID. Every resend of the
 * call reuses the same built request, so it carries the same key.
 */
import type { OperationSpec } from '../operation.js';
import { ValidationError } from '../core/errors.js';

export function freshDedupeKey(): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  // Fallback for runtimes without crypto.randomUUID: time + random, still unique enough per client.
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;
}

export interface WithDedupeKey {
  params: Record<string, unknown>;
  headers: Record<string, string>;
  /** The key sent (undefined when the operation has none). */
  key: string | undefined;
}

/** Returns copies of params and headers with the dedupe key filled; the caller's objects are not changed. */
export function fillDedupeKey(
  op: OperationSpec,
  params: Record<string, unknown>,
  headers: Record<string, string>,
  idempotencyKey: string | undefined,
): WithDedupeKey {
  const spec = op.dedupeKey;
  if (!spec) return { params, headers, key: undefined };
  if (
    idempotencyKey !== undefined &&
    (typeof idempotencyKey !== 'string' || idempotencyKey === '' || /[\u0000-\u001f\u007f]/.test(idempotencyKey))
  ) {
    throw new ValidationError(op.id, [
      {
        pointer: '',
        rule: 'idempotencyKey',
        message: 'the idempotencyKey option must be a non-empty string without control characters',
      },
    ]);
  }
  if (spec.in === 'body') {
    const own = params[spec.name];
    if (own !== undefined && own !== null && idempotencyKey !== undefined && own !== idempotencyKey) {
      throw new ValidationError(op.id, [
        {
          pointer: `/${spec.name}`,
          rule: 'idempotencyKey',
          message: `\`${spec.name}\` and the idempotencyKey option differ; give one of them`,
        },
      ]);
    }
    if (own !== undefined && own !== null && idempotencyKey === undefined) return { params, headers, key: String(own) };
    const key = idempotencyKey ?? freshDedupeKey();
    return { params: { ...params, [spec.name]: key }, headers, key };
  }
  const name = spec.name.toLowerCase();
  const own = headers[name];
  if (own !== undefined && idempotencyKey !== undefined && own !== idempotencyKey) {
    throw new ValidationError(op.id, [
      {
        pointer: '',
        rule: 'idempotencyKey',
        message: `the ${spec.name} header and the idempotencyKey option differ; give one of them`,
      },
    ]);
  }
  const key = idempotencyKey ?? own ?? freshDedupeKey();
  return { params, headers: { ...headers, [name]: key }, key };
}
