// Copied by im-openapi from templates/runtime/callbacks/ordering.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * Newness of events (seed 001 section 6 rule 2): delivery order is not guaranteed; judge by the
 * version field of the type, else by occurred_at; an older event must not overwrite newer state.
 */
import { compareCallbackTimes } from './times.js';

/**
 * Event type → data field holding its ordering version. The generator fills this table from the
 * spec's `x-ordering-version` marks; the three entries below are the ones the seed names.
 */
export const orderingVersionFields: Record<string, string> = {
  'friend.added': 'version',
  'group.members_added': 'member_version',
  'presence.changed': 'version',
};

/** What to remember per key (group, friendship, user …) to judge later events. */
export interface OrderingMark {
  version?: number | bigint | string | null;
  occurred_at?: string | null;
}

interface EventLike {
  type?: string;
  occurred_at?: string;
  data?: Record<string, unknown> | null;
}

function isEventLike(x: EventLike | OrderingMark): x is EventLike {
  return typeof (x as EventLike).type === 'string' || typeof (x as EventLike).data === 'object';
}

/** The mark of an event: its version (per `orderingVersionFields`) and occurred_at. */
export function orderingMarkOf(event: EventLike, fields: Record<string, string> = orderingVersionFields): OrderingMark {
  const mark: OrderingMark = {};
  const field = event.type !== undefined ? fields[event.type] : undefined;
  const v = field !== undefined ? event.data?.[field] : undefined;
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'string') mark.version = v;
  if (typeof event.occurred_at === 'string') mark.occurred_at = event.occurred_at;
  return mark;
}

function toBig(v: unknown): bigint | undefined {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
  if (typeof v === 'string' && /^-?\d{1,40}$/.test(v)) return BigInt(v);
  return undefined;
}

/**
 * -1 / 0 / 1 comparing two marks: by version when both have one, else by occurred_at;
 * undefined when they cannot be compared.
 */
export function compareOrdering(a: OrderingMark, b: OrderingMark): -1 | 0 | 1 | undefined {
  const va = toBig(a.version);
  const vb = toBig(b.version);
  if (va !== undefined && vb !== undefined) return va < vb ? -1 : va > vb ? 1 : 0;
  if (typeof a.occurred_at === 'string' && typeof b.occurred_at === 'string') {
    try {
      return compareCallbackTimes(a.occurred_at, b.occurred_at);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * True when `event` is strictly newer than `lastSeen` (an event or a stored mark) and may
 * overwrite state. Nothing seen yet → true. Equal versions or times → false. When the two cannot
 * be compared (no common version or time) → false, so older data never overwrites newer.
 */
export function isNewer(
  event: EventLike,
  lastSeen: EventLike | OrderingMark | null | undefined,
  fields: Record<string, string> = orderingVersionFields,
): boolean {
  if (lastSeen === null || lastSeen === undefined) return true;
  const seen = isEventLike(lastSeen) ? orderingMarkOf(lastSeen, fields) : lastSeen;
  return compareOrdering(orderingMarkOf(event, fields), seen) === 1;
}
