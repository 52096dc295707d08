/**
 * The part size of a resumed upload (issue 31): part N of a file is the bytes from
 * (N − 1) × partSize, so a resume that splits the source with another part size than the
 * parts the service already holds makes a corrupt file (5 MiB parts resumed with 8 MiB:
 * 24,117,371 bytes instead of 20,971,643). The size is taken from what is known, in this
 * order, and checked against the parts the service lists before any part is sent:
 * the service's recorded part sizes (when it lists them) win over the caller's `partSize`,
 * which wins over the size the `UploadInterruptedError` recorded. Where the service lists
 * no sizes, a part size is required (from the caller or the error) and the two must agree.
 */
import { ValidationError } from '../core/errors.js';

/** A part the service already holds: its number and, when the service says, its size in bytes. */
export interface RecordedPart {
  number: number;
  size: number | undefined;
}

export interface PartSizeInput {
  helperId: string;
  fileId: string;
  /** The caller's `partSize` option. */
  requested: number | undefined;
  /** The part size the interrupted upload used (`UploadInterruptedError.partSize`). */
  recorded: number | undefined;
  /** The parts the service lists. */
  parts: readonly RecordedPart[];
  /** The source's size, when known. */
  totalBytes: number | undefined;
  /** The default part size of a new upload. */
  fallback: number;
}

/** True when every listed part has the size it would have with parts of `partSize` bytes. */
export function fitsRecordedParts(
  partSize: number,
  parts: readonly RecordedPart[],
  totalBytes: number | undefined,
): boolean {
  const last = totalBytes === undefined ? undefined : Math.max(1, Math.ceil(totalBytes / partSize));
  const highest = Math.max(...parts.map((p) => p.number));
  return parts.every((p) => {
    if (p.size === undefined) return true;
    if (last !== undefined) {
      if (p.number > last) return false;
      return p.size === (p.number === last ? totalBytes! - (last - 1) * partSize : partSize);
    }
    // a stream of unknown size: only the highest part listed may be the (shorter) last one
    return p.size === partSize || (p.number === highest && p.size < partSize);
  });
}

function refuse(input: PartSizeInput, message: string): ValidationError {
  return new ValidationError(input.helperId, [
    { pointer: '/partSize', rule: 'resume', message: `upload ${input.fileId}: ${message}` },
  ]);
}

/** The part size to resume with, or a ValidationError (nothing sent yet) when no size is safe. */
export function resumePartSize(input: PartSizeInput): number {
  const { requested, recorded, parts, totalBytes } = input;
  if (parts.length === 0) return requested ?? recorded ?? input.fallback; // nothing uploaded: any size is safe
  const sizes = parts.flatMap((p) => (p.size === undefined ? [] : [p.size]));
  if (sizes.length > 0) {
    // the service's record decides; the sizes it lists suggest the candidates
    const candidates = [requested, recorded, Math.max(...sizes)].filter(
      (n): n is number => n !== undefined && Number.isInteger(n) && n > 0,
    );
    const fit = candidates.find((n) => fitsRecordedParts(n, parts, totalBytes));
    if (fit !== undefined) return fit;
    throw refuse(
      input,
      `the parts the service holds (sizes ${[...new Set(sizes)].join(', ')} bytes) fit no part size${totalBytes === undefined ? '' : ` for a source of ${totalBytes} bytes`}: is this the same source? If it is, cancel the upload and upload again.`,
    );
  }
  if (requested === undefined && recorded === undefined) {
    throw refuse(
      input,
      `the service holds ${parts.length} part(s) but does not say their size: pass the UploadInterruptedError itself (it records partSize), or the partSize the upload was started with.`,
    );
  }
  if (requested !== undefined && recorded !== undefined && requested !== recorded) {
    throw refuse(
      input,
      `the upload was started with parts of ${recorded} bytes; resuming with partSize ${requested} would corrupt the file. Leave partSize out, or pass ${recorded}.`,
    );
  }
  return (requested ?? recorded)!;
}
