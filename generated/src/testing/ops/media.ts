// Copied by im-openapi from templates/runtime/testing/ops/media.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * Media (seed 000 §4.8): an upload is created, its parts go to per-part upload addresses the
 * fake serves itself (PUT, no App Token, a token in the query as a signed URL would carry), a
 * resumed upload lists what arrived, and completing makes the file.
 */
import { randomBytes } from 'node:crypto';
import { FakeApiError, invalidArgument, notFound } from '../errors.js';
import type { Json, UploadRecord } from '../state/state.js';
import {
  changes,
  copy,
  isoTime,
  itemList,
  page,
  pathParam,
  requireIn,
  type HandlerContext,
  type OpHandler,
} from './context.js';

/** The pseudo operation id of a part upload address in `fake.calls` and fault rules (not an operation of the spec). */
export const PART_UPLOAD = 'fake.part_upload';
/** Where the fake serves part upload addresses (outside the /{org}/{app} prefix, as a storage host would be). */
export const PART_UPLOAD_PREFIX = '/_fake/uploads/';

export function newUpload(c: Pick<HandlerContext, 'state' | 'now'>, input: Json): UploadRecord {
  const file_id = typeof input.file_id === 'string' ? input.file_id : c.state.newId('file');
  const { parts: _parts, ...fields } = input;
  const record: UploadRecord = {
    session: { ...copy(fields), file_id, status: 'uploading', created_at: new Date(c.now()).toISOString() },
    parts: new Map(),
    partToken: randomBytes(12).toString('hex'),
  };
  c.state.uploads.set(file_id, record);
  return record;
}

function uploadOf(c: HandlerContext): UploadRecord {
  return requireIn(c.state.uploads, 'upload', pathParam(c, 'file_id'));
}

function partNumbers(c: HandlerContext): number[] {
  const list = c.params.part_numbers;
  if (!Array.isArray(list) || list.some((n) => !Number.isInteger(n) || n < 1))
    throw invalidArgument('part_numbers', 'must be a list of whole numbers from 1');
  return list as number[];
}

/** The file an upload makes: its parts must be 1..N without a gap. */
function complete(c: HandlerContext, upload: UploadRecord): Json {
  const numbers = [...upload.parts.keys()].sort((a, b) => a - b);
  if (numbers.length === 0) throw invalidArgument('file_id', 'no part was uploaded');
  const missing = numbers.findIndex((n, i) => n !== i + 1);
  if (missing >= 0) throw invalidArgument('file_id', `part ${missing + 1} is missing`);
  const size = numbers.reduce((sum, n) => sum + upload.parts.get(n)!.size, 0);
  const file: Json = {
    ...copy(upload.session),
    status: 'ready',
    parts: numbers.length,
    size,
    completed_at: isoTime(c),
    url: `${c.baseUrl}${PART_UPLOAD_PREFIX}${upload.session.file_id}/file`,
  };
  c.state.files.set(file.file_id, file);
  if (numbers.every((n) => upload.parts.get(n)!.bytes))
    c.state.fileContents.set(file.file_id, Buffer.concat(numbers.map((n) => upload.parts.get(n)!.bytes!)));
  c.state.uploads.delete(file.file_id);
  return file;
}

/**
 * A part arriving at its upload address. The token must be the upload's (403 otherwise);
 * the same part sent again replaces the first (a resend is safe).
 */
export function receivePart(
  c: Pick<HandlerContext, 'state' | 'keepUploadBytes'>,
  fileId: string,
  partNumber: number,
  token: string | null,
  bytes: { size: number; data?: Uint8Array },
): void {
  const upload = c.state.uploads.get(fileId);
  if (!upload) throw notFound('upload', fileId);
  if (token !== upload.partToken)
    throw new FakeApiError(403, 'permission_denied', 'the part upload address token does not match this upload');
  if (!Number.isInteger(partNumber) || partNumber < 1)
    throw invalidArgument('part_number', 'must be a whole number from 1');
  upload.parts.set(partNumber, { size: bytes.size, ...(c.keepUploadBytes && bytes.data ? { bytes: bytes.data } : {}) });
}

export const mediaHandlers: Record<string, OpHandler> = {
  'media.create_upload': (c) => ({ body: copy(newUpload(c, changes(c)).session) }),
  'media.part_urls': (c) => {
    const upload = uploadOf(c);
    const base = `${c.baseUrl}${PART_UPLOAD_PREFIX}${encodeURIComponent(upload.session.file_id)}/parts/`;
    return itemList(
      partNumbers(c).map((part_number) => ({ part_number, url: `${base}${part_number}?token=${upload.partToken}` })),
    );
  },
  'media.uploaded_parts': (c) =>
    itemList(
      [...uploadOf(c).parts].sort(([a], [b]) => a - b).map(([part_number, p]) => ({ part_number, size: p.size })),
    ),
  'media.complete_upload': (c) => {
    const done = c.state.files.get(pathParam(c, 'file_id'));
    if (done && !c.state.uploads.has(pathParam(c, 'file_id'))) return { body: copy(done) };
    return { body: copy(complete(c, uploadOf(c))) };
  },
  'media.cancel_upload': (c) => {
    uploadOf(c);
    c.state.uploads.delete(pathParam(c, 'file_id'));
    return { body: {} };
  },
  'media.file': (c) => ({ body: copy(requireIn(c.state.files, 'file', pathParam(c, 'file_id'))) }),
  'media.delete_file': (c) => {
    requireIn(c.state.files, 'file', pathParam(c, 'file_id'));
    c.state.files.delete(pathParam(c, 'file_id'));
    c.state.fileContents.delete(pathParam(c, 'file_id'));
    return { body: {} };
  },
  'media.group_files': (c) => {
    requireIn(c.state.groups, 'group', pathParam(c, 'group_id'));
    return page(
      c,
      [...c.state.files.values()].filter((f) => f.group_id === pathParam(c, 'group_id')),
    );
  },
  'media.download_urls': (c) => {
    const urls = c.params.urls;
    if (!Array.isArray(urls)) throw invalidArgument('urls', 'must be a list of file URLs');
    return itemList(
      urls.map((url) => ({ url, download_url: `${String(url)}${String(url).includes('?') ? '&' : '?'}download=1` })),
    );
  },
  'media.usage': (c) => {
    const files = [...c.state.files.values()];
    return {
      body: { files: files.length, bytes: files.reduce((n, f) => n + (typeof f.size === 'number' ? f.size : 0), 0) },
    };
  },
};
