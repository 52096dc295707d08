// Copied by im-openapi from templates/runtime/helpers/upload.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * Resumable upload (seed 4.8): create the upload, get per-part upload addresses, send the parts
 * to those addresses, complete. A resumed upload lists the parts the service has, sends only the
 * missing ones and completes (class I). Part addresses are used as given and never get the App
 * Token: they are not API calls.
 */
import type { ImLeanCore } from '../core/lean-core.js';
import { AbortError, ImError } from '../core/errors.js';
import type { RequestOptions } from '../core/options.js';
import type { OperationSpec } from '../operation.js';
import { openPartReader, type PartReader, type SourcePart, type UploadSource } from './upload-source.js';
import { resumePartSize, type RecordedPart } from './upload-part-size.js';
import { FILE_ID, PART_NUMBER, PART_SIZE, PartAddresses, sendPart } from './upload-parts.js';

export interface UploadOperations {
  /** The helper's own name for errors, e.g. `media.upload` (default: the create operation's id). */
  helperId?: string;
  create: OperationSpec;
  partUrls: OperationSpec;
  uploadedParts: OperationSpec;
  complete: OperationSpec;
}

export interface UploadProgress {
  bytesSent: number;
  /** Undefined while a stream of unknown length is being read. */
  totalBytes: number | undefined;
  partNumber: number;
}

export interface UploadOptions extends Omit<RequestOptions, 'idempotencyKey'> {
  filename?: string | undefined;
  contentType?: string | undefined;
  /** Bytes per part (default 8 MiB). Memory stays near partSize × concurrency. */
  partSize?: number | undefined;
  /** Parts in flight at once (default 3). */
  concurrency?: number | undefined;
  /** Total size, when the source is a stream and you know it. */
  size?: number | undefined;
  /** More fields for media.create_upload (its params are not documented by the service). */
  createParams?: Record<string, unknown> | undefined;
  onProgress?: ((progress: UploadProgress) => void) | undefined;
  /** Resends of one part after a network error or 5xx (default 2). */
  partRetries?: number | undefined;
  /** fetch used for the part uploads (default: global fetch). */
  fetch?: typeof fetch | undefined;
}

export interface UploadResult<TFile = unknown> {
  fileId: string;
  file: TFile;
  parts: number;
  bytesSent: number;
  /** The part size used (a resume takes the size of the parts the service already holds). */
  partSize: number;
}

/**
 * An upload stopped part-way: resume it with `media.resumeUpload(error, source)` (the error
 * carries the part size, which a resume must keep), or `resumeUpload(error.fileId, source,
 * { partSize: error.partSize })`.
 */
export class UploadInterruptedError extends ImError {
  constructor(
    readonly fileId: string,
    readonly uploadedParts: number[],
    readonly cause: unknown,
    /** Bytes per part of this upload: part N holds the bytes from (N − 1) × partSize. */
    readonly partSize: number,
    /** The source's size, when it was known. */
    readonly totalBytes: number | undefined = undefined,
  ) {
    super(
      `Upload ${fileId} (parts of ${partSize} bytes) was interrupted after ${uploadedParts.length} part(s): ${cause instanceof Error ? cause.message : String(cause)}. Resume it with media.resumeUpload(error, source), which keeps the part size.`,
    );
    this.name = 'UploadInterruptedError';
  }
}

export const DEFAULT_PART_SIZE = 8 * 1024 * 1024;

export async function uploadFile<TFile>(
  client: ImLeanCore,
  ops: UploadOperations,
  source: UploadSource,
  options: UploadOptions = {},
): Promise<UploadResult<TFile>> {
  const reader = await openPartReader(source, options.partSize ?? DEFAULT_PART_SIZE, ops.helperId ?? ops.create.id);
  const size = reader.size ?? options.size;
  let fileId: string;
  try {
    const session = await client.request<Record<string, unknown>>(
      ops.create,
      {
        ...options.createParams,
        ...(options.filename !== undefined ? { filename: options.filename } : {}),
        ...(options.contentType !== undefined ? { content_type: options.contentType } : {}),
        ...(size !== undefined ? { size } : {}),
      },
      callOptions(options),
    );
    const id = session?.[FILE_ID];
    if (typeof id !== 'string' || id === '')
      throw new ImError(`media.create_upload answered without a ${FILE_ID}; cannot upload.`);
    fileId = id;
  } catch (err) {
    await reader.close();
    throw err;
  }
  return sendAndComplete<TFile>(client, ops, fileId, reader, new Set(), options);
}

/**
 * Resumes an upload: `from` is the UploadInterruptedError (best: it records the part size) or
 * the file id. The part size must be the one the upload started with; it is taken from the
 * service's listed part sizes, else the caller's `partSize`, else the error's, and a resume that
 * cannot know it is refused before any part is sent (see upload-part-size.ts).
 */
export async function resumeUpload<TFile>(
  client: ImLeanCore,
  ops: UploadOperations,
  from: string | UploadInterruptedError,
  source: UploadSource,
  options: UploadOptions = {},
): Promise<UploadResult<TFile>> {
  const helperId = ops.helperId ?? ops.uploadedParts.id;
  const interrupted = typeof from === 'string' ? undefined : from;
  const fileId = typeof from === 'string' ? from : from.fileId;
  // the source first: a bad one is refused before anything is sent
  const reader = await openPartReader(source, options.partSize ?? interrupted?.partSize ?? DEFAULT_PART_SIZE, helperId);
  let done: Set<number>;
  try {
    const uploaded = await client.request<Record<string, unknown>>(
      ops.uploadedParts,
      { file_id: fileId },
      callOptions(options),
    );
    const parts = recordedParts(uploaded);
    reader.setPartSize(
      resumePartSize({
        helperId,
        fileId,
        requested: options.partSize,
        recorded: interrupted?.partSize,
        parts,
        totalBytes: reader.size ?? options.size,
        fallback: DEFAULT_PART_SIZE,
      }),
    );
    done = new Set(parts.map((p) => p.number));
  } catch (err) {
    await reader.close().catch(() => undefined);
    throw err;
  }
  return sendAndComplete<TFile>(client, ops, fileId, reader, done, options);
}

/** The parts media.uploaded_parts lists: numbers, and sizes where the service gives them (`size`, x-assumed). */
function recordedParts(answer: Record<string, unknown> | undefined): RecordedPart[] {
  const items = Array.isArray(answer?.items) ? (answer.items as Record<string, unknown>[]) : [];
  return items.flatMap((p) => {
    const number = Number(p?.[PART_NUMBER]);
    if (!Number.isInteger(number) || number < 1) return [];
    const size = p[PART_SIZE];
    return [{ number, size: typeof size === 'number' && Number.isInteger(size) && size >= 0 ? size : undefined }];
  });
}

async function sendAndComplete<TFile>(
  client: ImLeanCore,
  ops: UploadOperations,
  fileId: string,
  reader: PartReader,
  alreadyUploaded: ReadonlySet<number>,
  options: UploadOptions,
): Promise<UploadResult<TFile>> {
  const concurrency = options.concurrency ?? 3;
  const totalBytes = reader.size ?? options.size;
  const lastPart = totalBytes === undefined ? undefined : Math.max(1, Math.ceil(totalBytes / reader.partSize));
  const controller = new AbortController();
  const addresses = new PartAddresses(client, ops.partUrls, fileId, lastPart, alreadyUploaded, {
    ...callOptions(options),
    signal: controller.signal,
  });
  const onAbort = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const sent: number[] = [...alreadyUploaded];
  let bytesSent = 0;
  let parts = alreadyUploaded.size;
  let failure: unknown;
  let reading = Promise.resolve();
  // Reads are serialised (a stream is read in order); each worker holds at most one part.
  const nextPart = (): Promise<SourcePart | null> => {
    const result = reading.then(async () => {
      for (;;) {
        const part = await reader.next();
        if (!part || !alreadyUploaded.has(part.partNumber)) return part;
      }
    });
    reading = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  };
  const worker = async () => {
    while (!failure && !controller.signal.aborted) {
      const part = await nextPart();
      if (!part) return;
      await sendPart(addresses, part, options, controller.signal);
      sent.push(part.partNumber);
      parts++;
      bytesSent += part.bytes.byteLength;
      options.onProgress?.({ bytesSent, totalBytes, partNumber: part.partNumber });
    }
  };
  try {
    await Promise.all(
      Array.from({ length: concurrency }, () =>
        worker().catch((err) => {
          failure ??= err;
          controller.abort(err);
        }),
      ),
    );
    if (options.signal?.aborted) failure ??= new AbortError(ops.complete.id);
    if (failure)
      throw new UploadInterruptedError(
        fileId,
        sent.sort((a, b) => a - b),
        failure,
        reader.partSize,
        totalBytes,
      );
    const file = await client.request<TFile>(ops.complete, { file_id: fileId }, callOptions(options));
    return { fileId, file, parts, bytesSent, partSize: reader.partSize };
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    await reader.close();
  }
}

/** The request options of the API calls an upload makes (the upload's own options left out). */
function callOptions(options: UploadOptions): RequestOptions {
  const { signal, timeoutMs, deadlineMs, maxRetries, headers, validate } = options;
  const picked: RequestOptions = { signal, timeoutMs, deadlineMs, maxRetries, headers, validate };
  for (const key of Object.keys(picked) as (keyof RequestOptions)[]) if (picked[key] === undefined) delete picked[key];
  return picked;
}
