// Copied by im-openapi from templates/runtime/helpers/upload.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * Resumable upload (seed 4.8): create the upload, get per-part upload addresses, send the parts
 * to those addresses, complete. A resumed upload lists the parts the service has, sends only the
 * missing ones and completes (class I). Part addresses are used as given and never get the App
 * Token: they are not API calls.
 *
 * This module holds what an app names (types, UploadInterruptedError, DEFAULT_PART_SIZE); the
 * upload itself (upload-run.ts, upload-source.ts) loads on the first upload, so an app that
 * never uploads does not carry it at start (issue 18: ImClient app size).
 */
import type { ImCore } from '../core/client.js';
import { ImError } from '../core/errors.js';
import type { RequestOptions } from '../core/options.js';
import type { OperationSpec } from '../operation.js';
import type { UploadSource } from './upload-source.js';

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
}

/** An upload stopped part-way: resume it with `media.resumeUpload(error.fileId, source)`. */
export class UploadInterruptedError extends ImError {
  constructor(
    readonly fileId: string,
    readonly uploadedParts: number[],
    readonly cause: unknown,
  ) {
    super(`Upload ${fileId} was interrupted after ${uploadedParts.length} part(s): ${cause instanceof Error ? cause.message : String(cause)}. Resume it with media.resumeUpload('${fileId}', source).`);
    this.name = 'UploadInterruptedError';
  }
}

export const DEFAULT_PART_SIZE = 8 * 1024 * 1024;


export async function uploadFile<TFile>(client: ImCore, ops: UploadOperations, source: UploadSource, options: UploadOptions = {}): Promise<UploadResult<TFile>> {
  return (await import('./upload-run.js')).uploadFile<TFile>(client, ops, source, options);
}

export async function resumeUpload<TFile>(client: ImCore, ops: UploadOperations, fileId: string, source: UploadSource, options: UploadOptions = {}): Promise<UploadResult<TFile>> {
  return (await import('./upload-run.js')).resumeUpload<TFile>(client, ops, fileId, source, options);
}
