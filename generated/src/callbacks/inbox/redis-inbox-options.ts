// Copied by im-openapi from templates/runtime/callbacks/inbox/redis-inbox-options.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The options of `RedisInbox` and their checks at construction (split from redis-inbox.ts,
 * issue 32): the connections, the key prefix and group, and what a Redis Cluster cannot do.
 */
import type { RedisClientLike, RedisConnection } from '../../stores/redis-client.js';
import { redisConnection } from '../../stores/redis-client.js';
import type { CallbackLogger } from '../types.js';
import type { InboxDurability, WaitForPersistence } from './redis-durability.js';
import type { InboxOptions } from './types.js';

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

/** The connections, prefix and group of a `RedisInbox`, checked (a TypeError names the option and its rule). */
export function redisInboxConnections(options: RedisInboxOptions): {
  client: RedisConnection;
  blocking: RedisConnection | undefined;
  prefix: string;
  group: string;
} {
  const client = redisConnection(options.client, 'RedisInbox');
  const blocking =
    options.blockingClient === undefined
      ? undefined
      : redisConnection(options.blockingClient, 'RedisInbox', 'blockingClient');
  const prefix = options.prefix ?? '{im-inbox}:';
  const group = options.group ?? 'workers';
  if (!/^[\w.:{}-]{1,200}$/.test(prefix))
    throw new TypeError('RedisInbox: prefix must be 1 to 200 characters of [A-Za-z0-9_.:{}-]');
  if (client.cluster) refuseOnCluster(prefix, options, client.client);
  if (!/^[\w.:-]{1,200}$/.test(group))
    throw new TypeError('RedisInbox: group must be 1 to 200 characters of [A-Za-z0-9_.:-]');
  return { client, blocking, prefix, group };
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
