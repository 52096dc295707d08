// Copied by im-openapi from templates/runtime/callbacks/simulator/http-send.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * One callback request as the service makes it (seed 001 §2.2, §4, §7): POST, no redirect
 * followed, a timeout, and only the first N bytes of the answer read. A timed-out request counts
 * as failed at once, but the socket is kept a little longer (`lateGraceMs`) to see whether the
 * receiver answered late: that is a finding, not a success.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { IncomingMessage } from 'node:http';

export interface SendResult {
  /** HTTP status, or undefined when no answer came in time. */
  status?: number;
  /** The answer bytes read (at most `readLimit`). */
  body: string;
  /** More than `readLimit` bytes came. */
  overLimit: boolean;
  retryAfter?: string;
  location?: boolean;
  /** Real ms until the status line (or until the timeout). */
  durationMs: number;
  error?: 'timeout' | 'connection';
  /** When it timed out: the real ms after which the answer did come, if within the grace. */
  lateAnswerMs?: number;
  lateStatus?: number;
  /** After a timeout: settles when the late answer came or the grace ended (then `lateAnswerMs` is final). */
  late?: Promise<void>;
}

export interface SendInput {
  url: URL;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  readLimit: number;
  lateGraceMs: number;
}

export function sendCallback(input: SendInput): Promise<SendResult> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    const finish = (r: SendResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const make = input.url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = make(input.url, {
      method: 'POST',
      headers: { ...input.headers, 'Content-Length': String(Buffer.byteLength(input.body)) },
      agent: false,
    });
    const timer = setTimeout(() => {
      const timedOut: SendResult = { body: '', overLimit: false, durationMs: elapsed(), error: 'timeout' };
      // Keep listening a little: an answer after the timeout is what the finding is about.
      timedOut.late = new Promise<void>((lateDone) => {
        const end = (): void => {
          clearTimeout(graceTimer);
          req.destroy();
          lateDone();
        };
        graceTimer = setTimeout(end, input.lateGraceMs);
        req.once('response', (res: IncomingMessage) => {
          timedOut.lateAnswerMs = elapsed();
          if (res.statusCode !== undefined) timedOut.lateStatus = res.statusCode;
          end();
        });
        req.once('close', end);
      });
      finish(timedOut);
    }, input.timeoutMs);
    req.once('response', (res: IncomingMessage) => {
      if (settled) return;
      const status = res.statusCode ?? 0;
      const durationMs = elapsed();
      const chunks: Buffer[] = [];
      let size = 0;
      let overLimit = false;
      const done = (): void =>
        finish({
          status,
          body: Buffer.concat(chunks).subarray(0, input.readLimit).toString('utf8'),
          overLimit,
          durationMs,
          ...(typeof res.headers['retry-after'] === 'string' ? { retryAfter: res.headers['retry-after'] } : {}),
          ...(res.headers.location !== undefined ? { location: true } : {}),
        });
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= input.readLimit + 1) chunks.push(chunk);
        if (size > input.readLimit) {
          // The service reads no more than the limit (§8): stop here.
          overLimit = true;
          done();
          req.destroy();
        }
      });
      res.once('end', done);
      res.once('error', done);
      res.once('close', done);
    });
    req.once('error', () => {
      if (!settled) finish({ body: '', overLimit: false, durationMs: elapsed(), error: 'connection' });
    });
    req.end(input.body);
  });
}
