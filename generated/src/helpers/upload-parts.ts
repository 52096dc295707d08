// Copied by im-openapi from templates/runtime/helpers/upload-parts.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The parts of an upload (upload.ts): their upload addresses, asked for a batch at a time, and
 * the PUT of each part to its address (never with the App Token: the address carries its own
 * authorisation), resent after a network error or 5xx.
 */
import { ConnectionError, ImError } from '../core/errors.js';
import type { ImLeanCore } from '../core/lean-core.js';
import type { RequestOptions } from '../core/options.js';
import type { OperationSpec } from '../operation.js';
import type { SourcePart } from './upload-source.js';

// Field names of the upload resources are not documented by the service; the spec marks each
// x-assumed (UploadSession.file_id, PartURL.part_number/url, UploadedPart.part_number).
export const FILE_ID = 'file_id';
export const PART_NUMBER = 'part_number';
const PART_URL = 'url';
export const PART_SIZE = 'size';

/** Sends one part to its upload address, resending after a network error or 5xx up to `partRetries` times. */
export async function sendPart(
  addresses: PartAddresses,
  part: SourcePart,
  options: { fetch?: typeof fetch | undefined; partRetries?: number | undefined },
  signal: AbortSignal,
): Promise<void> {
  const url = await addresses.get(part.partNumber);
  const doFetch = options.fetch ?? fetch;
  const retries = options.partRetries ?? 2;
  for (let attempt = 0; ; attempt++) {
    try {
      // No Authorization header: the part address carries its own authorisation.
      const response = await doFetch(url, {
        method: 'PUT',
        body: part.bytes as Uint8Array<ArrayBuffer>,
        headers: { 'content-type': 'application/octet-stream' },
        signal,
      });
      await response.body?.cancel();
      if (response.ok) return;
      if (response.status < 500 || attempt >= retries)
        throw new ImError(`Part ${part.partNumber} was refused with HTTP ${response.status}.`);
    } catch (err) {
      if (signal.aborted) throw err;
      if (err instanceof ImError) throw err;
      if (attempt >= retries)
        throw new ConnectionError(
          `Part ${part.partNumber} could not be sent to its upload address: ${err instanceof Error ? err.message : String(err)}`,
          { attempts: attempt + 1, cause: err },
        );
    }
  }
}

/** Part addresses asked for in batches (one media.part_urls call per few parts, not per part). */
const ADDRESS_BATCH = 16;

export class PartAddresses {
  readonly #pending = new Map<number, Promise<string>>();

  constructor(
    private readonly client: ImLeanCore,
    private readonly partUrls: OperationSpec,
    private readonly fileId: string,
    /** The last part number when the size is known; unknown (a stream): one part at a time. */
    private readonly lastPart: number | undefined,
    private readonly skip: ReadonlySet<number>,
    private readonly options: RequestOptions,
  ) {}

  /** The upload address of a part; each is handed out once. */
  get(partNumber: number): Promise<string> {
    if (!this.#pending.has(partNumber)) this.#fetchFrom(partNumber);
    const address = this.#pending.get(partNumber)!;
    this.#pending.delete(partNumber);
    return address;
  }

  #fetchFrom(first: number): void {
    const numbers: number[] = [];
    const last = this.lastPart === undefined ? first : Math.min(this.lastPart, first + ADDRESS_BATCH * 2);
    for (let n = first; n <= last && numbers.length < ADDRESS_BATCH; n++) {
      if (n === first || (!this.skip.has(n) && !this.#pending.has(n))) numbers.push(n);
    }
    const answer = this.client.request<Record<string, unknown>>(
      this.partUrls,
      { file_id: this.fileId, part_numbers: numbers },
      this.options,
    );
    for (const n of numbers) {
      const address = answer.then((a) => {
        const entry = (Array.isArray(a?.items) ? (a.items as Record<string, unknown>[]) : []).find(
          (p) => Number(p[PART_NUMBER]) === n,
        );
        const url = entry?.[PART_URL];
        if (typeof url !== 'string') throw new ImError(`media.part_urls gave no ${PART_URL} for part ${n}.`);
        return url;
      });
      // Parts of a batch that are never sent (an abort, a failure) must not leave an unhandled rejection.
      address.catch(() => {});
      this.#pending.set(n, address);
    }
  }
}
