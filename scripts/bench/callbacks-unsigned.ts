/**
 * CPU per UNSIGNED callback request (issue 28 item 6): 1 MB bodies with a forged signature, one
 * kind that contains `"hook"` (`"kind":"hook"`, `timeout_ms`) and one that does not, through the
 * node handler's byte entry (what node:http, Express, Koa and the Fastify plugin call). Before
 * issue 28 a body containing "hook" was decoded and JSON-parsed before its signature was checked.
 *
 *   npx tsx scripts/bench/callbacks-unsigned.ts [runtime dir, default templates/runtime] [requests, default 300]
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(process.argv[2] ?? 'templates/runtime');
const n = Number(process.argv[3] ?? 300);
const { createCallbackHandler } = (await import(
  pathToFileURL(`${root}/callbacks/node.ts`).href
)) as typeof import('../../templates/runtime/callbacks/node.js');
const { signCallbackRequest } = (await import(
  pathToFileURL(`${root}/callbacks/sign.ts`).href
)) as typeof import('../../templates/runtime/callbacks/sign.js');

const SECRET = 'whsec_bench_unsigned';
const handler = createCallbackHandler({
  secrets: SECRET,
  onEvent: () => undefined,
  onHook: () => ({ decision: 'allow' }) as never,
});
const internals = (
  handler as unknown as Record<
    symbol,
    { handleBytes: (m: string, h: Record<string, string>, b: Uint8Array, t: number) => Promise<{ status: number }> }
  >
)[Symbol.for('im-server-sdk.callbacks.handler')]!;
const pad = 'x'.repeat(1024 * 1024 - 300);
const bodies = {
  'hook (contains "hook")': { kind: 'hook', hook: 'message.before_send', timeout_ms: 3000, data: { pad } },
  'event (no "hook")': { kind: 'event', events: [{ id: 'e1', type: 'friend.added', data: { pad } }] },
};
for (const [name, body] of Object.entries(bodies)) {
  const signed = signCallbackRequest({ body, secrets: SECRET });
  const headers = { ...signed.headers, 'X-IM-Signature': `v1=${'0'.repeat(64)}` } as Record<string, string>;
  const bytes = new TextEncoder().encode(signed.body);
  for (let i = 0; i < 20; i++) await internals.handleBytes('POST', headers, bytes, Date.now()); // warm up
  const cpu = process.cpuUsage();
  const wall = performance.now();
  let refused = 0;
  for (let i = 0; i < n; i++)
    if ((await internals.handleBytes('POST', headers, bytes, Date.now())).status === 401) refused++;
  const used = process.cpuUsage(cpu);
  const ms = (used.user + used.system) / 1000 / n;
  console.log(
    `${name}: ${bytes.byteLength} bytes, ${refused}/${n} refused 401, ${ms.toFixed(3)} ms CPU per request (${Math.round(1000 / ms)} requests/s per core), wall ${((performance.now() - wall) / n).toFixed(3)} ms`,
  );
}
