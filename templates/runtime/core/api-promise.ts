/**
 * `ApiPromise<T>`: the promise every call returns. Await it for the data; call
 * `.withResponse()` for the data together with the HTTP status, headers and request id.
 * Errors are the same either way (an `ApiError` carries status, headers and requestId too).
 */
import type { ResponseInfo, WithResponse } from '../internal/attempt-types.js';

export type { ResponseInfo, WithResponse };

export class ApiPromise<T> extends Promise<T> {
  readonly #inner: Promise<WithResponse<T>>;
  #data: Promise<T> | undefined;

  constructor(inner: Promise<WithResponse<T>>) {
    super((resolve) => {
      // The real value comes from `inner`; this base promise is never observed.
      resolve(null as T);
    });
    this.#inner = inner;
  }

  /** Derived promises (`then`, `catch`, `finally`) are plain Promises. */
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  /** The data together with `{ status, headers, requestId }` of the answer. */
  withResponse(): Promise<WithResponse<T>> {
    return this.#inner;
  }

  #parsed(): Promise<T> {
    this.#data ??= this.#inner.then((r) => r.data);
    return this.#data;
  }

  // `reason: any`, as in the lib's Promise: a handler typed `(err: Error) => …` must be accepted.
  override then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null | undefined,
    onrejected?: ((reason: any) => R2 | PromiseLike<R2>) | null | undefined,
  ): Promise<R1 | R2> {
    // Straight from the inner promise, one derived promise (this is what every `await` of a call
    // runs): the data, or the shared parsed promise once `catch`/`finally` made it.
    if (this.#data !== undefined || typeof onfulfilled !== 'function')
      return this.#parsed().then(onfulfilled, onrejected);
    return this.#inner.then((r) => onfulfilled(r.data), onrejected);
  }

  override catch<R = never>(onrejected?: ((reason: any) => R | PromiseLike<R>) | null | undefined): Promise<T | R> {
    return this.#parsed().catch(onrejected);
  }

  override finally(onfinally?: (() => void) | null | undefined): Promise<T> {
    return this.#parsed().finally(onfinally);
  }
}
