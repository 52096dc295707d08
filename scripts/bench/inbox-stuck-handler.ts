/**
 * Issue 28 item 1, the red team's case: 3 workers × concurrency 1 on a MemoryInbox (visibility
 * 1 s), 200 events of 30 ms each, one handler that never settles. Prints how long until the other
 * 199 are processed and the stuck one dead-lettered, and how long `consume()` takes to resolve
 * after its signal aborts.
 *
 *   npx tsx scripts/bench/inbox-stuck-handler.ts [repo root of the version to measure, default .]
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(process.argv[2] ?? '.');
const { MemoryInbox } = (await import(
  pathToFileURL(`${root}/templates/runtime/callbacks/inbox/memory-inbox.ts`).href
)) as typeof import('../../templates/runtime/callbacks/inbox/memory-inbox.js');
const inbox = new MemoryInbox({ visibilityTimeoutMs: 1000 });
await inbox.append(
  Array.from({ length: 200 }, (_, i) => ({
    id: `s${i}`,
    type: 't',
    occurred_at: '2026-01-01T00:00:00.000Z',
    data: {},
  })),
);
const never = new Promise(() => undefined);
const ctrls = [0, 1, 2].map(() => new AbortController());
const t0 = Date.now();
const done: Promise<void>[] = ctrls.map((c, i) =>
  inbox.consume(
    async (e: { id: string }) => {
      if (e.id === 's7') await never;
      await new Promise((r) => setTimeout(r, 30));
    },
    {
      consumer: `k${i}`,
      concurrency: 1,
      maxAttempts: 3,
      handlerTimeoutMs: 200,
      backoff: { baseMs: 5, maxMs: 20 },
      signal: c.signal,
    },
  ),
);
let settledAt: number | undefined;
while (Date.now() - t0 < 10000) {
  const st = await inbox.stats();
  if (settledAt === undefined && st.processed === 199 && st.deadLetters === 1) settledAt = Date.now() - t0;
  if (settledAt !== undefined) break;
  await new Promise((r) => setTimeout(r, 20));
}
const st = await inbox.stats();
ctrls.forEach((c) => c.abort());
const a0 = Date.now();
const resolved = await Promise.race([
  Promise.all(done).then(() => Date.now() - a0),
  new Promise((r) => setTimeout(() => r('not within 12 s'), 12_000)),
]);
console.log(
  JSON.stringify({
    settledMs: settledAt ?? 'not within 10 s',
    processed: st.processed,
    dead: st.deadLetters,
    consumeResolvedAfterAbortMs: resolved,
  }),
);
process.exit(0);
