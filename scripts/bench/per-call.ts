/**
 * 2. Per-call overhead: N calls of users.get through our client (node:http transport, and fetch
 * transport as an explanation), openapi-fetch, bare fetch and bare node:http to the bench server
 * (its own process), at concurrency 1 and 50. Each measurement is a fresh client process
 * (warm-up calls first, not counted); the order of the clients rotates from one repetition to
 * the next. Then extra runs of our client under --cpu-prof tell where its client-side CPU goes:
 * at each concurrency where a target of issue 33 was missed (else at concurrency 1).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { median, profileSelfTime, runJsonChild, startBenchServer, tempDir } from './lib.js';

export const PER_CALL_CLIENTS = [
  'ours',
  'openapi-fetch',
  'fetch',
  'ours-fetch',
  'node-http',
  'ours-novalid',
  'fetch-signal',
] as const;
/**
 * Explanations, not targets: measured in the first repetition only (bare node:http anchors the
 * targets: every repetition).
 */
const EXPLAIN: readonly string[] = ['ours-novalid', 'fetch-signal'];
type Client = (typeof PER_CALL_CLIENTS)[number];

interface Sample {
  client: Client;
  concurrency: number;
  callsPerSec: number;
  cpuUsPerCall: number;
  wallMs: number;
}

export interface PerCallResult {
  count: number;
  warmup: number;
  reps: number;
  concurrencies: number[];
  rows: { client: Client; concurrency: number; callsPerSec: number; cpuUsPerCall: number; runs: number[] }[];
  validator: { loadUs: number; validateUs: number } | null;
  /** CPU profiles of ours: at each concurrency where it missed a target (else at the first concurrency). */
  profiles: {
    concurrency: number;
    missed: boolean;
    totalMs: number;
    groups: { name: string; ms: number }[];
    topFunctions: { name: string; ms: number }[];
  }[];
}

export async function benchPerCall(opts: {
  count: number;
  warmup: number;
  reps: number;
  concurrencies: number[];
  esmEntry: string;
  pkgDir: string;
  profile: boolean;
}): Promise<PerCallResult> {
  const server = await startBenchServer();
  const samples: Sample[] = [];
  const profiles: PerCallResult['profiles'] = [];
  let validator: PerCallResult['validator'] = null;
  try {
    for (let rep = 0; rep < opts.reps; rep++) {
      for (const concurrency of opts.concurrencies) {
        const order = PER_CALL_CLIENTS.map((_, i) => PER_CALL_CLIENTS[(i + rep) % PER_CALL_CLIENTS.length]!).filter(
          (c) => rep === 0 || !EXPLAIN.includes(c),
        );
        for (const client of order) {
          const r = await runJsonChild<Sample>('per-call-client.ts', [
            client,
            String(opts.count),
            String(concurrency),
            String(opts.warmup),
            server.baseUrl,
            opts.esmEntry,
          ]);
          samples.push({ ...r, client, concurrency });
        }
      }
    }
    validator = await runJsonChild<{ loadUs: number; validateUs: number }>('per-call-client.ts', [
      'validator-load',
      String(opts.count),
      '1',
      String(opts.warmup),
      server.baseUrl,
      opts.esmEntry,
    ]);
    if (opts.profile) {
      // A profile explains each concurrency where ours misses a target (issue 18); none missed: concurrency 1 as before.
      const summary = summarise(samples, opts.concurrencies);
      const missed = opts.concurrencies.filter((c) => missesAt(summary, c));
      for (const concurrency of missed.length ? missed : opts.concurrencies.slice(0, 1)) {
        const p = await profileOurs(server.baseUrl, opts, concurrency);
        if (p) profiles.push({ ...p, concurrency, missed: missed.includes(concurrency) });
      }
    }
  } finally {
    await server.stop();
  }
  return {
    count: opts.count,
    warmup: opts.warmup,
    reps: opts.reps,
    concurrencies: opts.concurrencies,
    rows: summarise(samples, opts.concurrencies),
    validator,
    profiles,
  };
}

function summarise(samples: Sample[], concurrencies: number[]): PerCallResult['rows'] {
  const rows: PerCallResult['rows'] = [];
  for (const concurrency of concurrencies) {
    for (const client of PER_CALL_CLIENTS) {
      const mine = samples.filter((s) => s.client === client && s.concurrency === concurrency);
      rows.push({
        client,
        concurrency,
        callsPerSec: median(mine.map((s) => s.callsPerSec)),
        cpuUsPerCall: median(mine.map((s) => s.cpuUsPerCall)),
        runs: mine.map((s) => Math.round(s.callsPerSec)),
      });
    }
  }
  return rows;
}

/**
 * The share of bare node:http keep-alive's calls/s that ours must reach at each concurrency
 * (issue 33: node:http itself is ~1.35× bare fetch on this box, so the old "≥ 1.5× bare fetch"
 * could not pass; node:http is the limit any node client works against).
 */
export const PER_CALL_SHARE_OF_NODE_HTTP: Readonly<Record<number, number>> = { 1: 0.95, 50: 0.9 };

/** The share of bare node:http's calls/s required at `concurrency` (0.9 where issue 33 names none). */
export function perCallShare(concurrency: number): number {
  return PER_CALL_SHARE_OF_NODE_HTTP[concurrency] ?? 0.9;
}

/** Issue 33's per-call target at one concurrency: ours (everything on) ≥ the share of bare node:http's calls/s. */
export function perCallTargets(rows: PerCallResult['rows'], concurrency: number): { vsNodeHttp: boolean } {
  const at = (client: Client) => rows.find((x) => x.client === client && x.concurrency === concurrency)!;
  return { vsNodeHttp: at('ours').callsPerSec >= perCallShare(concurrency) * at('node-http').callsPerSec };
}

function missesAt(rows: PerCallResult['rows'], concurrency: number): boolean {
  return !perCallTargets(rows, concurrency).vsNodeHttp;
}

/** One more run of ours under --cpu-prof at `concurrency`: self time by where the code lives. */
async function profileOurs(
  baseUrl: string,
  opts: { count: number; warmup: number; esmEntry: string; pkgDir: string },
  concurrency: number,
): Promise<Omit<PerCallResult['profiles'][number], 'concurrency' | 'missed'> | null> {
  const dir = tempDir('prof');
  await runJsonChild<Sample>(
    'per-call-client.ts',
    ['ours', String(opts.count), String(concurrency), String(opts.warmup), baseUrl, opts.esmEntry],
    {
      nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`],
    },
  );
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) return null;
  const pkg = join(opts.pkgDir, 'dist/esm/');
  const groupOf = (url: string, fn: string): string => {
    if (fn === '(idle)') return '(idle: waiting for the server)';
    if (fn === '(garbage collector)') return 'garbage collection';
    if (fn === '(program)') return 'V8/native (program)';
    if (url.includes(pkg)) {
      const rel = url.slice(url.indexOf(pkg) + pkg.length);
      if (rel.startsWith('validators/')) return 'im-server-sdk: request validator';
      return `im-server-sdk: ${rel}`;
    }
    if (url.includes('undici')) return 'undici (fetch)';
    if (url.startsWith('node:') || url === '') return 'node internals (http, streams, timers, promises)';
    return 'other (tsx loader, bench driver)';
  };
  const all = profileSelfTime(join(dir, file), groupOf);
  const busy = all.filter((g) => !g.name.startsWith('(idle'));
  const totalMs = busy.reduce((a, g) => a + g.ms, 0);
  const topFunctions = profileSelfTime(join(dir, file), (url, fn) =>
    url.includes(pkg) ? `${fn || '(anonymous)'} — ${url.slice(url.indexOf(pkg) + pkg.length)}` : '',
  )
    .filter((g) => g.name !== '')
    .slice(0, 8);
  return { totalMs, groups: all, topFunctions };
}
