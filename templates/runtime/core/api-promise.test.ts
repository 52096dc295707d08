import { describe, expect, it } from 'vitest';
import { ApiPromise } from './api-promise.js';

const response = { status: 200, headers: {}, requestId: 'req-1' };
const ok = () => new ApiPromise<{ n: number }>(Promise.resolve({ data: { n: 1 }, response }));
const failing = (err: Error) => {
  const inner = Promise.reject(err);
  inner.catch(() => undefined); // rejections here are observed by each test's own handlers
  return new ApiPromise<{ n: number }>(inner);
};

describe('ApiPromise', () => {
  it('gives the data to await and to then(f), passes it through then() without f, and the answer to withResponse()', async () => {
    expect(await ok()).toEqual({ n: 1 });
    expect(await ok().then((d) => d.n + 1)).toBe(2);
    expect(await ok().then(undefined, () => 'no')).toEqual({ n: 1 });
    expect(await ok().withResponse()).toEqual({ data: { n: 1 }, response });
  });

  it('a failed call rejects every way it is read, and then(f, r) calls r only', async () => {
    const err = new Error('boom');
    await expect(failing(err)).rejects.toBe(err);
    let fulfilled = false;
    expect(
      await failing(err).then(
        () => (fulfilled = true),
        (e: unknown) => e,
      ),
    ).toBe(err);
    expect(fulfilled).toBe(false);
    expect(await failing(err).catch((e: unknown) => e)).toBe(err);
  });

  it('a handler that throws rejects the derived promise; then after catch and finally still gives the data', async () => {
    const boom = new Error('in handler');
    await expect(
      ok().then(() => {
        throw boom;
      }),
    ).rejects.toBe(boom);
    const p = ok();
    await p.catch(() => undefined);
    await p.finally(() => undefined);
    expect(await p.then((d) => d.n)).toBe(1);
  });
});
