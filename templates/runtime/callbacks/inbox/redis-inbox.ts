/**
 * The fleet inbox on Redis Streams with a consumer group: XADD on append, XREADGROUP to hand an
 * event to one worker, XAUTOCLAIM to take over the events of a worker that died (idle longer than
 * the visibility timeout), XACK + XDEL when done (ACK trims instead, up to the oldest event in flight). Each step that must be atomic is one Lua script
 * (redis-inbox-scripts.ts): dedupe + XADD (APPEND); the move of due retries + XAUTOCLAIM +
 * XREADGROUP (TAKE); ownership check + done record + XACK for the events finished together (ACK
 * for those without state changes or guard, SETTLE for the others: state changes and the ordering
 * guard too; queued in redis-settle.ts); the retry/dead-letter move (FAIL). Scripts never block;
 * the wait for new events is a separate `XREADGROUP … BLOCK`, sent on `blockingClient` only — it
 * holds that connection for up to a second, so give the inbox a connection of its own for it
 * (without one the inbox polls every 50 ms).
 *
 * Keys, all under `prefix` (default `{im-inbox}:`; the hash tag keeps them in one Cluster slot):
 * `events` (stream), `pending` (set of the ids in the inbox), `done:<bucket>` (sets of the ids
 * processed, one per quarter of the retention, each expiring a retention after its quarter; ids
 * over 13 characters by a 14-character digest: redis-id-records.ts), `retry` (zset by due time),
 * `dead` (hash id → dead letter), `mark:<entity>` (ordering guard), `s:<key>` (state of `commit`),
 * `stats` (hash). Every key a script touches is passed in KEYS. Durability is Redis's: use
 * `appendonly yes` (fsync everysec or always) or replicas with WAIT for the "stored before 2xx"
 * promise to survive a Redis crash, and `maxmemory-policy noeviction` (an evicted id record lets a
 * duplicate in; an evicted stream loses events). The inbox checks both once, before its first
 * append or take (`durability`, redis-durability.ts), and can wait for each append to be persisted
 * (`waitForPersistence`).
 */
import type { RedisConnection, RedisReply } from '../../stores/redis-client.js';
import { evalScript } from '../../stores/redis-client.js';
import { replyNumber, replyPairs, replyText, streamEntries } from '../../stores/redis-reply.js';
import type { CallbackEvent } from '../types.js';
import { InboxBase } from './inbox-base.js';
import type { Claimed, TakeRequest } from './inbox-base.js';
import type { EncodedMark, GuardPlan } from './marks.js';
import type { InboxAppendResult, InboxCommitOutcome, InboxDeadLetter, InboxStateChange, InboxStats } from './types.js';
import { DurabilityGuard } from './redis-durability.js';
import { doneBuckets, idRecord } from './redis-id-records.js';
import { APPEND, FAIL, REPLAY, TAKE } from './redis-inbox-scripts.js';
import { SettleQueue } from './redis-settle.js';
import type { RedisInboxOptions } from './redis-inbox-options.js';
import { redisInboxConnections } from './redis-inbox-options.js';

export type { RedisInboxOptions } from './redis-inbox-options.js';
import type { InboxDurabilityReport } from './redis-durability.js';

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
  readonly #settles: SettleQueue;
  #groupReady: Promise<void> | undefined;
  readonly #guard: DurabilityGuard;

  constructor(options: RedisInboxOptions) {
    super(options);
    const checked = redisInboxConnections(options);
    this.#client = checked.client;
    this.#blocking = checked.blocking;
    this.#prefix = checked.prefix;
    this.#group = checked.group;
    this.#stream = this.#prefix + 'events';
    this.#guard = new DurabilityGuard(this.#send, options, this.now);
    this.#settles = new SettleQueue(
      (script, keys, args) => this.#eval(script, keys, args),
      this.#prefix,
      this.#group,
      this.retentionMs,
      this.now,
    );
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
    for (const event of events) args.push(idRecord(event.id), event.id, JSON.stringify(event));
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

  /** Queued: the settles of one turn of the event loop go out in one script call (redis-settle.ts). */
  protected settle(
    consumer: string,
    c: Claimed<E>,
    changes: readonly InboxStateChange[],
    guard: GuardPlan | undefined,
  ): Promise<InboxCommitOutcome> {
    return this.#settles.settle({ consumer, entryId: c.entryId, eventId: c.eventId, changes, guard });
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
