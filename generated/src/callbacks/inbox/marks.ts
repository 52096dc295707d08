// Copied by im-openapi from templates/runtime/callbacks/inbox/marks.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * What the inbox reads off an event before handing it out: the ordering guard's entity and mark
 * (seed 001 §6 rule 2) and, for a truncated event (§2.6), the REST call that fetches the rest.
 *
 * A mark is encoded as two strings that compare by plain string order, so that the memory engine
 * (`compareMarks`) and the Redis engine (a Lua script comparing the same strings) agree exactly:
 *  - v: a non-negative integer version as 2-digit length + digits ("05" + "12345"), '' if none;
 *  - t: occurred_at as 20-digit epoch microseconds (exact for the µs fields), '' if none.
 */
import { orderingVersionFields } from '../ordering.js';
import { parseCallbackTime } from '../times.js';
import type { CallbackEvent } from '../types.js';
import type { InboxOrderingOptions, InboxRefetch } from './types.js';

export interface EncodedMark {
  v: string;
  t: string;
}

/**
 * Event type → REST call for its truncated data: operationId and, per parameter, the data field
 * it comes from. Mirrors the spec's `x-truncated-refetch` marks (the generated `eventRefetchOperations`;
 * a test asserts they agree).
 */
export const truncatedRefetch: Readonly<
  Record<string, { operationId: string; params: Readonly<Record<string, string>> }>
> = {
  'group.members_added': { operationId: 'groups.members', params: { group_id: 'group_id' } },
};

function encodeVersion(v: unknown): string {
  let digits: string | undefined;
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) digits = String(v);
  else if (typeof v === 'bigint' && v >= 0n) digits = v.toString();
  else if (typeof v === 'string' && /^\d{1,99}$/.test(v)) digits = v;
  if (digits === undefined) return '';
  digits = digits.replace(/^0+(?=\d)/, '');
  return String(digits.length).padStart(2, '0') + digits;
}

function encodeTime(t: unknown): string {
  if (typeof t !== 'string') return '';
  try {
    const micros = parseCallbackTime(t).epochMicros;
    return micros >= 0n ? micros.toString().padStart(20, '0') : '';
  } catch {
    return '';
  }
}

export function encodeMark(event: CallbackEvent, fields: Readonly<Record<string, string>>): EncodedMark {
  const field = fields[event.type];
  const data = event.data && typeof event.data === 'object' ? event.data : {};
  return { v: field !== undefined ? encodeVersion(data[field]) : '', t: encodeTime(event.occurred_at) };
}

/**
 * True when `next` is strictly newer than the stored mark: by version when both have one, with
 * occurred_at deciding equal versions and standing in when a version is missing. Not comparable or
 * equal → false (an older or same event never overwrites). Nothing stored → true.
 * (The Redis engine's COMMIT script holds the same rule in Lua.)
 */
export function isNewerMark(next: EncodedMark, stored: EncodedMark | null | undefined): boolean {
  if (!stored) return true;
  let c = 0;
  if (next.v !== '' && stored.v !== '') c = next.v < stored.v ? -1 : next.v > stored.v ? 1 : 0;
  if (c === 0 && next.t !== '' && stored.t !== '') c = next.t < stored.t ? -1 : next.t > stored.t ? 1 : 0;
  return c === 1;
}

/** Default entity: the one ordered type whose key field the spec shows. */
function defaultEntityOf(event: CallbackEvent): string | undefined {
  const groupId = event.data?.group_id;
  return event.type === 'group.members_added' && typeof groupId === 'string'
    ? `group.members_added:${groupId}`
    : undefined;
}

export interface GuardPlan {
  entity: string;
  mark: EncodedMark;
}

export interface OrderingPlan {
  plan(event: CallbackEvent): GuardPlan | undefined;
  deliverSuperseded: boolean;
}

export function orderingPlan(option: boolean | InboxOrderingOptions | undefined): OrderingPlan | undefined {
  if (!option) return undefined;
  const o = option === true ? {} : option;
  const fields = o.fields ?? orderingVersionFields;
  const entityOf = o.entityOf ?? defaultEntityOf;
  return {
    deliverSuperseded: o.deliverSuperseded === true,
    plan(event) {
      const entity = entityOf(event);
      if (typeof entity !== 'string' || entity === '') return undefined;
      const mark = encodeMark(event, fields);
      return mark.v === '' && mark.t === '' ? undefined : { entity, mark };
    },
  };
}

/** `{ refetch }` for a truncated event; undefined for one that is whole. */
export function truncationOf(
  event: CallbackEvent,
  table: Readonly<Record<string, { operationId: string; params: Readonly<Record<string, string>> }>> = truncatedRefetch,
): { refetch?: InboxRefetch } | undefined {
  if (event.data?.truncated !== true) return undefined;
  const entry = table[event.type];
  if (!entry) return {};
  const params: Record<string, string> = {};
  for (const [param, field] of Object.entries(entry.params)) {
    const value = event.data[field];
    if (typeof value !== 'string' && typeof value !== 'number') return {};
    params[param] = String(value);
  }
  return { refetch: { operationId: entry.operationId, params } };
}
