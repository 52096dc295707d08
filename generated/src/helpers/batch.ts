// Copied by im-openapi from templates/runtime/helpers/batch.ts. Do not edit here: edit the template and run `npm run generate`.
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
 *
 * This module holds what an app names (types, BatchError); the batch run itself (batch-run.ts)
 * loads on the first batch, so an app that never sends one does not carry it at start (issue 18).
 */
import type { ImCore } from '../core/client.js';
import { ImError } from '../core/errors.js';
import type { RequestOptions } from '../core/options.js';
import type { OperationSpec } from '../operation.js';

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
        'error.result.chunks has each chunk\'s outcome and dedupe key; resend only the failed chunks (their start..end entries, same key), ' +
        'or pass { settled: true } to get the outcome without an exception.',
    );
    this.operationId = operationId;
    this.result = result;
  }
}

/** Sends `givenParams` in chunks (see the top of this module); the work is in batch-run.ts, loaded on first use. */
export async function sendInBatches<TResult>(
  client: ImCore,
  op: OperationSpec,
  givenParams: Record<string, unknown>,
  options: BatchOptions = {},
): Promise<BatchResult<TResult>> {
  return (await import('./batch-run.js')).sendInBatches<TResult>(client, op, givenParams, options);
}
