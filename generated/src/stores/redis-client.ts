// Copied by im-openapi from templates/runtime/stores/redis-client.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The one thing the Redis-backed stores need from a Redis client: send a command, get the
 * reply. The package has no Redis dependency; adapters turn node-redis and ioredis clients
 * into this shape. (Shared by the callback dedupe store and the App Token store.)
 */
import { asStoreError } from '../core/errors.js';

/** The one thing the Redis stores need: send a command, get the reply. */
export interface RedisCommandClient {
  command(args: string[]): Promise<unknown>;
}

/** node-redis (v4/v5) client → RedisCommandClient, through `client.sendCommand([...])`. */
export function fromNodeRedis(client: {
  sendCommand(args: string[]): Promise<unknown>;
}): RedisCommandClient {
  return { command: (args) => client.sendCommand(args) };
}

/** ioredis client → RedisCommandClient, through `client.call(name, ...args)`. */
export function fromIoredis(client: {
  call(command: string, ...args: string[]): Promise<unknown>;
}): RedisCommandClient {
  return {
    command: ([name, ...rest]) => {
      if (!name) return Promise.reject(new TypeError('empty Redis command'));
      return client.call(name, ...rest);
    },
  };
}

/**
 * `client` as the stores use it: a command that fails (a Redis error reply, a closed client, a
 * refused connection) rejects with a `StoreError` naming the command, the client's own error as
 * its `cause`, so every store failure a caller sees is an `ImError`. Every Redis store wraps the
 * client it is given with this once (the one seam between a Redis client and the stores).
 */
export function storeClient(client: RedisCommandClient): RedisCommandClient {
  return {
    command: (args) => {
      let reply: Promise<unknown>;
      try {
        reply = client.command(args);
      } catch (err) {
        return Promise.reject(asStoreError(err, `Redis ${args[0] ?? 'command'}`));
      }
      return Promise.resolve(reply).catch((err: unknown) => Promise.reject(asStoreError(err, `Redis ${args[0] ?? 'command'}`)));
    },
  };
}

/** A Redis reply as text (node-redis and ioredis may answer strings or byte arrays). */
export function replyText(reply: unknown): string | null {
  if (typeof reply === 'string') return reply;
  if (reply instanceof Uint8Array) return new TextDecoder().decode(reply);
  return null;
}

/** A Redis client's `command`, possibly within a budget (what `evalScript` sends through). */
export type RedisCommand = (args: string[]) => Promise<unknown>;

/**
 * Runs a Lua script by EVALSHA, loading it once (one SCRIPT LOAD however many calls start at
 * once; `shas` holds the SHA1 of each script per client: the package has no hashing of its own to
 * spare). When the server has lost its script cache (NOSCRIPT: a restart, SCRIPT FLUSH) the call
 * is sent once as EVAL and the next one loads the script again. Shared by the Redis quota store
 * and the Redis inbox.
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
