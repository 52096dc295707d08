// Copied by im-openapi from templates/runtime/helpers/batch-keys.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The dedupe keys of a batch of a D operation (batch.ts): the batch key (the caller's, checked
 * before anything is derived from it, or a fresh one), each chunk's key derived from it and the
 * chunk's entries, and the place the operation takes the key (body field or header).
 */
import { ValidationError } from '../core/errors.js';
import type { RequestOptions } from '../core/options.js';
import { freshDedupeKey } from '../internal/dedupe-key.js';
import type { OperationSpec } from '../operation.js';

/**
 * The batch key of a D operation: the caller's (`idempotencyKey` option or the key field),
 * checked BEFORE anything is derived from it (a string the operation's own validator accepts:
 * `""` was once sent as `":0"`), else a fresh one for this batch. Undefined without a dedupe key.
 */
export async function batchKeyOf(
  op: OperationSpec,
  params: Record<string, unknown>,
  options: RequestOptions,
  firstChunk: unknown[],
  validate: boolean,
): Promise<string | undefined> {
  const spec = op.dedupeKey;
  if (!spec) return undefined;
  const inBody = spec.in === 'body' ? params[spec.name] : undefined;
  // null is no key: the spec types the key a string, so it is refused below, never replaced
  const given = options.idempotencyKey ?? inBody;
  if (given === undefined) return freshDedupeKey();
  const pointer = options.idempotencyKey !== undefined || spec.in === 'header' ? '' : `/${spec.name}`;
  if (typeof given !== 'string' || given.trim() === '' || /[\u0000-\u001f\u007f]/.test(given)) {
    throw new ValidationError(op.id, [
      {
        pointer,
        rule: 'dedupeKey',
        message: `the batch's dedupe key (${spec.name}) must be a non-empty string without control characters; nothing was sent`,
      },
    ]);
  }
  if (
    options.idempotencyKey !== undefined &&
    inBody !== undefined &&
    inBody !== null &&
    inBody !== options.idempotencyKey
  ) {
    throw new ValidationError(op.id, [
      {
        pointer: `/${spec.name}`,
        rule: 'idempotencyKey',
        message: `\`${spec.name}\` and the idempotencyKey option differ; give one of them`,
      },
    ]);
  }
  if (spec.in === 'body' && op.loadValidator && validate) {
    // The spec's own rules for the key (its length limit among them), on the caller's key as given.
    const issues = (await op.loadValidator()).validate({
      ...params,
      [op.batchSplit!.field]: firstChunk,
      [spec.name]: given,
    });
    const keyIssues = (issues ?? []).filter((i) => i.pointer === `/${spec.name}`);
    if (keyIssues.length > 0) throw new ValidationError(op.id, keyIssues);
  }
  return given;
}

/** `b1-` + base64url(SHA-256 of the batch key and the chunk's entries): 46 characters. */
export async function chunkKey(batchKey: string, entries: unknown[]): Promise<string> {
  const data = new TextEncoder().encode(JSON.stringify([batchKey, entries]));
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', data));
  let binary = '';
  for (const b of digest) binary += String.fromCharCode(b);
  return `b1-${btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`;
}

/** The chunk's params and options with its dedupe key in the place the operation takes it. */
export function withKey(
  op: OperationSpec,
  params: Record<string, unknown>,
  options: RequestOptions,
  key: string | undefined,
): { params: Record<string, unknown>; options: RequestOptions } {
  const spec = op.dedupeKey;
  if (!spec || key === undefined) return { params, options };
  const { idempotencyKey: _given, ...rest } = options;
  if (spec.in === 'body') return { params: { ...params, [spec.name]: key }, options: rest };
  return { params, options: { ...rest, idempotencyKey: key } };
}
