// Copied by im-openapi from templates/runtime/testing/ops/context.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * What an operation handler of the fake gets, and the helpers every resource shares: pages with
 * the spec's cursor fields, lookups that answer not_found, ids and times.
 */
import type { OperationSpec } from '../../operation.js';
import { invalidArgument, notFound } from '../errors.js';
import type { FakeState, Json, VersionedList } from '../state/state.js';

export interface HandlerContext {
  op: OperationSpec;
  /** Flat params: path parameters, query parameters (strings) and body fields. */
  params: Record<string, any>;
  /** The JSON body object ({} when none). */
  body: Record<string, any>;
  state: FakeState;
  pageSize: number;
  /** The fake's own base URL (part upload addresses point at it). */
  baseUrl: string;
  keepUploadBytes: boolean;
  /** The fake's clock. */
  now(): number;
  /** Queues the event this change causes (delivered after the answer). */
  emit(type: string, data: Json): void;
}

/** A handler's answer: the success body, and the status when it is not the operation's first success status. */
export interface Answer {
  status?: number;
  body: unknown;
}

export type OpHandler = (c: HandlerContext) => Answer;

/** `ms` (default now) as the seed writes times: UTC ISO 8601 with milliseconds. */
export function isoTime(c: HandlerContext, ms = c.now()): string {
  return new Date(ms).toISOString();
}

/** Microsecond times (seed 001 §2.6: created_at, revoked_before, sessions_revoked_before): six digits. */
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

export const copy = <T>(value: T): T => structuredClone(value);

/** The path parameter `name` (always present: the route matched it). */
export function pathParam(c: HandlerContext, name: string): string {
  return String(c.params[name]);
}

export function requireUser(c: HandlerContext, username = pathParam(c, 'username')): Json {
  const user = c.state.users.get(username);
  if (!user) throw notFound('user', username);
  return user;
}

export function requireIn<V>(map: ReadonlyMap<string, V>, what: string, id: string): V {
  const value = map.get(id);
  if (value === undefined) throw notFound(what, id);
  return value;
}

/** A list of strings from a body field (refused with 400 when it is not one). */
export function stringList(c: HandlerContext, field: string): string[] {
  const value = c.params[field];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
    throw invalidArgument(field, 'must be a list of strings');
  return value as string[];
}

// ---------------------------------------------------------------- pages

const CURSOR_PREFIX = 'fake1.';

/** The fake's cursor: an opaque string for an offset into the list (never reused across lists by meaning). */
export function encodeCursor(offset: number): string {
  return `${CURSOR_PREFIX}${offset.toString(36)}`;
}

export function decodeCursor(cursor: unknown, field = 'cursor'): number {
  if (cursor === undefined || cursor === null) return 0;
  const text = String(cursor);
  const offset = text.startsWith(CURSOR_PREFIX) ? Number.parseInt(text.slice(CURSOR_PREFIX.length), 36) : Number.NaN;
  if (!Number.isSafeInteger(offset) || offset < 0)
    throw invalidArgument(field, 'not a cursor this fake issued (pass the next_cursor of a page)');
  return offset;
}

/** The page size: a `limit` param where the operation has one (1 to 1000), else the fake's pageSize. */
export function pageSizeOf(c: HandlerContext): number {
  if (c.params.limit === undefined) return c.pageSize;
  const limit = Number(c.params.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
    throw invalidArgument('limit', 'must be a whole number from 1 to 1000');
  return limit;
}

/**
 * One page of `list` in the spec's page shape (items field and next_cursor from the operation's
 * x-pagination; null on the last page). Without a cursor the page starts at `from` (default 0).
 */
export function page(c: HandlerContext, list: readonly unknown[], extra: Json = {}, from = 0): Answer {
  const spec = c.op.pagination;
  const itemsField = spec?.itemsField ?? 'items';
  const nextField = spec?.nextCursorField ?? 'next_cursor';
  const cursorParam = spec?.cursorParam ?? 'cursor';
  const start = c.params[cursorParam] === undefined ? from : decodeCursor(c.params[cursorParam], cursorParam);
  const size = pageSizeOf(c);
  const end = start + size;
  return {
    body: {
      [itemsField]: copy(list.slice(start, end)),
      [nextField]: end < list.length ? encodeCursor(end) : null,
      ...extra,
    },
  };
}

const KEY_CURSOR_PREFIX = 'fake1k.';

/**
 * A page of the items of `all` that `keep` keeps, after the item whose key the cursor names
 * (in `all`'s order): items that stop matching between two pages (a decided moderation item)
 * do not shift the next page, as an offset would.
 */
export function keysetPage(
  c: HandlerContext,
  all: readonly Json[],
  keep: (item: Json) => boolean,
  keyOf: (item: Json) => string,
): Answer {
  const cursor = c.params.cursor;
  let start = 0;
  if (cursor !== undefined) {
    const text = String(cursor);
    const key = text.startsWith(KEY_CURSOR_PREFIX)
      ? Buffer.from(text.slice(KEY_CURSOR_PREFIX.length), 'base64url').toString('utf8')
      : undefined;
    const at = key === undefined ? -1 : all.findIndex((item) => keyOf(item) === key);
    if (at < 0) throw invalidArgument('cursor', 'not a cursor this fake issued (pass the next_cursor of a page)');
    start = at + 1;
  }
  const size = pageSizeOf(c);
  const items: Json[] = [];
  let i = start;
  for (; i < all.length && items.length < size; i++) if (keep(all[i]!)) items.push(all[i]!);
  const more = all.slice(i).some(keep);
  const next =
    more && items.length > 0
      ? `${KEY_CURSOR_PREFIX}${Buffer.from(keyOf(items[items.length - 1]!), 'utf8').toString('base64url')}`
      : null;
  return {
    body: {
      [c.op.pagination?.itemsField ?? 'items']: copy(items),
      [c.op.pagination?.nextCursorField ?? 'next_cursor']: next,
    },
  };
}

/** A page of a versioned list: the items and the list's version (the spec's versionField). */
export function versionedPage(c: HandlerContext, list: VersionedList | undefined): Answer {
  const versionField = c.op.pagination?.versionField ?? 'version';
  return page(c, list ? list.values() : [], { [versionField]: String(list?.version ?? 1) });
}

/** An answer of the `{ items: [...] }` lists (no paging). */
export function itemList(items: readonly unknown[]): Answer {
  return { body: { items: copy(items) } };
}

/** The two handlers of a per-user settings object (get, and set/update by merging the body). */
export function userSettingsHandlers(
  mapOf: (c: HandlerContext) => Map<string, Json>,
  fallback: Json,
): [OpHandler, OpHandler] {
  const get: OpHandler = (c) => {
    requireUser(c);
    return { body: copy(mapOf(c).get(pathParam(c, 'username')) ?? fallback) };
  };
  const set: OpHandler = (c) => {
    requireUser(c);
    const settings = { ...(mapOf(c).get(pathParam(c, 'username')) ?? {}), ...changes(c) };
    mapOf(c).set(pathParam(c, 'username'), settings);
    return { body: copy(settings) };
  };
  return [get, set];
}

/** The fields of a partial update: the body without the path parameters. */
export function changes(c: HandlerContext): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(c.body)) if (!c.op.pathParams.includes(k)) out[k] = v;
  return out;
}
