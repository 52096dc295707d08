/** Reading a Web request's body within a size bound and a deadline (the callback handler's first step). */
import { concatBytes } from '../internal/bytes.js';

/** The longest the service waits for an answer (seed 001 section 8: timeout 1 000 to 10 000 ms). */
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;

/**
 * Reads a Web request body up to `limit` bytes; 'too_large' as soon as it is exceeded, 'timeout'
 * when it has not fully arrived within `timeoutMs` (the stream is cancelled either way).
 */
export async function readWebBody(
  request: Request,
  limit: number,
  timeoutMs = DEFAULT_BODY_TIMEOUT_MS,
): Promise<Uint8Array | 'too_large' | 'timeout'> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > limit) {
    await request.body?.cancel().catch(() => undefined);
    return 'too_large';
  }
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), Math.max(0, timeoutMs));
  });
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), timedOut]);
      if (next === 'timeout') {
        await reader.cancel().catch(() => undefined);
        return 'timeout';
      }
      const { done, value } = next;
      if (done) break;
      total += value.byteLength;
      if (total > limit) {
        await reader.cancel().catch(() => undefined);
        return 'too_large';
      }
      chunks.push(value);
    }
  } finally {
    clearTimeout(timer);
  }
  return concatBytes(chunks, total);
}
