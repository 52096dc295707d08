// Copied by im-openapi from templates/runtime/helpers/index.ts. Do not edit here: edit the template and run `npm run generate`.
/** Public surface of the helpers (batch splitting, upload, pending moderation, versioned lists). */
export { BatchError, type BatchChunk, type BatchOptions, type BatchResult } from './batch.js';
export {
  UploadInterruptedError,
  DEFAULT_PART_SIZE,
  type UploadOptions,
  type UploadProgress,
  type UploadResult,
} from './upload.js';
export type { UploadSource } from './upload-source.js';
export type { PendingDecision, PendingItemsOptions, PendingItemsReport } from './pending-moderation.js';
export type { VersionedSnapshot } from './versioned.js';
