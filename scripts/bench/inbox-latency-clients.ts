/**
 * Issue 29 item 1: the Redis inbox's latency from append to handler with every supported client,
 * with a blocking client (the idle worker waits in XREADGROUP … BLOCK) and without one (it polls
 * every 50 ms), on a private redis-server and on a three-master Redis Cluster (127.0.0.1). For each:
 * one worker, idle, then one event appended every 120 ms (the worker idle again before each);
 * the time from the append's start to the handler's start, p50 / p95 / max over the events.
 *
 *   npx tsx scripts/bench/inbox-latency-clients.ts [events per case, default 30]
 *
 * Target (issue 29): under 100 ms with each client, either way.
 */
import { RedisInbox } from '../../templates/runtime/callbacks/inbox/redis-inbox.js';
import { startRedisServer } from '../../test/fixtures/callbacks/redis-server.js';
import { CLUSTER_CLIENTS, installedVersion, SINGLE_NODE_CLIENTS } from '../../test/fixtures/redis-clients.js';
import { startRedisCluster } from '../../test/fixtures/redis-cluster.js';

const events = Number(process.argv[2] ?? 30);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const server = await startRedisServer();
const cluster = await startRedisCluster();
const rows: string[] = [];
const quantile = (xs: number[], q: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;
let n = 0;
try {
  for (const [where, list] of [
    ['single node', SINGLE_NODE_CLIENTS],
    ['cluster', CLUSTER_CLIENTS],
  ] as const) {
    for (const c of list) {
      const opened = await c.open(where === 'cluster' ? cluster.urls : [server.url]);
      const version = await installedVersion(c.pkg);
      try {
        for (const blocking of [true, false]) {
          const inbox = new RedisInbox({
            client: opened.client,
            ...(blocking ? { blockingClient: opened.blocking } : {}),
            prefix: `{bench-${++n}}:`,
            durability: 'off',
          });
          const started = new Map<string, number>();
          const stop = new AbortController();
          const done = inbox.consume((e) => void started.set(e.id, performance.now()), { signal: stop.signal });
          const ms: number[] = [];
          for (let i = -1; i < events; i++) {
            await sleep(120);
            const id = `e${i}`;
            const t0 = performance.now();
            await inbox.append([{ id, type: 't', occurred_at: '2026-01-01T00:00:00.000Z', data: {} }]);
            const until = Date.now() + 40_000;
            while (!started.has(id) && Date.now() < until) await sleep(1);
            if (i >= 0) ms.push((started.get(id) ?? Number.POSITIVE_INFINITY) - t0); // e-1 warms up
          }
          stop.abort();
          await done;
          const f = (x: number): string => (Number.isFinite(x) ? x.toFixed(1) : 'lost');
          rows.push(
            `| ${c.name} | ${version} | ${where} | ${blocking ? 'BLOCK' : 'poll'} | ${f(quantile(ms, 0.5))} | ${f(quantile(ms, 0.95))} | ${f(Math.max(...ms))} |`,
          );
          console.error(rows.at(-1));
        }
      } finally {
        await opened.close();
      }
    }
  }
} finally {
  await Promise.all([server.stop(), cluster.stop()]);
}
console.log(`inbox latency, append → handler start, ${events} events per row (ms)\n`);
console.log('| client | version | Redis | idle worker | p50 | p95 | max |\n|---|---|---|---|---|---|---|');
console.log(rows.join('\n'));
process.exit(0);
