/**
 * One business-server process of the fleet test (spawned by fleet.test.ts with `node --import tsx`).
 * It shares the App Token with its siblings through a RedisTokenStore on one redis-server and
 * runs waves of concurrent calls when the parent asks (IPC).
 *
 * env: REDIS_URL, BASE_URL, LOCK_TTL_MS, CLIENT_SECRET, MODE ('normal' | 'hang-exchange':
 * the exchange never answers, so this process dies holding the lock when the parent kills it).
 */
import { createClient } from 'redis';
import { ImClient, RedisTokenStore, fromNodeRedis, type TokenEvent } from '../../generated/src/index.js';

type Msg = { type: 'wave'; wave: number; calls: number } | { type: 'clock'; offsetMs: number } | { type: 'exit' };

const env = process.env;
const send = (m: unknown) => process.send?.(m);

const redis = createClient({ url: env.REDIS_URL });
await redis.connect();
// The fleet's clock can be moved ahead (message 'clock'): tokens live at least 300 s (the seed's
// minimum, which the client enforces), so an expiry is reached by moving time, not by waiting.
let offsetMs = 0;
const now = (): number => Date.now() + offsetMs;
const store = new RedisTokenStore({ client: fromNodeRedis(redis), lockTtlMs: Number(env.LOCK_TTL_MS ?? 15_000), now });
const events: TokenEvent['type'][] = [];

const hang = env.MODE === 'hang-exchange';
const im = new ImClient({
  baseUrl: env.BASE_URL!,
  appKey: 'fleet#app',
  clientId: 'fleet-client',
  clientSecret: env.CLIENT_SECRET!,
  tokenStore: store,
  timeoutMs: 10_000,
  onTokenEvent: (e) => events.push(e.type),
  internals: { now },
  ...(hang
    ? {
        fetch: (url: string, init: RequestInit) => {
          if (url.endsWith('/token')) {
            send({ type: 'exchanging' });
            return new Promise<Response>(() => {});
          }
          return fetch(url, init);
        },
      }
    : {}),
});

process.on('message', (msg: Msg) => {
  if (msg.type === 'clock') {
    offsetMs = msg.offsetMs;
    send({ type: 'clock-set' });
    return;
  }
  if (msg.type === 'exit') {
    void redis.close().finally(() => process.disconnect());
    return;
  }
  const started = Date.now();
  void Promise.allSettled(
    Array.from({ length: msg.calls }, (_, i) => im.users.get({ username: `p${process.pid}-w${msg.wave}-${i}` })),
  ).then((results) => {
    const errors = results.flatMap((r) =>
      r.status === 'rejected' ? [`${(r.reason as Error)?.name}: ${(r.reason as Error)?.message}`] : [],
    );
    send({
      type: 'wave-done',
      wave: msg.wave,
      ok: results.length - errors.length,
      errors,
      events: events.splice(0),
      ms: Date.now() - started,
    });
  });
});

send({ type: 'ready', pid: process.pid });
