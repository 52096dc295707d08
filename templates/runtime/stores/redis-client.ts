/**
 * The one seam between a Redis client and every Redis store (token, quota and gate, dedupe and
 * nonce, inbox). The package has no Redis dependency: a store takes the application's own client
 * and speaks to it through `redisConnection` only, which knows each supported client's call and
 * reply shapes, so the stores never see them:
 *
 * | client | single node | Redis Cluster | replies |
 * |---|---|---|---|
 * | node-redis 4 (`redis@4`) | `createClient()` | `createCluster()` | RESP2 |
 * | node-redis 5 (`redis@5`) | `createClient()` | `createCluster()` | RESP2, or RESP3 with `RESP: 3` |
 * | node-redis 6 (`redis@6`) | `createClient()` | `createCluster()` | RESP3 (maps as objects) |
 * | ioredis 5 | `new Redis()` | `new Redis.Cluster()` | RESP2 |
 * | ioredis 6 | `new Redis()` | `new Redis.Cluster()` | RESP3 (maps flattened, or objects with `replyMapping: 'resp3'`) |
 *
 * Any other client: pass `{ command(args) }` (a `RedisCommandClient`); its replies are read the
 * same way. Anything else is refused at the store's construction, naming the supported clients.
 */
import { asStoreError } from '../core/errors.js';
import { normalizeReply, replyText } from './redis-reply.js';
import type { RedisReply } from './redis-reply.js';

export { replyText } from './redis-reply.js';
export type { RedisReply } from './redis-reply.js';

/** Any Redis client reduced to one call: send a command, get the reply (RESP2 or RESP3 shapes). */
export interface RedisCommandClient {
  command(args: string[]): Promise<unknown>;
}

/** The shape of a node-redis client or cluster (`redis` 4, 5, 6) as far as the stores use it. */
export interface NodeRedisClientLike {
  sendCommand(...args: any[]): Promise<unknown>;
}

/** The shape of an ioredis client or cluster (5, 6) as far as the stores use it. */
export interface IoredisClientLike {
  call(...args: any[]): Promise<unknown>;
}

/** What a Redis store accepts as `client`: a node-redis or ioredis client or cluster, as is, or a `RedisCommandClient`. */
export type RedisClientLike = RedisCommandClient | NodeRedisClientLike | IoredisClientLike;

/** The supported clients, as every refusal names them. */
export const SUPPORTED_REDIS_CLIENTS =
  'node-redis 4, 5 or 6 (createClient() or createCluster() of the `redis` package), ioredis 5 or 6 (new Redis() or new Redis.Cluster()), ' +
  'or an object with command(args: string[]) → Promise of the reply';

/** A client as the stores use it: one call, replies in RESP2's shapes, failures as `StoreError`s. */
export interface RedisConnection {
  /** Which client it is, for messages: `node-redis`, `node-redis cluster`, `ioredis`, `ioredis cluster`, `command client`. */
  readonly client: string;
  /** A Redis Cluster client: keys of one call must share a hash slot, and commands go to the node of their first key. */
  readonly cluster: boolean;
  command(args: string[]): Promise<RedisReply>;
}

const CONNECTION = Symbol.for('im-server-sdk.redis-connection');
type Adapted = RedisCommandClient & { [CONNECTION]: { client: string; cluster: boolean } };

function isObject(value: unknown): value is Record<string | symbol, unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null;
}

function kindOf(client: unknown): 'adapted' | 'node-redis' | 'ioredis' | 'command' | undefined {
  if (!isObject(client)) return undefined;
  if (isObject(client[CONNECTION])) return 'adapted';
  // ioredis first: its clients have a sendCommand too (of Command objects)
  if (typeof client.call === 'function' && (typeof client.status === 'string' || client.isCluster === true))
    return 'ioredis';
  if (typeof client.sendCommand === 'function') return 'node-redis';
  if (typeof client.command === 'function') return 'command';
  return undefined;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (!isObject(value)) return typeof value;
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name !== 'Object'
    ? `an object (${name}) without sendCommand, call or command`
    : 'an object without sendCommand, call or command';
}

/**
 * The key a node-redis cluster routes a command by: the first key of the command (EVAL's first
 * KEYS entry, the stream after STREAMS), or none for commands without a key (SCRIPT, CONFIG, INFO).
 */
export function firstKeyOf(args: readonly string[]): string | undefined {
  const name = (args[0] ?? '').toUpperCase();
  switch (name) {
    case 'EVAL':
    case 'EVALSHA':
    case 'EVAL_RO':
    case 'EVALSHA_RO':
      return Number(args[2]) > 0 ? args[3] : undefined;
    case 'XREADGROUP':
    case 'XREAD': {
      const at = args.findIndex((a) => a.toUpperCase() === 'STREAMS');
      return at >= 0 ? args[at + 1] : undefined;
    }
    case 'XGROUP':
      return args[2];
    case 'SCRIPT':
    case 'CONFIG':
    case 'INFO':
    case 'COMMAND':
    case 'WAIT':
    case 'WAITAOF':
    case 'PING':
    case 'TIME':
    case 'FLUSHALL':
      return undefined;
    default:
      return args[1];
  }
}

/** A node-redis client or cluster (`redis` 4, 5, 6; v4's legacyMode through its `.v4`) → RedisCommandClient. */
export function fromNodeRedis(client: NodeRedisClientLike): RedisCommandClient {
  // v4's legacyMode keeps the promise API under `.v4` (a getter that throws outside legacy mode)
  const legacy = isObject(client) && isObject(client.options) && client.options.legacyMode === true;
  const target = legacy ? ((client as unknown as { v4: NodeRedisClientLike }).v4 ?? client) : client;
  if (!isObject(target) || typeof target.sendCommand !== 'function')
    throw new TypeError(
      `fromNodeRedis needs a node-redis client or cluster (sendCommand), got ${describeValue(client)}`,
    );
  // createCluster(): sendCommand(firstKey, isReadonly, args) routes by the key's slot
  const cluster = typeof (target as unknown as Record<string, unknown>).getSlotMaster === 'function';
  const command = cluster
    ? (args: string[]) => target.sendCommand(firstKeyOf(args), false, args)
    : (args: string[]) => target.sendCommand(args);
  return adapted(command, cluster ? 'node-redis cluster' : 'node-redis', cluster);
}

/** An ioredis client or cluster (5, 6) → RedisCommandClient, through `client.call(name, ...args)` (the cluster routes by key itself). */
export function fromIoredis(client: IoredisClientLike): RedisCommandClient {
  if (!isObject(client) || typeof client.call !== 'function')
    throw new TypeError(`fromIoredis needs an ioredis client or cluster (call), got ${describeValue(client)}`);
  const cluster = (client as unknown as Record<string, unknown>).isCluster === true;
  const command = ([name, ...rest]: string[]): Promise<unknown> =>
    name ? client.call(name, ...rest) : Promise.reject(new TypeError('empty Redis command'));
  return adapted(command, cluster ? 'ioredis cluster' : 'ioredis', cluster);
}

function adapted(command: (args: string[]) => Promise<unknown>, client: string, cluster: boolean): RedisCommandClient {
  const out: Adapted = { command, [CONNECTION]: { client, cluster } };
  return out;
}

/**
 * `client` as a store uses it: recognised (else a TypeError naming the supported clients, so a
 * wrong object fails at construction, not on the first request), every reply in RESP2's shapes,
 * and every failure (a Redis error reply, a closed client, a refused connection) a `StoreError`
 * naming the command with the client's own error as its `cause`.
 */
export function redisConnection(client: unknown, owner: string, field = 'client'): RedisConnection {
  let source: RedisCommandClient;
  let info: { client: string; cluster: boolean };
  switch (kindOf(client)) {
    case 'adapted':
      source = client as Adapted;
      info = (client as Adapted)[CONNECTION];
      break;
    case 'node-redis':
      source = fromNodeRedis(client as NodeRedisClientLike);
      info = (source as Adapted)[CONNECTION];
      break;
    case 'ioredis':
      source = fromIoredis(client as IoredisClientLike);
      info = (source as Adapted)[CONNECTION];
      break;
    case 'command':
      source = client as RedisCommandClient;
      info = { client: 'command client', cluster: false };
      break;
    default:
      throw new TypeError(
        `${owner}: ${field} is not a Redis client it knows (${describeValue(client)}); supported: ${SUPPORTED_REDIS_CLIENTS}`,
      );
  }
  return {
    client: info.client,
    cluster: info.cluster,
    command: (args) => {
      const what = `Redis ${args[0] ?? 'command'}`;
      let reply: Promise<unknown>;
      try {
        reply = Promise.resolve(source.command(args));
      } catch (err) {
        return Promise.reject(asStoreError(err, what));
      }
      return reply.then(
        (raw) => normalizeReply(args[0] ?? '', raw),
        (err: unknown) => Promise.reject(asStoreError(err, what)),
      );
    },
  };
}

/** A Redis client's `command`, possibly within a budget (what `evalScript` sends through). */
export type RedisCommand = (args: string[]) => Promise<unknown>;

/**
 * Runs a Lua script by EVALSHA, loading it once (one SCRIPT LOAD however many calls start at
 * once; `shas` holds the SHA1 of each script per client: the package has no hashing of its own to
 * spare). When the server has lost its script cache (NOSCRIPT: a restart, SCRIPT FLUSH, or the
 * Cluster node of the keys was not the one SCRIPT LOAD reached) the call is sent once as EVAL,
 * which caches the script on that node, and the next one loads it again. Shared by the Redis quota
 * store and the Redis inbox.
 */
export async function evalScript(
  command: RedisCommand,
  shas: Map<string, Promise<string>>,
  script: string,
  keys: readonly string[],
  args: readonly string[],
): Promise<unknown> {
  let sha = shas.get(script);
  if (sha === undefined) {
    sha = command(['SCRIPT', 'LOAD', script]).then((reply) => replyText(reply) ?? '');
    shas.set(script, sha);
    sha.catch(() => shas.delete(script));
  }
  try {
    return await command(['EVALSHA', await sha, String(keys.length), ...keys, ...args]);
  } catch (err) {
    if (!/NOSCRIPT/.test(err instanceof Error ? err.message : String(err))) throw err;
    shas.delete(script);
    return command(['EVAL', script, String(keys.length), ...keys, ...args]);
  }
}

/** A unique-enough id for a lock owner or a store's name among a key's members. */
export function randomOwner(): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
}
