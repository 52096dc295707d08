import { listPages } from './pagination.js';
import { describe, expect, test } from 'vitest';
import {
  apiError,
  makeClient,
  ops,
  startFakeService,
  type Recorded,
  type Reply,
} from '../test-support/fake-service.js';
import { ApiPromise } from './api-promise.js';
import { ApiError, ImError, PaginationCycleError } from './errors.js';
import { Page, PagePromise } from './pagination.js';

/** Three pages: [1,2] → c2 → [3,4] → c3 → [5] → null. */
function threePages(r: Recorded): Reply {
  const cursor = r.query.get('cursor');
  if (cursor === null) return { status: 200, body: { items: [1, 2], next_cursor: 'c2', version: 'v9', extra: 'kept' } };
  if (cursor === 'c2') return { status: 200, body: { items: [3, 4], next_cursor: 'c3', version: 'v9' } };
  if (cursor === 'c3') return { status: 200, body: { items: [5], next_cursor: null, version: 'v9' } };
  return apiError(400, 'invalid_argument');
}

describe('pagination', () => {
  test('await → first page; for await → every item across three pages', async () => {
    const svc = await startFakeService({ handle: threePages });
    const client = makeClient(svc.baseUrl);
    const promise = listPages<Record<string, unknown>, number>(client, ops.groupsOfUser, {
      username: 'alice',
      limit: 2,
    });
    expect(promise).toBeInstanceOf(PagePromise);
    const first = await promise;
    expect(first).toBeInstanceOf(Page);
    expect(first.items).toEqual([1, 2]);
    expect(first.nextCursor).toBe('c2');
    expect(first.cursor).toBeNull();
    expect(first.body.extra).toBe('kept');
    expect(first.hasNextPage()).toBe(true);
    const all: number[] = [];
    for await (const item of listPages<unknown, number>(client, ops.groupsOfUser, { username: 'alice', limit: 2 }))
      all.push(item);
    expect(all).toEqual([1, 2, 3, 4, 5]);
    const walked = svc.calls.slice(1).map((c) => c.url);
    expect(walked).toEqual([
      '/acme/chat/users/alice/groups?limit=2',
      '/acme/chat/users/alice/groups?cursor=c2&limit=2',
      '/acme/chat/users/alice/groups?cursor=c3&limit=2',
    ]);
  });

  test('toArray({ limit }) on the page promise and on a page: at most limit items, no page fetched beyond them', async () => {
    const svc = await startFakeService({ handle: threePages });
    const client = makeClient(svc.baseUrl);
    expect(
      await listPages<unknown, number>(client, ops.groupsOfUser, { username: 'alice' }).toArray({ limit: 3 }),
    ).toEqual([1, 2, 3]);
    expect(svc.calls.map((c) => c.query.get('cursor'))).toEqual([null, 'c2']);
    expect(
      await listPages<unknown, number>(client, ops.groupsOfUser, { username: 'alice' }).toArray({ limit: 100 }),
    ).toEqual([1, 2, 3, 4, 5]);
    const second = await (
      await listPages<unknown, number>(client, ops.groupsOfUser, { username: 'alice' })
    ).getNextPage();
    expect(await second.toArray({ limit: 2 })).toEqual([3, 4]);
    for (const limit of [0, 1.5, undefined]) {
      await expect(second.toArray({ limit } as never)).rejects.toThrow(/toArray\.limit.*must be an integer >= 1/);
    }
  });

  test('getNextPage, pages() and the last page', async () => {
    const svc = await startFakeService({ handle: threePages });
    const first = await listPages<unknown, number>(makeClient(svc.baseUrl), ops.groupsOfUser, { username: 'a' });
    const second = await first.getNextPage();
    expect(second.items).toEqual([3, 4]);
    expect(second.cursor).toBe('c2');
    const third = await second.getNextPage();
    expect(third.hasNextPage()).toBe(false);
    await expect(third.getNextPage()).rejects.toBeInstanceOf(ImError);
    const counts: number[] = [];
    for await (const page of second.pages()) counts.push(page.items.length);
    expect(counts).toEqual([2, 1]);
  });

  test('resume: a list call with a saved cursor starts there', async () => {
    const svc = await startFakeService({ handle: threePages });
    const client = makeClient(svc.baseUrl);
    const saved = (await listPages(client, ops.groupsOfUser, { username: 'a' })).nextCursor;
    const rest: number[] = [];
    for await (const item of listPages<unknown, number>(client, ops.groupsOfUser, { username: 'a', cursor: saved }))
      rest.push(item);
    expect(rest).toEqual([3, 4, 5]);
  });

  test('versioned list exposes the version and passes known_version through', async () => {
    const svc = await startFakeService({ handle: threePages });
    const client = makeClient(svc.baseUrl);
    const page = await listPages(client, ops.friendsList, { username: 'a', known_version: 'v8' });
    expect(page.version).toBe('v9');
    expect(svc.calls[0]?.query.get('known_version')).toBe('v8');
  });

  test('a page without the items field gives no items; a repeated cursor stops the walk', async () => {
    const svc = await startFakeService({ handle: () => ({ status: 200, body: { next_cursor: 'same' } }) });
    const client = makeClient(svc.baseUrl);
    const first = await listPages(client, ops.groupsOfUser, { username: 'a' });
    expect(first.items).toEqual([]);
    const second = await first.getNextPage();
    await expect(second.getNextPage()).rejects.toThrow(/already followed/);
  });

  test('alternating next_cursor values (A → B → A) end the walk with PaginationCycleError (issue 16 item 3)', async () => {
    // Before the fix this walk never ended; the counter below stops it so that the test fails instead of hanging.
    const svc = await startFakeService({
      handle: (r) => {
        const cursor = r.query.get('cursor');
        return { status: 200, body: { items: [cursor ?? 'first'], next_cursor: cursor === 'A' ? 'B' : 'A' } };
      },
    });
    const seen: string[] = [];
    const walk = async (): Promise<unknown> => {
      for await (const item of listPages<unknown, string>(makeClient(svc.baseUrl), ops.groupsOfUser, {
        username: 'a',
      })) {
        seen.push(item);
        if (seen.length > 50) return 'looped';
      }
      return 'ended';
    };
    const outcome = await walk().catch((e: unknown) => e);
    expect(outcome).toBeInstanceOf(PaginationCycleError);
    expect((outcome as PaginationCycleError).pagesFetched).toBe(3);
    expect(seen).toEqual(['first', 'A', 'B']);
    expect(svc.calls).toHaveLength(3);
  });

  test('an error on a later page surfaces in the walk', async () => {
    const svc = await startFakeService({
      handle: (r) => (r.query.get('cursor') === 'c2' ? apiError(400, 'invalid_argument') : threePages(r)),
    });
    const seen: number[] = [];
    const walk = async () => {
      for await (const item of listPages<unknown, number>(makeClient(svc.baseUrl), ops.groupsOfUser, { username: 'a' }))
        seen.push(item);
    };
    await expect(walk()).rejects.toBeInstanceOf(ApiError);
    expect(seen).toEqual([1, 2]);
  });

  test('list of an operation without pagination fails clearly', async () => {
    const svc = await startFakeService();
    await expect(listPages(makeClient(svc.baseUrl), ops.usersGet, { username: 'a' })).rejects.toThrow(
      /not a list operation/,
    );
  });
});

describe('withResponse', () => {
  test('gives data with status, headers and request id; the promise is a Promise', async () => {
    const svc = await startFakeService({
      handle: () => ({ status: 201, body: { id: 'u1' }, headers: { 'x-request-id': 'req-777', 'set-cookie': 'a=b' } }),
    });
    const client = makeClient(svc.baseUrl);
    const p = client.request<{ id: string }>(ops.usersCreate, { username: 'a' });
    expect(p).toBeInstanceOf(Promise);
    expect(p).toBeInstanceOf(ApiPromise);
    const { data, response } = await p.withResponse();
    expect(data).toEqual({ id: 'u1' });
    expect(response.status).toBe(201);
    expect(response.requestId).toBe('req-777');
    expect(response.headers['set-cookie']).toBe('***');
    expect(await p).toEqual({ id: 'u1' });
    expect(svc.calls).toHaveLength(1); // awaiting twice does not send twice
  });

  test('errors carry status, headers and request id too', async () => {
    const svc = await startFakeService({ handle: () => apiError(404, 'not_found') });
    const err = await makeClient(svc.baseUrl)
      .request(ops.usersGet, { username: 'a' })
      .withResponse()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({
      status: 404,
      code: 'not_found',
      requestId: 'req-not_found',
      operationId: 'users.get',
      attempts: 1,
    });
    expect((err as ApiError).headers['x-request-id']).toBe('req-hdr-1');
  });

  test('a page promise gives the first page with its response', async () => {
    const svc = await startFakeService({ handle: threePages });
    const { data, response } = await listPages(makeClient(svc.baseUrl), ops.groupsOfUser, {
      username: 'a',
    }).withResponse();
    expect(data.items).toEqual([1, 2]);
    expect(response.status).toBe(200);
    expect(data.response.requestId).toBe('req-hdr-1');
  });

  test('non-JSON error bodies are handled', async () => {
    const svc = await startFakeService({
      handle: () => ({ status: 502, body: '<html>Bad gateway</html>', headers: { 'content-type': 'text/html' } }),
    });
    const err = await makeClient(svc.baseUrl, { maxRetries: 0 })
      .request(ops.usersGet, { username: 'a' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 502, code: undefined });
    expect((err as Error).message).toContain('Bad gateway');
  });

  test('expires_at: null survives to the wire', async () => {
    const svc = await startFakeService();
    await makeClient(svc.baseUrl).request(ops.rtcUpdate, { channel_id: 'c1', expires_at: null });
    expect(svc.calls[0]?.body).toBe('{"expires_at":null}');
    expect(svc.calls[0]?.headers['content-type']).toBe('application/json');
  });
});
