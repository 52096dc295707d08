/**
 * `RedisTokenStore`: one App Token shared by a fleet of processes (REST seed 5 and 8: exchanges
 * are limited to 120 a minute per source IP, and every successful one counts against the
 * application's quota).
 *
 * ```ts
 * import { createClient } from 'redis';
 * import { ImClient, RedisTokenStore } from 'im-server-sdk';
 * const redis = createClient({ url: process.env.REDIS_URL });
 * redis.on('error', (err) => console.warn('redis:', err.message)); // else an outage crashes the app
 * await redis.connect();
 * const im = new ImClient({ ...credentials, tokenStore: new RedisTokenStore({ client: redis }) });
 * ```
 *
 * - The token is stored as JSON under the client's key (base URL, org#app and client id: never
 *   the secret, which the store never sees) with `PX` = its remaining lifetime, so Redis drops it
 *   when it expires.
 * - `withExchangeLock`: `SET <key>:lock <owner> NX PX <lockTtlMs>`; the owner runs the exchange
 *   renews the lock while the exchange runs and releases it only while it still owns it (Lua
 *   compare-and-expire, compare-and-delete). The others
 *   poll the token key with bounded backoff: as soon as a new token appears they use it; when
 *   the lock is gone (released, or expired because its holder died) one of them takes it.
 * - `deleteIf` (after a 401): deletes the stored token only while it is the one that was
 *   refused, so a process that learns late about a 401 never deletes its successor.
 * - Every command has a time budget (`commandTimeoutMs`): a Redis that stops answering makes the
 *   command fail, never hang (node-redis would queue it until Redis comes back).
 * - If Redis fails, the lock is skipped (each process then exchanges for itself) rather than
 *   failing the call; `get`/`set` errors are logged by the token manager, which falls back to
 *   its in-memory token.
 */
import type { StoredToken, TokenStore } from '../internal/token-manager.js';
import { randomOwner, redisConnection, replyText, type RedisClientLike, type RedisConnection } from './redis-client.js';
import { Inspectable } from './inspectable.js';
import { withStoreBudget } from './store-budget.js';

export interface RedisTokenStoreOptions {
  /** The application's Redis client as is: node-redis 4/5/6 or ioredis 5/6, single node or Cluster (or a `RedisCommandClient`). */
  client: RedisClientLike;
  /** Prepended to every key (default ''; the client's keys already start with "im-openapi:app-token:"). */
  prefix?: string;
  /** How long the exchange lock lives when its holder never releases it (default 15 000 ms). */
  lockTtlMs?: number;
  /** Longest time a waiter polls before it exchanges without the lock (default 3 × lockTtlMs). */
  maxLockWaitMs?: number;
  /** First and largest pause between two polls of a waiter (default 20 and 250 ms). */
  pollMinMs?: number;
  pollMaxMs?: number;
  /** Clock in epoch ms (tests); only used for the token's remaining lifetime. */
  now?: () => number;
  /**
   * Longest wait for one Redis reply (default 1 000 ms). node-redis queues commands while Redis
   * is down and never rejects them: past this the command fails, and the token manager falls
   * back (exchanging locally) instead of hanging every call.
   */
  commandTimeoutMs?: number;
}

const RELEASE_IF_OWNER =
  "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end";
const EXTEND_IF_OWNER =
  "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end";

const DELETE_IF_TOKEN =
  "local v = redis.call('GET', KEYS[1]) " +
  'if not v then return 0 end ' +
  'local ok, t = pcall(cjson.decode, v) ' +
  "if ok and type(t) == 'table' and t['accessToken'] == ARGV[1] then return redis.call('DEL', KEYS[1]) end " +
  'return 0';

export class RedisTokenStore extends Inspectable implements TokenStore {
  readonly #client: RedisConnection;
  readonly #prefix: string;
  readonly #lockTtlMs: number;
  readonly #maxWaitMs: number;
  readonly #pollMinMs: number;
  readonly #pollMaxMs: number;
  readonly #now: () => number;
  readonly #commandTimeoutMs: number;

  constructor(options: RedisTokenStoreOptions) {
    super();
    if (!options) throw new TypeError('RedisTokenStore needs { client }: your node-redis or ioredis client');
    this.#client = redisConnection(options.client, 'RedisTokenStore');
    this.#prefix = options.prefix ?? '';
    this.#lockTtlMs = Math.max(1, Math.ceil(options.lockTtlMs ?? 15_000));
    this.#maxWaitMs = options.maxLockWaitMs ?? this.#lockTtlMs * 3;
    this.#pollMinMs = Math.max(1, options.pollMinMs ?? 20);
    this.#pollMaxMs = Math.max(this.#pollMinMs, options.pollMaxMs ?? 250);
    this.#now = options.now ?? Date.now;
    this.#commandTimeoutMs = Math.max(1, options.commandTimeoutMs ?? 1_000);
  }
  /** One Redis command within its time budget. */
  #command(args: string[]): Promise<unknown> {
    return withStoreBudget(this.#client.command(args), this.#commandTimeoutMs, `Redis ${args[0]}`);
  }

  async get(key: string): Promise<StoredToken | null> {
    return parseToken(replyText(await this.#command(['GET', this.#prefix + key])));
  }

  async set(key: string, token: StoredToken): Promise<void> {
    const ttl = Math.floor(token.expiresAt - this.#now());
    if (!(ttl > 0)) {
      // Already expired: keep nothing rather than a token that every process would refuse.
      await this.#command(['DEL', this.#prefix + key]);
      return;
    }
    const value: StoredToken = {
      accessToken: token.accessToken,
      expiresAt: token.expiresAt,
      ...(token.application !== undefined ? { application: token.application } : {}),
      ...(token.obtainedAt !== undefined ? { obtainedAt: token.obtainedAt } : {}),
    };
    await this.#command(['SET', this.#prefix + key, JSON.stringify(value), 'PX', String(ttl)]);
  }

  async delete(key: string): Promise<void> {
    await this.#command(['DEL', this.#prefix + key]);
  }

  /** Deletes the stored token only while it is `accessToken` (atomic compare-and-delete). */
  async deleteIf(key: string, accessToken: string): Promise<void> {
    await this.#command(['EVAL', DELETE_IF_TOKEN, '1', this.#prefix + key, accessToken]);
  }

  async withExchangeLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const tokenKey = this.#prefix + key;
    const lockKey = `${tokenKey}:lock`;
    const owner = randomOwner();
    let before: string | null;
    let locked: boolean;
    try {
      before = replyText(await this.#command(['GET', tokenKey]));
      locked = await this.#tryLock(lockKey, owner);
    } catch {
      // Redis unreachable: exchanging without the lock beats failing the call.
      return fn();
    }
    const started = Date.now();
    let pause = this.#pollMinMs;
    while (!locked) {
      if (Date.now() - started >= this.#maxWaitMs) return fn();
      await delay(pause / 2 + Math.random() * (pause / 2));
      pause = Math.min(this.#pollMaxMs, pause * 2);
      try {
        const current = replyText(await this.#command(['GET', tokenKey]));
        // Another process stored a new token: `fn` finds it in the store and uses it.
        if (current !== null && current !== before) return fn();
        locked = await this.#tryLock(lockKey, owner);
      } catch {
        return fn();
      }
    }
    // A slow exchange (retries, a slow service) keeps its lock: renewed at a third of its life,
    // only while this process still owns it. A process that dies stops renewing, so its lock
    // still expires.
    const renew = setInterval(
      () => {
        this.#command(['EVAL', EXTEND_IF_OWNER, '1', lockKey, owner, String(this.#lockTtlMs)]).catch(() => undefined);
      },
      Math.max(1, Math.floor(this.#lockTtlMs / 3)),
    );
    (renew as { unref?: () => void }).unref?.();
    try {
      return await fn();
    } finally {
      clearInterval(renew);
      // Only while we still own it: after an expiry another process may hold it now.
      await this.#command(['EVAL', RELEASE_IF_OWNER, '1', lockKey, owner]).catch(() => undefined);
    }
  }

  async #tryLock(lockKey: string, owner: string): Promise<boolean> {
    const reply = await this.#command(['SET', lockKey, owner, 'NX', 'PX', String(this.#lockTtlMs)]);
    return replyText(reply) === 'OK';
  }

  toJSON(): Record<string, unknown> {
    return { type: 'RedisTokenStore', prefix: this.#prefix, lockTtlMs: this.#lockTtlMs };
  }

  /** What `console.log(store)` shows (through `Inspectable`): never the client. */
  override toString(): string {
    return `RedisTokenStore { prefix: ${JSON.stringify(this.#prefix)}, lockTtlMs: ${this.#lockTtlMs} }`;
  }
}

function parseToken(text: string | null): StoredToken | null {
  if (text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  if (
    typeof v.accessToken !== 'string' ||
    v.accessToken === '' ||
    typeof v.expiresAt !== 'number' ||
    !Number.isFinite(v.expiresAt)
  )
    return null;
  return {
    accessToken: v.accessToken,
    expiresAt: v.expiresAt,
    ...(typeof v.application === 'string' ? { application: v.application } : {}),
    ...(typeof v.obtainedAt === 'number' && Number.isFinite(v.obtainedAt) ? { obtainedAt: v.obtainedAt } : {}),
  };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
