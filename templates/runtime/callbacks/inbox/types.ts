/**
 * The durable callback inbox (issue 19 part 1; seed 001 §4.2 "store the event, answer 2xx at once
 * and process asynchronously"): the handler appends each verified event before its 2xx, workers
 * in any number of processes consume it. Two engines share these shapes and one behaviour suite:
 * `MemoryInbox` (one process, tests) and `RedisInbox` (Redis Streams + consumer groups).
 */
import type { CallbackEvent } from '../types.js';

/** What `append` did with a batch. */
export interface InboxAppendResult {
  /** Events added to the inbox. */
  stored: number;
  /** Events whose id was already in the inbox within the retention (not added again). */
  duplicates: number;
}

/**
 * One change to the inbox's state store, applied by `context.commit` atomically with the ack:
 * either all of an event's changes and its ack happen, once, or none.
 */
export type InboxStateChange = (
  | { op: 'set'; key: string; value: string }
  | { op: 'incr'; key: string; by?: number }
  | { op: 'del'; key: string }
) & {
  /**
   * Apply even when the ordering guard finds the event superseded (an audit count, a log); by
   * default a superseded event's changes are all skipped so that older state never lands.
   */
  always?: boolean;
};

/**
 * What `commit` did: `applied` (changes written, event acknowledged), `superseded` (the ordering
 * guard found newer state for the entity: only the `always` changes written, event acknowledged), `duplicate`
 * (the event id was already processed: nothing written), `lost` (this worker no longer holds the
 * event — it ran past the visibility timeout and another worker claimed it: nothing written; the
 * other worker's run decides).
 */
export type InboxCommitOutcome = 'applied' | 'superseded' | 'duplicate' | 'lost';

/** The REST call that fetches what a truncated event dropped (seed 001 §2.6). */
export interface InboxRefetch {
  /** operationId in spec/openapi.yaml, e.g. `groups.members` (client method `groups.members`). */
  operationId: string;
  /** Its parameters taken from the event's data, e.g. `{ group_id: "g1" }`. */
  params: Record<string, string>;
}

export interface InboxOrderingInfo {
  /** Entity the guard keys on, e.g. `group.members_added:g1`. */
  entity: string;
  /** True when newer state for the entity was already committed (only seen with `deliverSuperseded`). */
  superseded: boolean;
}

export interface InboxContext {
  /** The event id (the deduplication key). */
  eventId: string;
  /** 1 on the first hand-off; counts failed runs and runs cut by a worker's death. */
  attempt: number;
  /** Aborted when the worker stops or the run passes `handlerTimeoutMs`; finish or throw (a throw is retried later). */
  signal: AbortSignal;
  /**
   * Set when the event arrived with `truncated: true`: list-like and content fields were dropped,
   * fetch them with `refetch` (undefined when the spec names no REST call for the type).
   */
  truncated?: { refetch?: InboxRefetch };
  /** Set when the ordering guard applies to this event. */
  ordering?: InboxOrderingInfo;
  /**
   * Writes `changes` to the inbox's state store and acknowledges the event in ONE atomic step,
   * guarded by the ordering guard when it applies. This is the exactly-once path: a worker that
   * dies before it leaves nothing written and the event is handed out again; after it, the event is
   * done. Call it at most once, last. A change that cannot apply (`incr` of a key that holds no
   * integer) rejects it with nothing written and the event still held (a throw then retries). Without a call, the event is acknowledged when the handler
   * returns (side effects elsewhere must then be idempotent by `eventId`).
   */
  commit(changes?: readonly InboxStateChange[]): Promise<InboxCommitOutcome>;
  /** Reads a key of the state store (what `commit` wrote). */
  getState(key: string): Promise<string | null>;
}

export type InboxHandler<E extends CallbackEvent = CallbackEvent> = (event: E, context: InboxContext) => unknown;

export interface InboxBackoff {
  /** First retry delay. Default 1 000 ms. */
  baseMs?: number;
  /** Ceiling of a retry delay. Default 5 min. */
  maxMs?: number;
}

export interface ConsumeOptions {
  /** Events run at once by this worker. Default 1. */
  concurrency?: number;
  /** Abort to stop: no new event is taken, in-flight ones finish (within `stopTimeoutMs`), then `consume` resolves. */
  signal?: AbortSignal;
  /**
   * Runs of one event (including runs cut by a worker's death) before it goes to the dead letters.
   * Default 5. A setting of this `consume` call, not of the inbox: give every worker the same.
   */
  maxAttempts?: number;
  /** Waits between a failed run and the next (exponential, ±20 %); like `maxAttempts`, a setting of this `consume` call. */
  backoff?: InboxBackoff;
  /** Worker name, unique per live worker. Default a random one. */
  consumer?: string;
  /**
   * Longest run of the handler for one event, in ms: past it the run counts as a failed attempt
   * (retried with backoff, dead-lettered after maxAttempts), its slot is freed and `context.signal`
   * aborts; a commit it sends later answers `'lost'`. Must be below the inbox's
   * `visibilityTimeoutMs`. Default 80 % of it (24 s of the default 30 s).
   */
  handlerTimeoutMs?: number;
  /**
   * After `signal` aborts: how long in-flight runs may finish (their signal is aborted) before they
   * are cut (counted as a failed run, the event handed to another worker at once) and reported
   * (`onError` with `stuck: true`, an `InboxHandlerTimeoutError` of phase 'stop'). `consume` resolves at most this + 1 s after
   * the abort, whatever the handlers or the store do. Default 10 000 ms.
   */
  stopTimeoutMs?: number;
  /**
   * Where handler failures are reported (the error text, never the event data): a throwing
   * handler, a run past `handlerTimeoutMs`, a store failure. Without it nothing is reported —
   * failed events are retried and dead-lettered silently — so pass one, e.g.
   * `onError: (err, info) => console.error('inbox', info.eventId, err)`.
   */
  onError?: (error: unknown, info: ConsumeErrorInfo) => void;
  /**
   * Called for each event the ordering guard skipped (older than the committed state of its
   * entity, so not handed to the handler, and acknowledged): handled, not processed. A test
   * harness reports these ids to `im-callbacks simulate` as `superseded`.
   */
  onSuperseded?: (event: CallbackEvent, info: { eventId: string; entity: string }) => void;
}

export interface ConsumeErrorInfo {
  eventId: string;
  attempt: number;
  /** The event went to the dead letters. */
  dead: boolean;
  /** The run passed `handlerTimeoutMs` (the error is an `InboxHandlerTimeoutError`). */
  timedOut?: boolean;
  /** The run was still going when the stop's `stopTimeoutMs` ran out. */
  stuck?: boolean;
}

export interface InboxDeadLetter<E extends CallbackEvent = CallbackEvent> {
  eventId: string;
  event: E;
  attempts: number;
  /** `Name: message` of the last failure. */
  lastError: string;
  /** Epoch ms. */
  failedAt: number;
}

/** What a test or a dashboard needs to judge an inbox. */
export interface InboxStats {
  /** Appended and not yet done: waiting, in flight or scheduled for a retry. */
  pending: number;
  /** Of `pending`, waiting for a retry after a failure. */
  retrying: number;
  deadLetters: number;
  /** Events done by a worker (commit or return), including superseded ones. */
  processed: number;
  /** Of `processed`, the ordering guard found newer state. */
  superseded: number;
}

export interface InboxOrderingOptions {
  /** Event type → data field holding its version. Default the spec's `x-ordering-version` table. */
  fields?: Readonly<Record<string, string>>;
  /**
   * Entity of an event (the guard keeps the latest mark per entity); undefined = no guard for it.
   * Default: `group.members_added` by `data.group_id`; the seed shows no key field for the other
   * ordered types, so give one for them (e.g. the user pair of `friend.added`).
   */
  entityOf?: (event: CallbackEvent) => string | undefined;
  /** Hand superseded events to the handler (with `context.ordering.superseded`) instead of skipping them. */
  deliverSuperseded?: boolean;
}

export interface InboxOptions {
  /** How long event ids are remembered for deduplication, and processed markers. Default 7 days (seed 001 §6 rule 1). */
  retentionMs?: number;
  /**
   * Opt-in "latest wins" guard (seed 001 §6 rule 2): per entity, an event older than committed
   * state (by its version field, occurred_at as tie-break/fallback) never writes over it.
   */
  ordering?: boolean | InboxOrderingOptions;
  /**
   * How long an event stays with a worker before another may claim it (the worker is presumed
   * dead). Longer than your slowest handler run. Default 30 s.
   */
  visibilityTimeoutMs?: number;
  /** Event type → REST call for truncated events; default from the spec (`x-truncated-refetch`). */
  refetch?: Readonly<Record<string, { operationId: string; params: Readonly<Record<string, string>> }>>;
  /** Clock in ms (tests). */
  now?: () => number;
}

/** The inbox as the handler and the workers see it. */
export interface CallbackInbox<E extends CallbackEvent = CallbackEvent> {
  /** Stores the events durably, deduplicated by id; resolves only once they are stored. */
  append(events: readonly E[]): Promise<InboxAppendResult>;
  /** Runs workers until `options.signal` aborts; resolves after the in-flight events finished or were cut (`stopTimeoutMs`). */
  consume(handler: InboxHandler<E>, options?: ConsumeOptions): Promise<void>;
  stats(): Promise<InboxStats>;
  deadLetters(limit?: number): Promise<InboxDeadLetter<E>[]>;
  /** Puts one dead letter (by event id) or all of them back into the inbox; resolves how many. */
  replay(eventId?: string): Promise<number>;
  getState(key: string): Promise<string | null>;
}
