/**
 * Batch splitting (x-batch-split): the caller passes the whole list; it goes out in chunks of at
 * most `max` entries, a few at a time. Every chunk is validated before the first is sent (bad
 * input sends nothing). One failed chunk does not lose the others' results, and a
 * batch whose chunks did not all succeed never looks like success: it rejects with a `BatchError`
 * that carries every chunk's outcome (or, with `{ settled: true }`, resolves with them).
 *
 * Dedupe keys of D operations (issue 16 item 7): each chunk's key is derived from the batch key
 * AND the chunk's own entries, `b1-` + base64url(SHA-256(batch key, entries in the order given)),
 * 46 characters whatever the batch key's length. So the same entries sent again under the same
 * batch key (a resend of just a failed chunk: pass its entries, `chunk.start`..`chunk.end` of the
 * caller's list, with the same key) get the same chunk key, and different entries never share one
 * (an `<key>:<index>` suffix gave chunk 0's key to other recipients on a partial resend, and a
 * deduplicating service dropped them). Order counts: the chunk is sent as given, and the brief
 * "same recipients in the same chunk → same key" holds for a resend of the chunk as it was.
 */
import type { ImLeanCore } from '../core/lean-core.js';
import { AbortError, CredentialsRevokedError, ImError, ValidationError } from '../core/errors.js';
import type { RequestOptions } from '../core/options.js';
import type { OperationSpec, ValidationIssue } from '../operation.js';
import { nearMissIssues } from '../internal/near-miss.js';
import { asParams } from '../internal/request-builder.js';
import { batchKeyOf, chunkKey, withKey } from './batch-keys.js';

export interface BatchOptions extends RequestOptions {
  /** Chunks in flight at once (default 2). */
  concurrency?: number | undefined;
  /**
   * Resolve with every chunk's outcome even when some chunk failed (check `ok`). Default false:
   * such a batch rejects with a `BatchError` carrying the same outcome.
   */
  settled?: boolean | undefined;
}

interface ChunkBase {
  index: number;
  /** `start`/`end` index into the caller's list: resend `list.slice(start, end)` with the same key to repeat this chunk safely. */
  start: number;
  end: number;
  /** The dedupe key this chunk was (or would have been) sent with; undefined for operations without one. */
  dedupeKey: string | undefined;
}

export type BatchChunk<TResult> =
  | (ChunkBase & { status: 'fulfilled'; result: TResult; requestId: string | undefined })
  | (ChunkBase & { status: 'rejected'; error: ImError })
  | (ChunkBase & { status: 'not_attempted'; reason: string });

export interface BatchResult<TResult> {
  /** True when every chunk succeeded. */
  ok: boolean;
  /** One entry per chunk, in the caller's order; `start`/`end` index into the caller's list. */
  chunks: BatchChunk<TResult>[];
  /** Results of the chunks that succeeded, in order. */
  results: TResult[];
  /** Errors of the chunks that failed, in order. */
  errors: ImError[];
  /**
   * The key the chunk keys were derived from (the caller's, else one generated for this batch);
   * pass it again with a failed chunk's entries to resend that chunk under the same key.
   */
  batchKey: string | undefined;
}

/** Some chunk of a batch failed or was not attempted. `result` holds every chunk's outcome. */
export class BatchError<TResult = unknown> extends ImError {
  readonly operationId: string;
  readonly result: BatchResult<TResult>;
  constructor(operationId: string, result: BatchResult<TResult>) {
    const count = (s: BatchChunk<TResult>['status']) => result.chunks.filter((c) => c.status === s).length;
    const first = result.errors[0];
    super(
      `${operationId}: ${count('fulfilled')} of ${result.chunks.length} chunk(s) succeeded, ${count('rejected')} failed, ` +
        `${count('not_attempted')} not attempted${first ? ` (first failure: ${first.message})` : ''}. ` +
        "error.result.chunks has each chunk's outcome and dedupe key; resend only the failed chunks (their start..end entries, same key), " +
        'or pass { settled: true } to get the outcome without an exception.',
    );
    this.operationId = operationId;
    this.result = result;
  }
}

const DEFAULT_CONCURRENCY = 2;

export async function sendInBatches<TResult>(
  client: ImLeanCore,
  op: OperationSpec,
  givenParams: Record<string, unknown>,
  options: BatchOptions = {},
): Promise<BatchResult<TResult>> {
  const split = op.batchSplit;
  if (!split) throw new ImError(`${op.id} has no batch split in its table entry.`);
  const params = asParams(op.id, givenParams);
  const list = params[split.field];
  if (!Array.isArray(list) || list.length === 0) {
    throw new ValidationError(op.id, [
      { pointer: `/${split.field}`, rule: 'minItems', message: `\`${split.field}\` must be a non-empty list` },
    ]);
  }
  // Bulk work yields to the client's interactive calls for rateLimit slots unless told otherwise.
  const { concurrency = DEFAULT_CONCURRENCY, settled = false, priority = 'background', ...rest } = options;
  const requestOptions = { ...rest, priority };
  // the client's default applies when the call says nothing (a client built with validateRequests: false)
  const validate = requestOptions.validate ?? client.validatesRequests;
  if (validate) {
    // before the batch key is derived: a misspelt key field (clientMsgId) must not be replaced by a fresh key
    const misses = nearMissIssues(op, params);
    if (misses.length > 0) throw new ValidationError(op.id, misses);
  }
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new ImError(`concurrency must be a whole number ≥ 1, got ${String(concurrency)}.`);

  const ranges: { start: number; end: number }[] = [];
  for (let start = 0; start < list.length; start += split.max)
    ranges.push({ start, end: Math.min(start + split.max, list.length) });
  const batchKey = await batchKeyOf(op, params, requestOptions, list.slice(0, split.max), validate);
  const keys = await Promise.all(
    ranges.map(({ start, end }) => (batchKey === undefined ? undefined : chunkKey(batchKey, list.slice(start, end)))),
  );
  await refuseInvalidChunks(op, params, requestOptions, ranges, list, keys);

  const chunks: (BatchChunk<TResult> | undefined)[] = new Array(ranges.length);
  let stopReason: string | undefined;
  let next = 0;

  const worker = async () => {
    while (next < ranges.length) {
      const index = next++;
      const { start, end } = ranges[index]!;
      const dedupeKey = keys[index];
      if (stopReason) {
        chunks[index] = { index, start, end, dedupeKey, status: 'not_attempted', reason: stopReason };
        continue;
      }
      const chunk = await sendChunk<TResult>(
        client,
        op,
        { ...params, [split.field]: list.slice(start, end) },
        requestOptions,
        {
          index,
          start,
          end,
          dedupeKey,
        },
      );
      chunks[index] = chunk;
      // Nothing after these can succeed: leave the rest unsent and say so.
      if (chunk.status === 'rejected' && chunk.error instanceof AbortError) stopReason = 'the call was aborted';
      else if (chunk.status === 'rejected' && chunk.error instanceof CredentialsRevokedError)
        stopReason = 'the credentials were revoked';
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, ranges.length) }, worker));

  const result = batchResultOf(chunks as BatchChunk<TResult>[], batchKey);
  if (!result.ok && !settled) throw new BatchError<TResult>(op.id, result);
  return result;
}

/** The outcome of every chunk, in list order, with the results and errors gathered. */
function batchResultOf<TResult>(done: BatchChunk<TResult>[], batchKey: string | undefined): BatchResult<TResult> {
  return {
    ok: done.every((c) => c.status === 'fulfilled'),
    chunks: done,
    results: done.flatMap((c) => (c.status === 'fulfilled' ? [c.result] : [])),
    errors: done.flatMap((c) => (c.status === 'rejected' ? [c.error] : [])),
    batchKey,
  };
}

/** Sends one chunk (its own slice of the list, its own dedupe key) and says how it went; never throws. */
async function sendChunk<TResult>(
  client: ImLeanCore,
  op: OperationSpec,
  chunkParams: Record<string, unknown>,
  requestOptions: RequestOptions,
  place: { index: number; start: number; end: number; dedupeKey: string | undefined },
): Promise<BatchChunk<TResult>> {
  try {
    const chunk = withKey(op, chunkParams, requestOptions, place.dedupeKey);
    const { data, response } = await client.request<TResult>(op, chunk.params, chunk.options).withResponse();
    return { ...place, status: 'fulfilled', result: data, requestId: response.requestId };
  } catch (err) {
    const error = err instanceof ImError ? err : new ImError(`chunk ${place.index} failed: ${String(err)}`);
    return { ...place, status: 'rejected', error };
  }
}

/**
 * Bad input is refused before ANY chunk is sent (one ValidationError for the whole batch, list
 * pointers in the caller's numbering: `/usernames/1003`), so a batch is never half sent because
 * of an entry the validator would refuse.
 */
async function refuseInvalidChunks(
  op: OperationSpec,
  params: Record<string, unknown>,
  options: RequestOptions,
  ranges: { start: number; end: number }[],
  list: unknown[],
  keys: (string | undefined)[],
): Promise<void> {
  if (!op.loadValidator || options.validate === false) return;
  const field = op.batchSplit!.field;
  let validator: Awaited<ReturnType<typeof op.loadValidator>>;
  try {
    validator = await op.loadValidator();
  } catch {
    return; // the call itself reports a validator that fails to load
  }
  const issues: ValidationIssue[] = [];
  const listPrefix = `/${field}/`;
  for (let i = 0; i < ranges.length; i++) {
    const { start, end } = ranges[i]!;
    const chunk = withKey(op, { ...params, [field]: list.slice(start, end) }, options, keys[i]).params;
    for (const issue of validator.validate(chunk) ?? []) {
      if (issue.pointer.startsWith(listPrefix)) {
        const rest = issue.pointer.slice(listPrefix.length);
        const slash = rest.indexOf('/');
        const index = Number(slash < 0 ? rest : rest.slice(0, slash));
        issues.push({ ...issue, pointer: `${listPrefix}${index + start}${slash < 0 ? '' : rest.slice(slash)}` });
      } else if (i === 0) {
        issues.push(issue); // the same for every chunk: once
      }
    }
  }
  if (issues.length > 0) throw new ValidationError(op.id, issues);
}
