/**
 * The one thing the Redis-backed stores need from a Redis client: send a command, get the
 * reply. The package has no Redis dependency; adapters turn node-redis and ioredis clients
 * into this shape. (Shared by the callback dedupe store and the App Token store.)
 */

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

/** A Redis reply as text (node-redis and ioredis may answer strings or byte arrays). */
export function replyText(reply: unknown): string | null {
  if (typeof reply === 'string') return reply;
  if (reply instanceof Uint8Array) return new TextDecoder().decode(reply);
  return null;
}
