/**
 * Issue 29 item 3: `im-callbacks simulate --state-url` judges the receiver after it settles. The
 * receiver is the README's inbox pattern: the handler stores each verified event in an inbox and
 * answers 2xx; workers (4 at a time, 300 ms an event) process them later, committing the current
 * state per entity behind the ordering guard, which skips older events (reported through
 * `onSuperseded`). Its harness serves `processed`, `stored`, `current` and `superseded`.
 *
 * Before the fix the simulator read the state right after the last delivery (2 s at most) and
 * reported `acknowledged_not_processed` and `older_over_newer` for events still in the inbox; the
 * contrast run with `--settle-timeout-ms 0` shows that reading. A receiver that acknowledges and
 * then drops events still gets `acknowledged_not_processed` once its state stops changing.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryInbox } from '../inbox/memory-inbox.js';
import { createNodeCallbackHandler } from '../node.js';
import type { CallbackEvent } from '../types.js';
import type { SimulationReport } from './report.js';

const SECRET = 'whsec_settle_K8q2';
const cli = fileURLToPath(new URL('../../../../scripts/im-callbacks.ts', import.meta.url));
const servers: Server[] = [];
const stops: AbortController[] = [];
const dir = mkdtempSync(join(tmpdir(), 'im-settle-'));

afterAll(async () => {
  for (const s of stops) s.abort();
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  rmSync(dir, { recursive: true, force: true });
});

/** The entity a versioned event of the simulator changes (the seed names no key field for friend.added and presence.changed). */
function entityOf(event: CallbackEvent): string | undefined {
  const d = event.data as Record<string, unknown>;
  if (event.type === 'group.members_added') return `group:${String(d.group_id)}`;
  if (event.type === 'friend.added') return `friend:${String(d.username)}:${String(d.friend)}`;
  if (event.type === 'presence.changed') return `presence:${String(d.username)}`;
  return undefined;
}

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The README's inbox receiver with slow workers; `drop` acknowledges an event without processing it (a bug). */
async function inboxReceiver(
  workMs: number,
  drop: (event: CallbackEvent) => boolean = () => false,
): Promise<{ url: string; stateUrl: string }> {
  const inbox = new MemoryInbox({ ordering: { entityOf } });
  const stored = new Set<string>();
  const append = inbox.append.bind(inbox);
  inbox.append = async (events) => {
    const result = await append(events);
    for (const e of events) stored.add(e.id);
    return result;
  };
  const processed: Record<string, number> = {};
  const superseded: string[] = [];
  const entities = new Set<string>();
  const stop = new AbortController();
  stops.push(stop);
  void inbox.consume(
    async (event, ctx) => {
      await new Promise((r) => setTimeout(r, workMs));
      if (drop(event)) return; // acknowledged, never processed
      const entity = entityOf(event);
      if (entity !== undefined) entities.add(entity);
      await ctx.commit(entity === undefined ? [] : [{ op: 'set', key: `cur:${entity}`, value: event.id }]);
      processed[event.id] = (processed[event.id] ?? 0) + 1;
    },
    {
      concurrency: 4,
      signal: stop.signal,
      onSuperseded: (event) => void superseded.push(event.id),
      onError: () => undefined,
    },
  );
  const url = await listen(createServer(createNodeCallbackHandler({ secrets: SECRET, inbox, logger: {} })));
  const stateUrl = await listen(
    createServer((_req, res) => {
      void (async () => {
        const current: Record<string, string> = {};
        for (const entity of entities) {
          const id = await inbox.getState(`cur:${entity}`);
          if (id !== null) current[entity] = id;
        }
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ processed, stored: [...stored], current, superseded }));
      })();
    }),
  );
  return { url: `${url}/callbacks`, stateUrl: `${stateUrl}/state` };
}

function simulate(args: string[]): Promise<{ code: number; out: string; report: SimulationReport }> {
  const json = join(dir, `report-${Math.random().toString(36).slice(2)}.json`);
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', cli, 'simulate', '--seed', '29', '--events', '60', '--hooks', '0', '--json', json, ...args],
      { env: { ...process.env, IM_CALLBACK_SECRET: SECRET }, timeout: 120_000 },
      (err, stdout, stderr) => {
        const code = err
          ? typeof (err as { code?: unknown }).code === 'number'
            ? (err as { code: number }).code
            : 1
          : 0;
        resolve({ code, out: stdout + stderr, report: JSON.parse(readFileSync(json, 'utf8')) as SimulationReport });
      },
    );
  });
}

const codes = (r: SimulationReport): string[] =>
  r.findings
    .filter((f) => f.severity !== 'info')
    .map((f) => f.code)
    .sort();

describe('im-callbacks simulate --state-url judges the receiver once it settles', () => {
  it('workers at 300 ms an event (the inbox pattern, ordering guard on): a clean report once every event is processed or superseded', async () => {
    const r = await inboxReceiver(300);
    const { code, out, report } = await simulate(['--url', r.url, '--state-url', r.stateUrl]);
    expect(codes(report), out).toEqual([]);
    expect(code).toBe(0);
    expect(report.settle?.outcome).toBe('handled');
    expect(report.settle!.waitedMs).toBeGreaterThan(500); // the workers were still busy when the deliveries ended
    const delivered = report.events.filter((e) => e.deliveries.some((d) => d.state === 'delivered')).map((e) => e.id);
    const state = (await (await fetch(r.stateUrl)).json()) as {
      processed: Record<string, number>;
      superseded: string[];
    };
    expect(state.superseded.length).toBeGreaterThan(0); // the guard skipped older versions: they count as handled
    expect(delivered.every((id) => state.processed[id] === 1 || state.superseded.includes(id))).toBe(true);
    expect(out).toContain('after the last delivery (every delivered event handled');
  }, 120_000);

  it('read at once (--settle-timeout-ms 0), the same receiver looks as the issue saw it: events not yet processed, a settle warning', async () => {
    const r = await inboxReceiver(300);
    const { code, report } = await simulate(['--url', r.url, '--state-url', r.stateUrl, '--settle-timeout-ms', '0']);
    expect(code).toBe(1);
    expect(codes(report)).toEqual(expect.arrayContaining(['acknowledged_not_processed', 'receiver_not_settled']));
    expect(report.settle?.outcome).toBe('timeout');
  }, 120_000);

  it('a receiver that acknowledges and drops events still gets acknowledged_not_processed once its state stops changing', async () => {
    const r = await inboxReceiver(20, (event) => event.type === 'user.session_created');
    const { code, report } = await simulate(['--url', r.url, '--state-url', r.stateUrl, '--settle-quiet-ms', '800']);
    expect(code).toBe(1);
    expect(codes(report)).toEqual(['acknowledged_not_processed']);
    expect(report.settle?.outcome).toBe('quiet');
    const dropped = report.events.filter(
      (e) => e.type === 'user.session_created' && e.deliveries[0]?.state === 'delivered',
    ).length;
    expect(report.findings.find((f) => f.code === 'acknowledged_not_processed')!.count).toBe(dropped);
  }, 120_000);
});
