/**
 * Peak of retained ArrayBuffer memory (bytes outside the JS heap: upload chunks, parts) while
 * something runs: each sample runs a full gc first, so what counts is what is still referenced.
 * Needs --expose-gc (vitest.config.ts sets it).
 */
import { expect } from 'vitest';

export interface ArrayBufferPeak {
  /** Take a sample now (call it from inside the code under test too: timers may not fire often). */
  sample(): void;
  /** Growth over the start, in bytes, at the highest sample so far. */
  readonly peak: number;
  stop(): void;
}

export function watchArrayBuffers(intervalMs = 20): ArrayBufferPeak {
  const gc = (globalThis as { gc?: () => void }).gc;
  expect(gc, 'run with --expose-gc (vitest.config.ts sets it)').toBeTypeOf('function');
  gc!();
  const before = process.memoryUsage().arrayBuffers;
  let peak = 0;
  const sample = () => {
    gc!();
    peak = Math.max(peak, process.memoryUsage().arrayBuffers - before);
  };
  const timer = setInterval(sample, intervalMs);
  return {
    sample,
    get peak() {
      return peak;
    },
    stop: () => clearInterval(timer),
  };
}
