/**
 * The fleet inbox on Redis Streams with a consumer group: XADD on append, XREADGROUP to hand an
 * event to one worker, XAUTOCLAIM to take over the events of a worker that died (idle longer than
 * the visibility timeout), XACK + XDEL when done. Each step that must be atomic is one Lua script:
 * dedupe + XADD (APPEND), the move of due retries + XAUTOCLAIM + XREADGROUP (TAKE), ownership
 * check + state changes + ordering guard + processed marker + XACK (SETTLE), and the retry/dead-letter
 * move (FAIL). Scripts never block; the wait for new events is a separate `XREADGROUP … BLOCK`,
 * sent on `blockingClient` only — it holds that connection for up to a second, so give the inbox a
 * connection of its own for it (without one the inbox polls every 50 ms).
 *
 * Keys, all under `prefix` (default `{im-inbox}:`; the hash tag keeps them in one Cluster slot):
 * `events` (stream), `seen:<id>` (dedupe, then processed marker; PX retention), `retry` (zset by
 * due time), `dead` (hash id → dead letter), `mark:<entity>` (ordering guard), `s:<key>` (state of
 * `commit`), `stats` (hash). Every key a script touches is passed in KEYS, all under the one
 * hash-tagged prefix (one Cluster slot). Durability is Redis's: use `appendonly yes` (fsync everysec or always)
 * or replicas with WAIT for the "stored before 2xx" promise to survive a Redis crash, and
 * `maxmemory-policy noeviction` (an evicted dedupe key lets a duplicate in; an evicted stream loses events).
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
import type { InboxAppendResult, InboxCommitOutcome, InboxDeadLetter, InboxOptions, InboxStateChange, InboxStats } from './types.js';
import type { CallbackLogger } from '../types.js';
import { DurabilityGuard } from './redis-durability.js';
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

// KEYS: stream, seen:<id> per event. ARGV: retentionMs, then id, eventJson per event.
const APPEND = `
local n = 0
for i = 2, #KEYS do
  local a = (i - 2) * 2 + 2
  if redis.call('SET', KEYS[i], 'q', 'NX', 'PX', ARGV[1]) then
    redis.call('XADD', KEYS[1], '*', 'id', ARGV[a], 'e', ARGV[a + 1], 'r', '0')
    n = n + 1
  end
end
return n`;

// KEYS: stream, retry, dead. ARGV: group, consumer, now, count, visibilityMs, maxAttempts, autoclaim ('1' = look for
// events of dead workers; done every quarter of the visibility timeout, not on every take).
// Returns a flat list: entryId, eventId, eventJson, attempt, … (attempt counts this run).
const TAKE = `
local out = {}
local count = tonumber(ARGV[4])
local due = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[3], 'LIMIT', 0, 100)
for _, m in ipairs(due) do
  local r = cjson.decode(m)
  redis.call('XADD', KEYS[1], '*', 'id', r.id, 'e', r.e, 'r', tostring(r.r), 'x', r.err)
  redis.call('ZREM', KEYS[2], m)
end
local function field(f, name)
  for i = 1, #f, 2 do if f[i] == name then return f[i + 1] end end
  return nil
end
local claimed = {nil, {}}
if ARGV[7] == '1' then claimed = redis.call('XAUTOCLAIM', KEYS[1], ARGV[1], ARGV[2], ARGV[5], '0-0', 'COUNT', count) end
for _, e in ipairs(claimed[2]) do
  local id, f = e[1], e[2]
  local p = redis.call('XPENDING', KEYS[1], ARGV[1], id, id, 1)
  local runs = tonumber(field(f, 'r')) + p[1][4]
  if runs > tonumber(ARGV[6]) then
    local err = field(f, 'x') or 'worker stopped before settling the event (visibility timeout)'
    redis.call('HSET', KEYS[3], field(f, 'id'), cjson.encode({e = field(f, 'e'), a = runs - 1, err = err, at = tonumber(ARGV[3])}))
    redis.call('XACK', KEYS[1], ARGV[1], id)
    redis.call('XDEL', KEYS[1], id)
  else
    table.insert(out, id); table.insert(out, field(f, 'id')); table.insert(out, field(f, 'e')); table.insert(out, runs)
    count = count - 1
  end
end
if count > 0 then
  local r = redis.call('XREADGROUP', 'GROUP', ARGV[1], ARGV[2], 'COUNT', count, 'STREAMS', KEYS[1], '>')
  if r then
    for _, e in ipairs(r[1][2]) do
      local f = e[2]
      table.insert(out, e[1]); table.insert(out, field(f, 'id')); table.insert(out, field(f, 'e')); table.insert(out, tonumber(field(f, 'r')) + 1)
    end
  end
end
return out`;

// Settles a batch of events (those whose handlers finished together), each on its own terms.
// KEYS: stream, stats, then per event: seen:<id>, mark:<entity> (or the stream when unguarded), s:<key> per change.
// ARGV: group, retentionMs, count, then per event: entryId, consumer, guard, v, t, n, then op ('!op' = always), value per change.
// Returns one outcome per event, or 'E:<message>' for an event whose changes cannot apply.
const SETTLE = `
local processed, superseded = 0, 0
local function settle(entry, consumer, seen, guard, mark, v, t, stateKeys, ops)
  local p = redis.call('XPENDING', KEYS[1], ARGV[1], entry, entry, 1)
  if #p == 0 or p[1][2] ~= consumer then return 'lost' end
  -- a script that fails half-way keeps its earlier writes: check every change BEFORE writing anything
  for i, key in ipairs(stateKeys) do
    if string.gsub(ops[i * 2 - 1], '^!', '') == 'incr' then
      local ty = redis.call('TYPE', key).ok
      if ty ~= 'none' and (ty ~= 'string' or not string.match(redis.call('GET', key), '^%-?%d+$')) then
        return 'E:incr of state key ' .. key .. ', which does not hold an integer; nothing was written'
      end
    end
  end
  redis.call('XACK', KEYS[1], ARGV[1], entry)
  redis.call('XDEL', KEYS[1], entry)
  -- the processed marker, read and written in one call (a duplicate only refreshes its expiry)
  if redis.call('SET', seen, 'd', 'PX', ARGV[2], 'GET') == 'd' then return 'duplicate' end
  processed = processed + 1
  local newer = true
  if guard == '1' then
    if redis.call('EXISTS', mark) == 1 then
      local sv = redis.call('HGET', mark, 'v') or ''
      local st = redis.call('HGET', mark, 't') or ''
      local c = 0
      if v ~= '' and sv ~= '' then c = (v < sv and -1) or (v > sv and 1) or 0 end
      if c == 0 and t ~= '' and st ~= '' then c = (t < st and -1) or (t > st and 1) or 0 end
      newer = c == 1
    end
    if newer then
      redis.call('HSET', mark, 'v', v, 't', t)
      redis.call('PEXPIRE', mark, ARGV[2])
    else
      superseded = superseded + 1
    end
  end
  for i, key in ipairs(stateKeys) do
    local op, value = ops[i * 2 - 1], ops[i * 2]
    local always = string.sub(op, 1, 1) == '!'
    if always then op = string.sub(op, 2) end
    if newer or always then
      if op == 'set' then redis.call('SET', key, value)
      elseif op == 'del' then redis.call('DEL', key)
      else redis.call('INCRBY', key, value) end
    end
  end
  if newer then return 'applied' end
  return 'superseded'
end
local out = {}
local k, a = 3, 4
for r = 1, tonumber(ARGV[3]) do
  local n = tonumber(ARGV[a + 5])
  local stateKeys, ops = {}, {}
  for i = 1, n do
    stateKeys[i] = KEYS[k + 1 + i]
    ops[i * 2 - 1] = ARGV[a + 4 + i * 2]
    ops[i * 2] = ARGV[a + 5 + i * 2]
  end
  out[r] = settle(ARGV[a], ARGV[a + 1], KEYS[k], ARGV[a + 2], KEYS[k + 1], ARGV[a + 3], ARGV[a + 4], stateKeys, ops)
  k = k + 2 + n
  a = a + 6 + 2 * n
end
if processed > 0 then redis.call('HINCRBY', KEYS[2], 'processed', processed) end
if superseded > 0 then redis.call('HINCRBY', KEYS[2], 'superseded', superseded) end
return out`;

// KEYS: stream, retry, dead. ARGV: group, entryId, consumer, eventId, eventJson, runs, error, dueAt ('' = dead), now.
const FAIL = `
local p = redis.call('XPENDING', KEYS[1], ARGV[1], ARGV[2], ARGV[2], 1)
if #p == 0 or p[1][2] ~= ARGV[3] then return 0 end
redis.call('XACK', KEYS[1], ARGV[1], ARGV[2])
redis.call('XDEL', KEYS[1], ARGV[2])
if ARGV[8] == '' then
  redis.call('HSET', KEYS[3], ARGV[4], cjson.encode({e = ARGV[5], a = tonumber(ARGV[6]), err = ARGV[7], at = tonumber(ARGV[9])}))
else
  redis.call('ZADD', KEYS[2], ARGV[8], cjson.encode({id = ARGV[4], e = ARGV[5], r = tonumber(ARGV[6]), err = ARGV[7]}))
end
return 1`;

// KEYS: stream, dead. ARGV: one event id, or none for all.
const REPLAY = `
local ids = ARGV
if #ids == 0 then ids = redis.call('HKEYS', KEYS[2]) end
local n = 0
for _, id in ipairs(ids) do
  local d = redis.call('HGET', KEYS[2], id)
  if d then
    redis.call('XADD', KEYS[1], '*', 'id', id, 'e', cjson.decode(d).e, 'r', '0')
    redis.call('HDEL', KEYS[2], id)
    n = n + 1
  end
end
return n`;

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
    this.#blocking = options.blockingClient === undefined ? undefined : redisConnection(options.blockingClient, 'RedisInbox', 'blockingClient');
    this.#prefix = options.prefix ?? '{im-inbox}:';
    this.#group = options.group ?? 'workers';
    if (!/^[\w.:{}-]{1,200}$/.test(this.#prefix)) throw new TypeError('RedisInbox: prefix must be 1 to 200 characters of [A-Za-z0-9_.:{}-]');
    if (this.#client.cluster) refuseOnCluster(this.#prefix, options, this.#client.client);
    if (!/^[\w.:-]{1,200}$/.test(this.#group)) throw new TypeError('RedisInbox: group must be 1 to 200 characters of [A-Za-z0-9_.:-]');
    this.#stream = this.#prefix + 'events';
    this.#guard = new DurabilityGuard(this.#send, options, this.now);
    this.#blockMs = options.blockMs ?? 1000;
    if (!(Number.isSafeInteger(this.#blockMs) && this.#blockMs >= 1 && this.#blockMs <= 60_000)) throw new TypeError('RedisInbox: blockMs must be an integer from 1 to 60000');
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
    const keys = [this.#stream];
    const args = [String(this.retentionMs)];
    for (const event of events) {
      keys.push(this.#prefix + 'seen:' + event.id);
      args.push(event.id, JSON.stringify(event));
    }
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

  async #take(req: TakeRequest): Promise<Claimed<E>[]> {
    void this.#guard.report(); // the warning at a worker's start too (appends wait for it)
    await this.#ensureGroup();
    const now = this.now();
    const autoclaim = now - this.#lastAutoclaim >= Math.min(1000, this.visibilityMs / 4);
    if (autoclaim) this.#lastAutoclaim = now;
    const reply = await this.#eval(TAKE, [this.#stream, this.#prefix + 'retry', this.#prefix + 'dead'], [
      this.#group, req.consumer, String(now), String(req.count), String(this.visibilityMs), String(req.maxAttempts), autoclaim ? '1' : '0',
    ]);
    const out = this.#claimedOf(reply);
    if (out.length > 0 || req.signal.aborted) return out;
    if (!this.#blocking) {
      await new Promise((r) => setTimeout(r, Math.min(50, req.waitMs)));
      return [];
    }
    const blocked = await this.#blocking.command([
      'XREADGROUP', 'GROUP', this.#group, req.consumer, 'COUNT', String(req.count), 'BLOCK', String(Math.min(req.waitMs, this.#blockMs)), 'STREAMS', this.#stream, '>',
    ]);
    const claimed: Claimed<E>[] = [];
    for (const entry of streamEntries(blocked)) {
      const f = entry.fields;
      claimed.push({ entryId: entry.id, eventId: f.id ?? '', event: JSON.parse(f.e ?? 'null') as E, attempt: Number(f.r ?? 0) + 1 });
    }
    return claimed;
  }

  #claimedOf(reply: unknown): Claimed<E>[] {
    const flat = Array.isArray(reply) ? reply : [];
    const out: Claimed<E>[] = [];
    for (let i = 0; i + 3 < flat.length; i += 4) {
      out.push({ entryId: replyText(flat[i]) ?? '', eventId: replyText(flat[i + 1]) ?? '', event: JSON.parse(replyText(flat[i + 2]) ?? 'null') as E, attempt: replyNumber(flat[i + 3]) });
    }
    return out;
  }

  /**
   * Settles are queued and sent together: every settle requested in the same turn of the event
   * loop (the events a batch of handlers finished) goes in one SETTLE call, up to 100 — one script
   * run instead of one per event. Each event still gets its own outcome.
   */
  protected settle(consumer: string, c: Claimed<E>, changes: readonly InboxStateChange[], guard: GuardPlan | undefined): Promise<InboxCommitOutcome> {
    return new Promise<InboxCommitOutcome>((resolve, reject) => {
      this.#settles.push({ consumer, c, changes, guard, resolve, reject });
      if (this.#settles.length === 1) queueMicrotask(() => this.#flushSettles());
    });
  }

  #flushSettles(): void {
    while (this.#settles.length > 0) {
      const batch = this.#settles.splice(0, 100);
      const keys = [this.#stream, this.#prefix + 'stats'];
      const args = [this.#group, String(this.retentionMs), String(batch.length)];
      for (const { consumer, c, changes, guard } of batch) {
        keys.push(this.#prefix + 'seen:' + c.eventId, guard ? this.#prefix + 'mark:' + guard.entity : this.#stream);
        args.push(c.entryId, consumer, guard ? '1' : '0', guard?.mark.v ?? '', guard?.mark.t ?? '', String(changes.length));
        for (const change of changes) {
          keys.push(this.#prefix + 's:' + change.key);
          args.push((change.always === true ? '!' : '') + change.op, change.op === 'set' ? change.value : change.op === 'incr' ? String(change.by ?? 1) : '');
        }
      }
      this.#eval(SETTLE, keys, args).then(
        (reply) => {
          const outcomes = Array.isArray(reply) ? reply.map(replyText) : [];
          batch.forEach((item, i) => {
            const outcome = outcomes[i];
            if (outcome?.startsWith('E:')) item.reject(new StoreError('inbox commit', `refused: ${outcome.slice(2)}`));
            else if (outcome && OUTCOMES.has(outcome as InboxCommitOutcome)) item.resolve(outcome as InboxCommitOutcome);
            else item.reject(new StoreError('RedisInbox SETTLE', `answered ${String(outcome)}, not an outcome`));
          });
        },
        (err: unknown) => batch.forEach((item) => item.reject(err)),
      );
    }
  }

  protected async fail(consumer: string, c: Claimed<E>, error: string, dueAt: number | undefined): Promise<void> {
    await this.#eval(FAIL, [this.#stream, this.#prefix + 'retry', this.#prefix + 'dead'], [
      this.#group, c.entryId, consumer, c.eventId, JSON.stringify(c.event), String(c.attempt), error.slice(0, 2000), dueAt === undefined ? '' : String(dueAt), String(this.now()),
    ]);
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
    return { pending: replyNumber(len) + replyNumber(retrying), retrying: replyNumber(retrying), deadLetters: replyNumber(dead), processed: processed ?? 0, superseded: superseded ?? 0 };
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
    return replyNumber(await this.#eval(REPLAY, [this.#stream, this.#prefix + 'dead'], eventId === undefined ? [] : [eventId]));
  }
}

/**
 * What a Redis Cluster cannot do for the inbox: keys of one script on several slots (a prefix
 * without a hash tag), and a persistence wait (WAIT / WAITAOF must follow the append on its own
 * connection; a cluster client sends them to any node).
 */
function refuseOnCluster(prefix: string, options: RedisInboxOptions, client: string): void {
  const tag = /\{([^}]*)\}/.exec(prefix);
  if (!tag || tag[1] === '') throw new TypeError(`RedisInbox: on a Redis Cluster (${client}) the prefix must hold a hash tag such as {im-inbox}, so that every key of the inbox lives on one slot; got ${JSON.stringify(prefix)}`);
  if (options.waitForPersistence) throw new TypeError(`RedisInbox: waitForPersistence needs a single-node connection (WAIT / WAITAOF follow the append on its own connection); a Redis Cluster client (${client}) sends them to any node`);
}
