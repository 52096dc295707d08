// Copied by im-openapi from templates/runtime/callbacks/inbox/redis-inbox.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The fleet inbox on Redis Streams with a consumer group: XADD on append, XREADGROUP to hand an
 * event to one worker, XAUTOCLAIM to take over the events of a worker that died (idle longer than
 * the visibility timeout), XACK + XDEL when done. Each step that must be atomic is one Lua script:
 * dedupe + XADD (APPEND), the move of due retries + XAUTOCLAIM + XREADGROUP (TAKE), ownership
 * check + state changes + ordering guard + done record + XACK (SETTLE, one call for the events
 * finished together), and the retry/dead-letter move (FAIL); they are in redis-inbox-scripts.ts. Scripts never block; the wait for new events is a separate `XREADGROUP … BLOCK`,
 * sent on `blockingClient` only — it holds that connection for up to a second, so give the inbox a
 * connection of its own for it (without one the inbox polls every 50 ms).
 *
 * Keys, all under `prefix` (default `{im-inbox}:`; the hash tag keeps them in one Cluster slot):
 * `events` (stream), `pending` (set of the ids in the inbox), `done:<bucket>` (sets of the ids
 * processed, one per quarter of the retention, each expiring a retention after its quarter; see
 * redis-inbox-scripts.ts), `retry` (zset by due time), `dead` (hash id → dead letter), `mark:<entity>` (ordering guard), `s:<key>` (state of
 * `commit`), `stats` (hash). Every key a script touches is passed in KEYS, all under the one
 * hash-tagged prefix (one Cluster slot). Durability is Redis's: use `appendonly yes` (fsync everysec or always)
 * or replicas with WAIT for the "stored before 2xx" promise to survive a Redis crash, and
 * `maxmemory-policy noeviction` (an evicted id record lets a duplicate in; an evicted stream loses events).
 * The inbox checks both once, before its first append or take (`durability`, redis-durability.ts),
 * and can wait for each append to be persisted (`waitForPersistence`).
 */
import type { RedisClientLike, RedisConnection, RedisReply } from '../../stores/redis-client.js';
import { evalScript, redisConnection } from '../../stores/redis-client.js';
import { replyNumber, replyPairs, replyText, streamEntries } from '../../stores/redis-reply.js';
import { StoreError } from '../../core/errors.js';
import type { CallbackEvent } from '../types.js';
import { InboxBase } from './inbox-base.js';
import type { Claimed, TakeRequest } from './inbox-base.js';
import type { EncodedMark, GuardPlan } from './marks.js';
import type {
  InboxAppendResult,
  InboxCommitOutcome,
  InboxDeadLetter,
  InboxOptions,
  InboxStateChange,
  InboxStats,
} from './types.js';
import type { CallbackLogger } from '../types.js';
import { DurabilityGuard } from './redis-durability.js';
import { APPEND, doneBuckets, FAIL, REPLAY, SETTLE, settleCall, TAKE } from './redis-inbox-scripts.js';
import type { InboxDurability, InboxDurabilityReport, WaitForPersistence } from './redis-durability.js';

export interface RedisInboxOptions extends InboxOptions {
  /**
   * The application's Redis client as is: node-redis 4/5/6 or ioredis 5/6, single node or Cluster
   * (or a `RedisCommandClient`).
   */
  client: RedisClientLike;
  /**
   * A SEPARATE connection for the blocking `XREADGROUP … BLOCK` wait of `consume` (a blocked
   * connection answers nothing else): `client.duplicate()` (node-redis: connect it too). Optional:
   * without it, idle workers poll every 50 ms.
   */
  blockingClient?: RedisClientLike;
  /**
   * Key prefix. Default `{im-inbox}:`. Every key of the inbox starts with it; on a Redis Cluster it
   * must hold a hash tag (`{…}`) so that they all live on one slot (each script touches several).
   */
  prefix?: string;
  /** Consumer group name. Default `workers`. */
  group?: string;
  /**
   * Longest `XREADGROUP … BLOCK` wait of an idle worker, in ms (default 1 000): a stopping worker
   * may wait this long for it. Workers of one process sharing `blockingClient` wait in turn.
   */
  blockMs?: number;
  /**
   * What the inbox does when Redis would lose events it answered 2xx for (checked once, before the
   * first append or take: `appendonly`, `save`, `maxmemory-policy` by CONFIG GET, else INFO):
   * `'require-aof'` refuses every append (the handler answers 503 and the service keeps the events)
   * unless the append-only file is on and nothing is evicted; `'warn'` (default) logs one line;
   * `'off'` checks nothing. Where CONFIG (and INFO) are not allowed, it says so once.
   */
  durability?: InboxDurability;
  /** Each append waits until Redis confirms it persisted (`WAITAOF` / `WAIT`) before it resolves and the handler answers 2xx. */
  waitForPersistence?: WaitForPersistence;
  /** Where the durability check speaks (one line at most). Default: `console`, so that the warning is seen. */
  logger?: CallbackLogger;
}

const OUTCOMES = new Set<InboxCommitOutcome>(['applied', 'superseded', 'duplicate', 'lost']);

export class RedisInbox<E extends CallbackEvent = CallbackEvent> extends InboxBase<E> {
  readonly #client: RedisConnection;
  readonly #blocking: RedisConnection | undefined;
  readonly #prefix: string;
  readonly #group: string;
  readonly #stream: string;
  readonly #shas = new Map<string, Promise<string>>();
  readonly #blockMs: number;
  #lastAutoclaim = 0;
  /** Earliest due time of a retry the inbox knows of (its own fails, and the TAKE script's last look). */
  #nextRetryAt = Infinity;
  readonly #settles: {
    consumer: string;
    c: Claimed<E>;
    changes: readonly InboxStateChange[];
    guard: GuardPlan | undefined;
    resolve: (outcome: InboxCommitOutcome) => void;
    reject: (err: unknown) => void;
  }[] = [];
  #groupReady: Promise<void> | undefined;
  readonly #guard: DurabilityGuard;

  constructor(options: RedisInboxOptions) {
    super(options);
    this.#client = redisConnection(options.client, 'RedisInbox');
    this.#blocking =
      options.blockingClient === undefined
        ? undefined
        : redisConnection(options.blockingClient, 'RedisInbox', 'blockingClient');
    this.#prefix = options.prefix ?? '{im-inbox}:';
    this.#group = options.group ?? 'workers';
    if (!/^[\w.:{}-]{1,200}$/.test(this.#prefix))
      throw new TypeError('RedisInbox: prefix must be 1 to 200 characters of [A-Za-z0-9_.:{}-]');
    if (this.#client.cluster) refuseOnCluster(this.#prefix, options, this.#client.client);
    if (!/^[\w.:-]{1,200}$/.test(this.#group))
      throw new TypeError('RedisInbox: group must be 1 to 200 characters of [A-Za-z0-9_.:-]');
    this.#stream = this.#prefix + 'events';
    this.#guard = new DurabilityGuard(this.#send, options, this.now);
    this.#blockMs = options.blockMs ?? 1000;
    if (!(Number.isSafeInteger(this.#blockMs) && this.#blockMs >= 1 && this.#blockMs <= 60_000))
      throw new TypeError('RedisInbox: blockMs must be an integer from 1 to 60000');
  }

  /** The client's `command` as one function for `evalScript` (made once, not per call). */
  readonly #send = (args: string[]): Promise<RedisReply> => this.#client.command(args);

  #eval(script: string, keys: string[], args: string[]): Promise<unknown> {
    return evalScript(this.#send, this.#shas, script, keys, args);
  }

  /** The consumer group, created once (from the stream's start, so nothing appended earlier is missed). */
  #ensureGroup(): Promise<void> {
    this.#groupReady ??= this.#client.command(['XGROUP', 'CREATE', this.#stream, this.#group, '0', 'MKSTREAM']).then(
      () => undefined,
      (err: unknown) => {
        if (/BUSYGROUP/.test(String((err as Error)?.message ?? err))) return;
        this.#groupReady = undefined;
        throw err;
      },
    );
    return this.#groupReady;
  }

  /**
   * Redis's persistence and eviction settings as the inbox judged them (read once; the same
   * promise later). Runs by itself before the first append or take; call it at start-up to fail
   * fast or to show the result.
   */
  checkDurability(): Promise<InboxDurabilityReport> {
    return this.#guard.report();
  }

  async append(events: readonly E[]): Promise<InboxAppendResult> {
    if (events.length === 0) return { stored: 0, duplicates: 0 };
    const report = await this.#guard.beforeAppend();
    await this.#ensureGroup();
    const keys = [
      this.#stream,
      this.#prefix + 'pending',
      ...doneBuckets(this.#prefix, this.retentionMs, this.now()).live,
    ];
    const args: string[] = [];
    for (const event of events) args.push(event.id, JSON.stringify(event));
    const stored = replyNumber(await this.#eval(APPEND, keys, args));
    // on the same connection, right after the write: WAITAOF / WAIT cover it
    await this.#guard.afterAppend(report);
    return { stored, duplicates: events.length - stored };
  }

  protected async take(req: TakeRequest): Promise<Claimed<E>[]> {
    try {
      return await this.#take(req);
    } catch (err) {
      // the stream or group was deleted (FLUSHALL, a key eviction): create it again on the next take
      if (/NOGROUP/.test(String((err as Error)?.message ?? err))) this.#groupReady = undefined;
      throw err;
    }
  }

  /**
   * The TAKE script (due retries, events of dead workers, then new ones) runs every quarter of the
   * visibility timeout (1 s at most) and when a retry is due; between those, new events are read
   * by a plain XREADGROUP (blocking on `blockingClient` when there is one).
   */
  async #take(req: TakeRequest): Promise<Claimed<E>[]> {
    void this.#guard.report(); // the warning at a worker's start too (appends wait for it)
    await this.#ensureGroup();
    const now = this.now();
    const autoclaim = now - this.#lastAutoclaim >= Math.min(1000, this.visibilityMs / 4);
    if (autoclaim || now >= this.#nextRetryAt) {
      if (autoclaim) this.#lastAutoclaim = now;
      const reply = await this.#eval(
        TAKE,
        [this.#stream, this.#prefix + 'retry', this.#prefix + 'dead'],
        [
          this.#group,
          req.consumer,
          String(now),
          String(req.count),
          String(this.visibilityMs),
          String(req.maxAttempts),
          autoclaim ? '1' : '0',
        ],
      );
      const flat = Array.isArray(reply) ? reply : [];
      const next = replyText(flat[0]);
      this.#nextRetryAt = next ? Number(next) : Infinity;
      const out = this.#claimedOf(flat.slice(1));
      if (out.length > 0 || req.signal.aborted) return out;
    }
    const read = ['XREADGROUP', 'GROUP', this.#group, req.consumer, 'COUNT', String(req.count)];
    const stream = ['STREAMS', this.#stream, '>'];
    if (!this.#blocking) {
      const out = this.#entriesOf(await this.#client.command([...read, ...stream]));
      if (out.length === 0 && !req.signal.aborted) await new Promise((r) => setTimeout(r, Math.min(50, req.waitMs)));
      return out;
    }
    // a retry of this worker due during the wait cuts it short
    const waitMs = Math.max(1, Math.min(req.waitMs, this.#blockMs, this.#nextRetryAt - now));
    return this.#entriesOf(await this.#blocking.command([...read, 'BLOCK', String(Math.round(waitMs)), ...stream]));
  }

  #entriesOf(reply: RedisReply): Claimed<E>[] {
    const claimed: Claimed<E>[] = [];
    for (const entry of streamEntries(reply)) {
      const f = entry.fields;
      claimed.push({
        entryId: entry.id,
        eventId: f.id ?? '',
        event: JSON.parse(f.e ?? 'null') as E,
        attempt: Number(f.r ?? 0) + 1,
      });
    }
    return claimed;
  }

  #claimedOf(reply: unknown): Claimed<E>[] {
    const flat = Array.isArray(reply) ? reply : [];
    const out: Claimed<E>[] = [];
    for (let i = 0; i + 3 < flat.length; i += 4) {
      out.push({
        entryId: replyText(flat[i]) ?? '',
        eventId: replyText(flat[i + 1]) ?? '',
        event: JSON.parse(replyText(flat[i + 2]) ?? 'null') as E,
        attempt: replyNumber(flat[i + 3]),
      });
    }
    return out;
  }

  /**
   * Settles are queued and sent together: every settle requested in the same turn of the event
   * loop (the events a batch of handlers finished) goes in one SETTLE call, up to 100 — one script
   * run instead of one per event. Each event still gets its own outcome.
   */
  protected settle(
    consumer: string,
    c: Claimed<E>,
    changes: readonly InboxStateChange[],
    guard: GuardPlan | undefined,
  ): Promise<InboxCommitOutcome> {
    return new Promise<InboxCommitOutcome>((resolve, reject) => {
      this.#settles.push({ consumer, c, changes, guard, resolve, reject });
      if (this.#settles.length === 1) queueMicrotask(() => this.#flushSettles());
    });
  }

  #flushSettles(): void {
    while (this.#settles.length > 0) {
      const batch = this.#settles.splice(0, 100);
      const items = batch.map(({ consumer, c, changes, guard }) => ({
        consumer,
        entryId: c.entryId,
        eventId: c.eventId,
        changes,
        guard,
      }));
      const { keys, args } = settleCall(this.#prefix, this.#group, this.retentionMs, this.now(), items);
      this.#eval(SETTLE, keys, args).then(
        (reply) => {
          const outcomes = Array.isArray(reply) ? reply.map(replyText) : [];
          batch.forEach((item, i) => {
            const outcome = outcomes[i];
            if (outcome?.startsWith('E:')) item.reject(new StoreError('inbox commit', `refused: ${outcome.slice(2)}`));
            else if (outcome && OUTCOMES.has(outcome as InboxCommitOutcome))
              item.resolve(outcome as InboxCommitOutcome);
            else item.reject(new StoreError('RedisInbox SETTLE', `answered ${String(outcome)}, not an outcome`));
          });
        },
        (err: unknown) => batch.forEach((item) => item.reject(err)),
      );
    }
  }

  protected async fail(consumer: string, c: Claimed<E>, error: string, dueAt: number | undefined): Promise<void> {
    if (dueAt !== undefined) this.#nextRetryAt = Math.min(this.#nextRetryAt, dueAt);
    await this.#eval(
      FAIL,
      [this.#stream, this.#prefix + 'retry', this.#prefix + 'dead'],
      [
        this.#group,
        c.entryId,
        consumer,
        c.eventId,
        JSON.stringify(c.event),
        String(c.attempt),
        error.slice(0, 2000),
        dueAt === undefined ? '' : String(dueAt),
        String(this.now()),
      ],
    );
  }

  protected async peekMark(entity: string): Promise<EncodedMark | null> {
    const reply = await this.#client.command(['HMGET', this.#prefix + 'mark:' + entity, 'v', 't']);
    const [v, t] = Array.isArray(reply) ? reply.map(replyText) : [null, null];
    return v === null && t === null ? null : { v: v ?? '', t: t ?? '' };
  }

  async getState(key: string): Promise<string | null> {
    return replyText(await this.#client.command(['GET', this.#prefix + 's:' + key]));
  }

  async stats(): Promise<InboxStats> {
    const [len, retrying, dead, counters] = await Promise.all([
      this.#client.command(['XLEN', this.#stream]),
      this.#client.command(['ZCARD', this.#prefix + 'retry']),
      this.#client.command(['HLEN', this.#prefix + 'dead']),
      this.#client.command(['HMGET', this.#prefix + 'stats', 'processed', 'superseded']),
    ]);
    const [processed, superseded] = Array.isArray(counters) ? counters.map((x) => replyNumber(x)) : [0, 0];
    return {
      pending: replyNumber(len) + replyNumber(retrying),
      retrying: replyNumber(retrying),
      deadLetters: replyNumber(dead),
      processed: processed ?? 0,
      superseded: superseded ?? 0,
    };
  }

  async deadLetters(limit = 100): Promise<InboxDeadLetter<E>[]> {
    const out: InboxDeadLetter<E>[] = [];
    for (const [eventId, value] of replyPairs(await this.#client.command(['HGETALL', this.#prefix + 'dead']))) {
      if (out.length >= limit) break;
      const d = JSON.parse(replyText(value) ?? '{}') as { e: string; a: number; err: string; at: number };
      out.push({ eventId, event: JSON.parse(d.e) as E, attempts: d.a, lastError: d.err, failedAt: d.at });
    }
    return out;
  }

  async replay(eventId?: string): Promise<number> {
    await this.#ensureGroup();
    return replyNumber(
      await this.#eval(REPLAY, [this.#stream, this.#prefix + 'dead'], eventId === undefined ? [] : [eventId]),
    );
  }
}

/**
 * What a Redis Cluster cannot do for the inbox: keys of one script on several slots (a prefix
 * without a hash tag), and a persistence wait (WAIT / WAITAOF must follow the append on its own
 * connection; a cluster client sends them to any node).
 */
function refuseOnCluster(prefix: string, options: RedisInboxOptions, client: string): void {
  const tag = /\{([^}]*)\}/.exec(prefix);
  if (!tag || tag[1] === '')
    throw new TypeError(
      `RedisInbox: on a Redis Cluster (${client}) the prefix must hold a hash tag such as {im-inbox}, so that every key of the inbox lives on one slot; got ${JSON.stringify(prefix)}`,
    );
  if (options.waitForPersistence)
    throw new TypeError(
      `RedisInbox: waitForPersistence needs a single-node connection (WAIT / WAITAOF follow the append on its own connection); a Redis Cluster client (${client}) sends them to any node`,
    );
}
