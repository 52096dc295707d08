// Copied by im-openapi from templates/runtime/callbacks/simulator/plan.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The plan of a simulation, fixed by the seed before anything is sent: which events exist, their
 * entities and versions, the queue order (not the time order, seed 001 §4.2 / §6 rule 2), the
 * batches, which best-effort events are lost, which are truncated, which arrive twice, and the
 * hooks. Same seed and options → the same plan (the jitter of every send is a function of the
 * seed too: rules.ts `jitterFactor`).
 */
import { BEST_EFFORT_TYPES, MAX_BATCH_BYTES, seededRandom } from './rules.js';

export interface PlanOptions {
  seed: number;
  events: number;
  eventsPerBatch: number;
  /** Share of events delivered a second time after success (at-least-once). ASSUMED default 0.1. */
  duplicateRate: number;
  /** Share of best-effort events lost before queueing (§6 rule 4). ASSUMED default 0.1. */
  bestEffortLossRate: number;
  /** Share of group events sent truncated (§2.6: data over 70 KB). ASSUMED default 0.05. */
  truncatedRate: number;
  hooks: number;
  hookTimeoutMs: number;
}

export interface PlannedEvent {
  id: string;
  type: string;
  /** The simulator's name of the state the event changes (e.g. group:g2); none for types without a version. */
  entity?: string;
  version?: number;
  /** Position in creation (time) order. */
  created: number;
  /** Simulated ms from the start at which the event enters the delivery queue. */
  queuedAtMs: number;
  /** Best effort and lost in the buffer: never sent (§6 rule 4). */
  lost: boolean;
  truncated: boolean;
  /** Sent once more this long (simulated) after its first 2xx: an at-least-once duplicate. */
  duplicateAfterMs?: number;
  data: Record<string, unknown>;
}

export interface PlannedHook {
  id: string;
  hook: string;
  atMs: number;
  timeoutMs: number;
  data: Record<string, unknown>;
}

export interface DeliveryPlan {
  seed: number;
  /** In creation order. */
  events: PlannedEvent[];
  /** Event ids in queue order (what the service sends first). */
  queueOrder: string[];
  /** The first-send batches in queue order; the second send repeats the batch, later sends go one by one. */
  batches: string[][];
  hooks: PlannedHook[];
}

const TYPES = [
  'group.members_added',
  'friend.added',
  'presence.changed',
  'chatroom.message_sent',
  'user.session_created',
] as const;
/** Simulated ms between two events entering the queue (ASSUMED: a busy application, 50 events a second). */
const QUEUE_SPACING_MS = 20;
const USERS = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank'];

/** The seeded random source of a plan: every draw happens in a fixed order, so a seed fixes the plan. */
interface Draw {
  rnd: () => number;
  pick: <T>(xs: readonly T[]) => T;
}

export function buildPlan(o: PlanOptions): DeliveryPlan {
  const rnd = seededRandom(o.seed);
  const draw: Draw = { rnd, pick: (xs) => xs[Math.floor(rnd() * xs.length)]! };
  const tag = (o.seed >>> 0).toString(36);
  // Few entities, so that each gets several versions and the queue order can put an older one last.
  const entityCount = Math.max(2, Math.ceil(o.events / 8));
  const versions = new Map<string, number>();
  const events: PlannedEvent[] = [];
  for (let n = 0; n < o.events; n++) events.push(plannedEvent(o, draw, tag, n, entityCount, versions));
  const queued = queueOrderOf(events, rnd);
  const byId = new Map(events.map((e) => [e.id, e]));
  queued.forEach((id, i) => (byId.get(id)!.queuedAtMs = i * QUEUE_SPACING_MS));
  const batches = batchesOf(queued, byId, o.eventsPerBatch);
  const span = Math.max(1000, queued.length * QUEUE_SPACING_MS);
  return { seed: o.seed, events, queueOrder: queued, batches, hooks: plannedHooks(o, draw, tag, span) };
}

/** Event `n` (creation order): its type, entity and version (counted in `versions`), fate and data. */
function plannedEvent(
  o: PlanOptions,
  draw: Draw,
  tag: string,
  n: number,
  entityCount: number,
  versions: Map<string, number>,
): PlannedEvent {
  const type = draw.pick(TYPES);
  const id = `evt_sim_${tag}_${n + 1}`;
  const k = Math.floor(draw.rnd() * entityCount) + 1;
  const { entity, data, truncated } = eventData(o, draw, type, n, k);
  let version: number | undefined;
  if (entity !== undefined) {
    version = (versions.get(entity) ?? 0) + 1;
    versions.set(entity, version);
    data[type === 'group.members_added' ? 'member_version' : 'version'] = version;
  }
  const lost = BEST_EFFORT_TYPES.has(type) && draw.rnd() < o.bestEffortLossRate;
  const duplicate = draw.rnd() < o.duplicateRate;
  return {
    id,
    type,
    ...(entity !== undefined && version !== undefined ? { entity, version } : {}),
    created: n,
    queuedAtMs: 0,
    lost,
    truncated,
    // ASSUMED: a duplicate comes 5 s to 2 min after the first success (the seed gives no figure).
    ...(duplicate && !lost ? { duplicateAfterMs: Math.round(5000 + draw.rnd() * 115_000) } : {}),
    data,
  };
}

/** The data of an event of `type` about entity number `k`, and the simulator's name of that entity. */
function eventData(
  o: PlanOptions,
  { rnd, pick }: Draw,
  type: (typeof TYPES)[number],
  n: number,
  k: number,
): { entity?: string; data: Record<string, unknown>; truncated: boolean } {
  const user = USERS[k % USERS.length];
  if (type === 'group.members_added') {
    const truncated = rnd() < o.truncatedRate;
    const member = { username: pick(USERS), role: 'member', joined_via: 'invite', inviter: 'alice', joined_at: '' };
    const data: Record<string, unknown> = {
      origin: 'server',
      group_id: String(100000 + k),
      member_version: 0,
      member_count: k + 2,
      operator: 'alice',
    };
    // §2.6 / the spec's EventDataCommon: members dropped, ids and versions kept, data.truncated = true.
    if (truncated) data.truncated = true;
    else data.members = [member];
    return { entity: `group:${100000 + k}`, data, truncated };
  }
  if (type === 'friend.added') {
    const friend = USERS[(k + 1) % USERS.length];
    return {
      entity: `friend:${user}:${friend}#${k}`,
      data: { origin: 'client', username: user, friend: `${friend}${k}`, version: 0 },
      truncated: false,
    };
  }
  if (type === 'presence.changed')
    return {
      entity: `presence:${user}${k}`,
      data: { origin: null, username: `${user}${k}`, status: rnd() < 0.5 ? 'online' : 'offline', version: 0 },
      truncated: false,
    };
  if (type === 'chatroom.message_sent')
    return {
      data: {
        origin: 'client',
        chatroom_id: String(200000 + k),
        message_id: `m${n + 1}`,
        from: pick(USERS),
        body: { type: 'txt', text: `hello ${n + 1}` },
      },
      truncated: false,
    };
  return { data: { origin: 'client', username: pick(USERS), device: `dev${k}` }, truncated: false };
}

/** Queue order: creation order shuffled (Fisher-Yates), so versions arrive out of order; lost events never queue. */
function queueOrderOf(events: readonly PlannedEvent[], rnd: () => number): string[] {
  const queued = events.filter((e) => !e.lost).map((e) => e.id);
  for (let i = queued.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [queued[i], queued[j]] = [queued[j]!, queued[i]!];
  }
  return queued;
}

/** The hooks, at random times within the span of the queue. */
function plannedHooks(o: PlanOptions, { rnd, pick }: Draw, tag: string, span: number): PlannedHook[] {
  return Array.from({ length: o.hooks }, (_, i) => ({
    id: `hook_sim_${tag}_${i + 1}`,
    hook: 'message.before_send',
    atMs: Math.round(rnd() * span),
    timeoutMs: o.hookTimeoutMs,
    data: {
      origin: 'client',
      from: pick(USERS),
      to: pick(USERS),
      chat_type: 'single',
      body: { type: 'txt', text: `hook ${i + 1}` },
    },
  }));
}

/** The queue cut into batches in order: at most `eventsPerBatch` events and MAX_BATCH_BYTES (less 1 KB for the envelope) each. */
function batchesOf(
  queued: readonly string[],
  byId: ReadonlyMap<string, PlannedEvent>,
  eventsPerBatch: number,
): string[][] {
  const batches: string[][] = [];
  let current: string[] = [];
  let bytes = 0;
  for (const id of queued) {
    const size = JSON.stringify(byId.get(id)!.data).length + 200;
    if (current.length >= eventsPerBatch || (current.length > 0 && bytes + size > MAX_BATCH_BYTES - 1024)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(id);
    bytes += size;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}
