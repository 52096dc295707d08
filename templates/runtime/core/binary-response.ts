/**
 * The result of an operation whose success body is binary (e.g. a media download): the body is
 * not read until you ask, and then streamed, never past `maxResponseBytes` (the stream errors
 * with `ResponseTooLargeError` there). Read it once: `bytes()`, `blob()`, `text()` or `stream()`,
 * or `cancel()` it: an unread body keeps its connection busy. The call's `timeoutMs`, deadline
 * and signal cover the request until the answer's headers; reading the body is up to you.
 */
import { declaredLength, type ResponseHeaders } from '../internal/http-attempt.js';
import { concatBytes } from '../internal/bytes.js';
import { ImError, ResponseTooLargeError } from './errors.js';

export class BinaryResponse {
  /** The Content-Type of the answer (e.g. `image/png`), if the service sent one. */
  readonly contentType: string | undefined;
  /** The Content-Length of the answer, if the service sent one (and did not compress the body). */
  readonly contentLength: number | undefined;
  readonly #source: ReadableStream<Uint8Array> | null;
  readonly #limit: number;
  readonly #operationId: string;
  readonly #status: number;
  #used = false;

  constructor(init: {
    stream: ReadableStream<Uint8Array> | null | undefined;
    headers: ResponseHeaders;
    limitBytes: number;
    operationId: string;
    status: number;
  }) {
    this.#source = init.stream ?? null;
    this.#limit = init.limitBytes;
    this.#operationId = init.operationId;
    this.#status = init.status;
    this.contentType = init.headers.get('content-type') ?? undefined;
    this.contentLength = declaredLength(init.headers);
  }

  /** True once the body was taken (each body can be read once). */
  get bodyUsed(): boolean {
    return this.#used;
  }

  /** The body as a stream of chunks, bounded by maxResponseBytes. */
  stream(): ReadableStream<Uint8Array> {
    if (this.#used)
      throw new ImError(
        `${this.#operationId}: the binary response was already read (read it once: bytes(), blob(), text() or stream()).`,
      );
    this.#used = true;
    const source = this.#source;
    if (!source) return new ReadableStream({ start: (c) => c.close() });
    const reader = source.getReader();
    const limit = this.#limit;
    const tooLarge = () =>
      new ResponseTooLargeError({
        operationId: this.#operationId,
        status: this.#status,
        limitBytes: limit,
        attempts: 1,
      });
    let total = 0;
    return new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          const { done, value } = await reader.read();
          if (done) return controller.close();
          total += value.byteLength;
          if (total > limit) {
            await reader.cancel().catch(() => undefined);
            return controller.error(tooLarge());
          }
          controller.enqueue(value);
        },
        cancel: (reason) => reader.cancel(reason),
      },
      { highWaterMark: 0 },
    );
  }

  /** Drops the body unread (frees the connection). */
  async cancel(): Promise<void> {
    if (this.#used) return;
    this.#used = true;
    await this.#source?.cancel().catch(() => undefined);
  }

  /** The whole body in memory (within maxResponseBytes). */
  async bytes(): Promise<Uint8Array> {
    const reader = this.stream().getReader();
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      total += value.byteLength;
    }
    return concatBytes(chunks, total);
  }

  /** The whole body as a Blob typed with the answer's Content-Type. */
  async blob(): Promise<Blob> {
    return new Blob(
      [(await this.bytes()) as Uint8Array<ArrayBuffer>],
      this.contentType ? { type: this.contentType } : {},
    );
  }

  /** The whole body decoded as UTF-8. */
  async text(): Promise<string> {
    return new TextDecoder().decode(await this.bytes());
  }

  toJSON(): Record<string, unknown> {
    return { contentType: this.contentType, contentLength: this.contentLength };
  }
}
