/**
 * The kit logs nothing by default, like the client: a full verify / handle cycle with default
 * options (accepted, duplicate, refused, failing handler, hook fallback, body parser mistake)
 * writes nothing to the console or to stdout/stderr. With `logger: console` the same cycle does.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCallbackHandler as createEdgeHandler } from './edge.js';
import { createCallbackHandler } from './node.js';
import { createNodeCallbackHandler } from './node.js';
import { signCallbackRequest } from './sign.js';
import { sampleCallbackBody } from './samples.js';
import type { CallbackLogger } from './types.js';
import { verifyCallback } from './verify.js';

const SECRET = 'whsec_quiet_Zr7Kp2';
let written: string[] = [];
const restore: Array<() => void> = [];

beforeEach(() => {
  written = [];
  for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const) {
    const spy = vi
      .spyOn(console, method)
      .mockImplementation((...args: unknown[]) => void written.push(`console.${method} ${args.map(String).join(' ')}`));
    restore.push(() => spy.mockRestore());
  }
  for (const stream of [process.stdout, process.stderr]) {
    const original = stream.write.bind(stream);
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      written.push(`${stream === process.stdout ? 'stdout' : 'stderr'} ${String(chunk)}`);
      return (original as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof stream.write;
    restore.push(() => (stream.write = original as typeof stream.write));
  }
});
afterEach(() => {
  while (restore.length) restore.pop()!();
});

async function cycle(logger?: CallbackLogger, create = createCallbackHandler): Promise<number[]> {
  const statuses: number[] = [];
  const handler = create({
    secrets: SECRET,
    ...(logger ? { logger } : {}),
    onEvent: (event) => {
      if (event.type === 'friend.added') throw new Error('database down');
    },
    onHook: () => new Promise(() => undefined), // never answers: the default decision is sent
  });
  const post = async (body: object, secret = SECRET): Promise<number> => {
    const signed = signCallbackRequest({ body, secrets: secret });
    const res = await handler(
      new Request('http://127.0.0.1/cb', { method: 'POST', headers: signed.headers, body: signed.body }),
    );
    await res.text();
    return res.status;
  };
  const event = sampleCallbackBody('event');
  statuses.push(await post(event), await post(event)); // accepted, then a duplicate
  statuses.push(await post(sampleCallbackBody('event'), 'not-the-secret')); // refused 401
  statuses.push(await post(sampleCallbackBody('event', { type: 'friend.added' }))); // onEvent throws → 500
  statuses.push(await post(sampleCallbackBody('hook', { timeoutMs: 300 }))); // hook fallback
  const signed = signCallbackRequest({ body: sampleCallbackBody('verify'), secrets: SECRET });
  const verified = await verifyCallback({ headers: signed.headers, rawBody: signed.body, secrets: SECRET });
  statuses.push(verified.kind === 'verify' ? 200 : 0);

  // node adapter behind a body parser that already read the stream: 500 with a hint, no log
  const node = createNodeCallbackHandler({ secrets: SECRET, ...(logger ? { logger } : {}), onEvent: () => undefined });
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => void node(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const port = (server.address() as AddressInfo).port;
    const s = signCallbackRequest({ body: sampleCallbackBody('event'), secrets: SECRET });
    const res = await fetch(`http://127.0.0.1:${port}/cb`, {
      method: 'POST',
      headers: s.headers,
      body: s.body,
      signal: AbortSignal.timeout(5000),
    });
    await res.text();
    statuses.push(res.status);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  return statuses;
}

describe('the callbacks kit logs nothing by default', () => {
  it('a full cycle with default options writes nothing to the console, stdout or stderr', async () => {
    const statuses = await cycle();
    expect(statuses).toEqual([200, 200, 401, 500, 200, 200, 500]);
    expect(await cycle(undefined, createEdgeHandler)).toEqual([200, 200, 401, 500, 200, 200, 500]);
    expect(written).toEqual([]);
  });

  it('the same cycle with logger: console reports refusals and failures (the spy can see output)', async () => {
    await cycle(console);
    expect(written.some((line) => line.includes('callback refused'))).toBe(true);
    expect(written.some((line) => line.includes('onEvent'))).toBe(true);
    expect(written.join('\n')).not.toContain(SECRET);
  });
});
