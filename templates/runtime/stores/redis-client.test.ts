/**
 * `evalScript`, the one EVALSHA path of the Redis quota store and the Redis inbox, against a
 * private real redis-server; the commands it sends are recorded to see what went over the wire.
 */
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type RedisServerHandle } from '../../../test/fixtures/callbacks/redis-server.js';
import { evalScript, fromNodeRedis } from './redis-client.js';

let server: RedisServerHandle;
let redis: ReturnType<typeof createClient>;
beforeAll(async () => {
  server = await startRedisServer();
  redis = createClient({ url: server.url });
  await redis.connect();
});
afterAll(async () => {
  await redis?.close().catch(() => undefined);
  await server?.stop();
});

const INCR_BY = "return redis.call('INCRBY', KEYS[1], ARGV[1])";

function recorded(): { sent: string[]; command: (args: string[]) => Promise<unknown> } {
  const client = fromNodeRedis(redis);
  const sent: string[] = [];
  return { sent, command: (args) => (sent.push(args[0] === 'SCRIPT' ? `SCRIPT ${args[1]}` : args[0]!), client.command(args)) };
}

describe('evalScript', () => {
  it('loads a script once for calls that start together, then runs it by EVALSHA', async () => {
    const { sent, command } = recorded();
    const shas = new Map<string, Promise<string>>();
    const replies = await Promise.all([1, 2, 3].map((n) => evalScript(command, shas, INCR_BY, ['es:a'], [String(n)])));
    expect(replies.map(Number).sort()).toEqual([1, 3, 6]);
    expect(sent).toEqual(['SCRIPT LOAD', 'EVALSHA', 'EVALSHA', 'EVALSHA']);
  });

  it('after SCRIPT FLUSH answers the call by EVAL and loads the script again on the next one', async () => {
    const { sent, command } = recorded();
    const shas = new Map<string, Promise<string>>();
    expect(Number(await evalScript(command, shas, INCR_BY, ['es:b'], ['1']))).toBe(1);
    await redis.sendCommand(['SCRIPT', 'FLUSH']);
    expect(Number(await evalScript(command, shas, INCR_BY, ['es:b'], ['1']))).toBe(2);
    expect(Number(await evalScript(command, shas, INCR_BY, ['es:b'], ['1']))).toBe(3);
    expect(sent).toEqual(['SCRIPT LOAD', 'EVALSHA', 'EVALSHA', 'EVAL', 'SCRIPT LOAD', 'EVALSHA']);
  });

  it("passes a script's own error on without running it a second time", async () => {
    const { sent, command } = recorded();
    await expect(evalScript(command, new Map(), "return redis.error_reply('BOOM no such thing')", [], [])).rejects.toThrow(/BOOM/);
    expect(sent).toEqual(['SCRIPT LOAD', 'EVALSHA']);
  });
});
