/**
 * Pages of list operations. `await im.groups.ofUser(...)` gives the first `Page`;
 * `for await (const g of im.groups.ofUser(...))` walks every item across pages, following
 * `next_cursor` until it is null. A page exposes its cursors, so a walk can be saved and
 * resumed later: pass a saved `nextCursor` as the list's cursor param.
 */
import type { OperationSpec, PaginationSpec } from '../operation.js';
import type { RequestOptions } from './options.js';
import { ApiPromise, type ResponseInfo, type WithResponse } from './api-promise.js';
import { ConfigError, ImError, PaginationCycleError } from './errors.js';

/** Options of `toArray`: `limit` is required, so a walk never holds a whole huge list by accident. */
export interface ToArrayOptions {
  /** The most items to collect (an integer >= 1); the walk stops fetching pages once it has them. */
  limit: number;
}

/** Collects up to `limit` items from `items` (every item across pages), fetching no page beyond them. */
async function collectItems<TItem>(items: AsyncIterable<TItem>, options: ToArrayOptions): Promise<TItem[]> {
  const limit = (options as ToArrayOptions | undefined)?.limit;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
    throw new ConfigError(
      'toArray.limit',
      `must be an integer >= 1 (got ${String(limit)}).`,
      'Pass the most items you want, e.g. toArray({ limit: 1000 }).',
    );
  }
  const out: TItem[] = [];
  for await (const item of items) {
    out.push(item);
    if (out.length >= limit) break;
  }
  return out;
}

export type FetchPage<TPage, TItem> = (cursor: string) => Promise<Page<TPage, TItem>>;

export class Page<TPage, TItem> implements AsyncIterable<TItem> {
  /** The raw page object as the service sent it (unknown fields kept). */
  readonly body: TPage;
  /** The items of this page (`[]` when the page field is missing). */
  readonly items: TItem[];
  /** Cursor of the next page; null on the last page. Save it to resume later. */
  readonly nextCursor: string | null;
  /** The cursor that fetched this page (null for a first page fetched without one). */
  readonly cursor: string | null;
  /** Versioned lists: the list version to pass back as `known_version`. */
  readonly version: string | number | undefined;
  /** Status, headers and request id of the answer that carried this page. */
  readonly response: ResponseInfo;
  readonly #fetchPage: FetchPage<TPage, TItem>;

  constructor(init: {
    body: TPage;
    response: ResponseInfo;
    pagination: PaginationSpec;
    cursor: string | null;
    fetchPage: FetchPage<TPage, TItem>;
  }) {
    const raw = (typeof init.body === 'object' && init.body !== null ? init.body : {}) as Record<string, unknown>;
    const { itemsField, nextCursorField, versionField } = init.pagination;
    const items = raw[itemsField];
    const next = raw[nextCursorField];
    const version = versionField === undefined ? undefined : raw[versionField];
    this.body = init.body;
    this.items = Array.isArray(items) ? (items as TItem[]) : [];
    this.nextCursor = typeof next === 'string' && next !== '' ? next : typeof next === 'number' ? String(next) : null;
    this.cursor = init.cursor;
    this.version = typeof version === 'string' || typeof version === 'number' ? version : undefined;
    this.response = init.response;
    this.#fetchPage = init.fetchPage;
  }

  hasNextPage(): boolean {
    return this.nextCursor !== null;
  }

  /** Fetches the next page; fails when there is none (check `hasNextPage()` first). */
  async getNextPage(): Promise<Page<TPage, TItem>> {
    if (this.nextCursor === null) {
      throw new ImError('This is the last page (next_cursor is null); check hasNextPage() before getNextPage().');
    }
    if (this.nextCursor === this.cursor) throw new PaginationCycleError(1);
    return this.#fetchPage(this.nextCursor);
  }

  /**
   * This page and every following page. A cursor that this walk has already followed ends it
   * with a `PaginationCycleError` (a service or proxy answering A → B → A would otherwise loop a
   * `for await` forever); the cursors are kept for the walk only.
   */
  async *pages(): AsyncGenerator<Page<TPage, TItem>, void, undefined> {
    let page: Page<TPage, TItem> = this;
    const seen = new Set<string>();
    if (page.cursor !== null) seen.add(page.cursor);
    let fetched = 1;
    yield page;
    while (page.nextCursor !== null) {
      if (seen.has(page.nextCursor)) throw new PaginationCycleError(fetched);
      seen.add(page.nextCursor);
      page = await page.getNextPage();
      fetched += 1;
      yield page;
    }
  }

  /** Every item of this page and of every following page. */
  async *[Symbol.asyncIterator](): AsyncGenerator<TItem, void, undefined> {
    for await (const page of this.pages()) yield* page.items;
  }

  /** The items of this page and the following pages, at most `limit` of them (like Stripe's `autoPagingToArray`). */
  toArray(options: ToArrayOptions): Promise<TItem[]> {
    return collectItems(this, options);
  }

  toJSON(): Record<string, unknown> {
    return { items: this.items, nextCursor: this.nextCursor, cursor: this.cursor, version: this.version };
  }
}

/** Await → the first page; `for await` → every item across pages. */
export class PagePromise<TPage, TItem> extends ApiPromise<Page<TPage, TItem>> implements AsyncIterable<TItem> {
  constructor(inner: Promise<WithResponse<Page<TPage, TItem>>>) {
    super(inner);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<TItem, void, undefined> {
    const first = await this;
    yield* first;
  }

  /** Every item across pages, at most `limit` of them: `await im.users.list().toArray({ limit: 500 })`. */
  toArray(options: ToArrayOptions): Promise<TItem[]> {
    return collectItems(this, options);
  }
}

/**
 * Calls a list operation: await → first page; `for await` → every item across pages. A function
 * beside the client rather than a method of it, so that an app that calls no list bundles none
 * of this.
 */
export function listPages<TPage, TItem>(
  client: PageSource,
  op: OperationSpec,
  params?: object,
  options?: RequestOptions,
): PagePromise<TPage, TItem> {
  const pagination = op.pagination;
  if (!pagination) {
    return new PagePromise(
      Promise.reject(new ImError(`${op.id} is not a list operation (no pagination in its table entry).`)),
    );
  }
  const fetchPage = async (cursor: string | undefined): Promise<WithResponse<Page<TPage, TItem>>> => {
    const base = (params ?? {}) as Record<string, unknown>;
    const pageParams = cursor === undefined ? base : { ...base, [pagination.cursorParam]: cursor };
    const { data, response } = await client.request<TPage>(op, pageParams, options).withResponse();
    const used = pageParams[pagination.cursorParam];
    const page = new Page<TPage, TItem>({
      body: data,
      response,
      pagination,
      cursor: typeof used === 'string' ? used : typeof used === 'number' ? String(used) : null,
      fetchPage: async (next) => (await fetchPage(next)).data,
    });
    return { data: page, response };
  };
  return new PagePromise<TPage, TItem>(fetchPage(undefined));
}

/** What listPages needs of the client (every core client has it). */
export interface PageSource {
  request<T>(op: OperationSpec, params?: object, options?: RequestOptions): ApiPromise<T>;
}
