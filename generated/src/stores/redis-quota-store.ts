// Copied by im-openapi from templates/runtime/stores/redis-quota-store.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * `RedisQuotaStore`: the application's OpenAPI quota shared by a fleet of processes (issue 20),
 * beside `RedisTokenStore` on the same Redis.
 *
 * ```ts
 * const quotaStore = new RedisQuotaStore({ client: redis }); // node-redis or ioredis, as is
 * const im = new ImClient({ ...credentials, tokenStore, quotaStore, rateLimit: { perSecond: 0.9 * quota } });
 * ```
 *
 * - Send slots: GCRA in one Lua script (`EVALSHA`, loaded once), timed by Redis's own clock
 *   (`TIME`), so every process draws from one schedule whatever its own clock says. One round
 *   trip per call; the same script adds the client's pending counters and reads the gate.
 * - The gate: a key that lives as long as the 429's Retry-After (`PX`), never shortened; every
 *   process reads its remaining life (`PTTL`), so all of them open at once.
 * - Every command has a time budget (`commandTimeoutMs`, default 1 000 ms, as the token store:
 *   shorter ones gave up on a Redis that was only slow, on a loaded machine): past it the command fails and the client limits on its own
 *   until the store answers again — never a hang.
 *
 * Keys: `<prefix>…` as the client names them (application or host, never a secret).
 */
import type { RateSpec } from '../internal/gcra.js';
import {
  evalScript,
  randomOwner,
  redisConnection,
  type RedisClientLike,
  type RedisConnection,
} from './redis-client.js';
import { replyNumber, replyPairs, type RedisReply } from './redis-reply.js';
import {
  COUNTER_NAMES,
  zeroCounters,
  type QuotaCounters,
  type QuotaReservation,
  type QuotaStore,
} from './quota-store.js';
import { withStoreBudget } from './store-budget.js';

export interface RedisQuotaStoreOptions {
  /** The application's Redis client as is: node-redis 4/5/6 or ioredis 5/6, single node or Cluster (or a `RedisCommandClient`). */
  client: RedisClientLike;
  /** Prepended to every key (default ''). */
  prefix?: string;
  /** Longest wait for one Redis reply (default 1 000 ms). */
  commandTimeoutMs?: number;
}

/**
 * KEYS: slots, gate, counters, members. ARGV: interval ms, tolerance ms, max wait ms, member id,
 * then counter name/value pairs. Members: who reserved in the last MEMBER_TTL_MS (the fleet's size).
 */
const RESERVE =
  "local t = redis.call('TIME') " +
  'local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000 ' +
  "redis.call('ZADD', KEYS[4], now, ARGV[4]) " +
  "redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', now - 5000) " +
  "redis.call('PEXPIRE', KEYS[4], 10000) " +
  'local interval = tonumber(ARGV[1]) ' +
  "local tat = tonumber(redis.call('GET', KEYS[1]) or '0') " +
  'if tat < now then tat = now end ' +
  'local wait = tat - tonumber(ARGV[2]) - now ' +
  'if wait < 0 then wait = 0 end ' +
  'local reserved = 0 ' +
  'if wait <= tonumber(ARGV[3]) then ' +
  '  reserved = 1 ' +
  "  redis.call('SET', KEYS[1], string.format('%.3f', tat + interval), 'PX', math.ceil(tat + interval - now) + 1000) " +
  'end ' +
  "for i = 5, #ARGV, 2 do redis.call('HINCRBY', KEYS[3], ARGV[i], ARGV[i + 1]) end " +
  "local gate = redis.call('PTTL', KEYS[2]) " +
  'if gate < 0 then gate = 0 end ' +
  "return {reserved, string.format('%.3f', wait), gate, redis.call('ZCARD', KEYS[4])}";

/** KEYS: counters, gate. ARGV: counter name/value pairs. */
const SYNC =
  "for i = 1, #ARGV, 2 do redis.call('HINCRBY', KEYS[1], ARGV[i], ARGV[i + 1]) end " +
  "local gate = redis.call('PTTL', KEYS[2]) " +
  'if gate < 0 then gate = 0 end ' +
  'return gate';

/** KEYS: gate. ARGV: ms. Never shortens a longer close. */
const CLOSE =
  "if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], '1', 'PX', ARGV[1]) end return 1";

export class RedisQuotaStore implements QuotaStore {
  readonly #client: RedisConnection;
  readonly #prefix: string;
  readonly #commandTimeoutMs: number;
  /** SHA1 of each script, from SCRIPT LOAD (the package has no hashing of its own to spare). */
  readonly #shas = new Map<string, Promise<string>>();
  /** This store's name among the key's members (a process with one store counts once). */
  readonly #member = randomOwner();

  constructor(options: RedisQuotaStoreOptions) {
    if (!options) throw new TypeError('RedisQuotaStore needs { client }: your node-redis or ioredis client');
    this.#client = redisConnection(options.client, 'RedisQuotaStore');
    this.#prefix = options.prefix ?? '';
    this.#commandTimeoutMs = Math.max(1, options.commandTimeoutMs ?? 1_000);
  }

  async reserve(
    key: string,
    rate: RateSpec,
    maxWaitMs: number,
    gateKey: string,
    counters?: Partial<QuotaCounters>,
  ): Promise<QuotaReservation> {
    const interval = 1000 / rate.perSecond;
    const p = this.#prefix;
    const args = [
      String(interval),
      String((rate.burst - 1) * interval),
      String(maxWaitMs),
      this.#member,
      ...counterArgs(counters),
    ];
    const reply = await this.#script(
      RESERVE,
      [p + key, p + gateKey, `${p + key}:counters`, `${p + key}:members`],
      args,
    );
    const [reserved, wait, gate, members] = Array.isArray(reply) ? reply : [];
    return {
      reserved: replyNumber(reserved) === 1,
      waitMs: replyNumber(wait),
      gateMs: Math.max(0, replyNumber(gate)),
      members: Math.max(1, replyNumber(members, 1)),
    };
  }

  async sync(key: string, gateKey: string, counters?: Partial<QuotaCounters>): Promise<number> {
    const reply = await this.#script(
      SYNC,
      [`${this.#prefix + key}:counters`, this.#prefix + gateKey],
      counterArgs(counters),
    );
    return Math.max(0, replyNumber(reply));
  }

  async closeGate(gateKey: string, ms: number): Promise<void> {
    await this.#script(CLOSE, [this.#prefix + gateKey], [String(Math.max(1, Math.ceil(ms)))]);
  }

  async openGate(gateKey: string): Promise<void> {
    await this.#command(['DEL', this.#prefix + gateKey]);
  }

  async counters(key: string): Promise<QuotaCounters> {
    const reply = await this.#command(['HGETALL', `${this.#prefix + key}:counters`]);
    const out = zeroCounters();
    for (const [name, value] of replyPairs(reply))
      if ((COUNTER_NAMES as readonly string[]).includes(name)) out[name as keyof QuotaCounters] = replyNumber(value);
    return out;
  }

  #command(args: string[]): Promise<RedisReply> {
    return withStoreBudget(this.#client.command(args), this.#commandTimeoutMs, `Redis ${args[0]}`);
  }

  /** `#command` as one function for `evalScript` (made once, not per call). */
  readonly #send = (args: string[]): Promise<unknown> => this.#command(args);

  #script(script: string, keys: string[], args: string[]): Promise<unknown> {
    return evalScript(this.#send, this.#shas, script, keys, args);
  }

  toJSON(): Record<string, unknown> {
    return { type: 'RedisQuotaStore', prefix: this.#prefix };
  }
}

function counterArgs(counters: Partial<QuotaCounters> | undefined): string[] {
  if (!counters) return [];
  const out: string[] = [];
  for (const name of COUNTER_NAMES) {
    const n = Math.round(counters[name] ?? 0);
    if (n !== 0) out.push(name, String(n));
  }
  return out;
}
