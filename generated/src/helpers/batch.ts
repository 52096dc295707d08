// Copied by im-openapi from templates/runtime/helpers/batch.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * Batch splitting (x-batch-split): the caller passes the whole list; it goes out in chunks of at
 * most `max` entries, a few at a time, and the result says what each chunk did. One failed chunk
 * does not lose the others' results.
 */
import type { ImCore } from '../core/client.js';
import { AbortError, CredentialsRevokedError, ImError, ValidationError } from '../core/errors.js';
import type { RequestOptions } from '../core/options.js';
import type { OperationSpec } from '../operation.js';
import { asParams } from '../internal/request-builder.js';

export interface BatchOptions extends RequestOptions {
  /** Chunks in flight at once (default 2). */
  concurrency?: number;
}

export type BatchChunk<TResult> =
  | { index: number; start: number; end: number; status: 'fulfilled'; result: TResult; requestId: string | undefined }
  | { index: number; start: number; end: number; status: 'rejected'; error: ImError }
  | { index: number; start: number; end: number; status: 'not_attempted'; reason: string };

export interface BatchResult<TResult> {
  /** True when every chunk succeeded. */
  ok: boolean;
  /** One entry per chunk, in the caller's order; `start`/`end` index into the caller's list. */
  chunks: BatchChunk<TResult>[];
  /** Results of the chunks that succeeded, in order. */
  results: TResult[];
  /** Errors of the chunks that failed, in order. */
  errors: ImError[];
}

const DEFAULT_CONCURRENCY = 2;

export async function sendInBatches<TResult>(
  client: ImCore,
  op: OperationSpec,
  givenParams: Record<string, unknown>,
  options: BatchOptions = {},
): Promise<BatchResult<TResult>> {
  const split = op.batchSplit;
  if (!split) throw new ImError(`${op.id} has no batch split in its table entry.`);
  const params = asParams(op.id, givenParams);
  const list = params[split.field];
  if (!Array.isArray(list) || list.length === 0) {
    throw new ValidationError(op.id, [{ pointer: `/${split.field}`, rule: 'minItems', message: `\`${split.field}\` must be a non-empty list` }]);
  }
  const { concurrency = DEFAULT_CONCURRENCY, ...requestOptions } = options;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new ImError(`concurrency must be a whole number ≥ 1, got ${String(concurrency)}.`);

  const ranges: { start: number; end: number }[] = [];
  for (let start = 0; start < list.length; start += split.max) ranges.push({ start, end: Math.min(start + split.max, list.length) });
  const chunks: (BatchChunk<TResult> | undefined)[] = new Array(ranges.length);
  let stopReason: string | undefined;
  let next = 0;

  const worker = async () => {
    while (next < ranges.length) {
      const index = next++;
      const { start, end } = ranges[index]!;
      if (stopReason) {
        chunks[index] = { index, start, end, status: 'not_attempted', reason: stopReason };
        continue;
      }
      try {
        const chunk = chunkRequest(op, { ...params, [split.field]: list.slice(start, end) }, requestOptions, index);
        const { data, response } = await client.request<TResult>(op, chunk.params, chunk.options).withResponse();
        chunks[index] = { index, start, end, status: 'fulfilled', result: data, requestId: response.requestId };
      } catch (err) {
        const error = err instanceof ImError ? err : new ImError(`chunk ${index} failed: ${String(err)}`);
        chunks[index] = { index, start, end, status: 'rejected', error };
        // Nothing after these can succeed: leave the rest unsent and say so.
        if (error instanceof AbortError) stopReason = 'the call was aborted';
        else if (error instanceof CredentialsRevokedError) stopReason = 'the credentials were revoked';
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, ranges.length) }, worker));

  const done = chunks as BatchChunk<TResult>[];
  return {
    ok: done.every((c) => c.status === 'fulfilled'),
    chunks: done,
    results: done.flatMap((c) => (c.status === 'fulfilled' ? [c.result] : [])),
    errors: done.flatMap((c) => (c.status === 'rejected' ? [c.error] : [])),
  };
}

/**
 * A D operation needs one key per chunk, reused by that chunk's resends (the core reuses it).
 * When the caller gave a key for the whole batch, chunk keys derive from it (`<key>:<chunk>`), so
 * that running the same batch again (another process, a restart) sends the same keys.
 */
function chunkRequest(op: OperationSpec, params: Record<string, unknown>, options: RequestOptions, index: number): { params: Record<string, unknown>; options: RequestOptions } {
  const spec = op.dedupeKey;
  const own = spec ? (options.idempotencyKey ?? (spec.in === 'body' ? params[spec.name] : undefined)) : undefined;
  // A key that is not a string is left as given: the request validator refuses it (never stringified).
  if (!spec || typeof own !== 'string') return { params, options };
  const key = `${own}:${index}`;
  if (spec.in === 'body') return { params: { ...params, [spec.name]: key }, options: { ...options, idempotencyKey: undefined } };
  return { params, options: { ...options, idempotencyKey: key } };
}
