/** RESULTS.md sections about a call (per-call throughput and CPU, cold start): target rows and text. */
import { perCallShare, perCallTargets, type PerCallResult } from './per-call.js';
import {
  CATEGORY_LABEL,
  paysFor,
  PROFILE_CATEGORIES,
  type ProfileCategory,
  type VersusBare,
} from './per-call-profile.js';
import type { BenchResults } from './results.js';
import { type Push, type TargetRow, kib, ms, num, ratio, signedMs } from './report-format.js';

/** Section perCall: its rows of the results table. */
export function perCallRows(r: BenchResults): TargetRow[] {
  const rows: TargetRow[] = [];
  if (r.perCall) {
    for (const c of r.perCall.concurrencies) {
      const row = (client: string) => r.perCall!.rows.find((x) => x.client === client && x.concurrency === c)!;
      const o = row('ours');
      const f = row('fetch');
      const p = row('openapi-fetch');
      const of = row('ours-fetch');
      const nh = row('node-http');
      const share = perCallShare(c);
      const pass = perCallTargets(r.perCall.rows, c).vsNodeHttp;
      const vsBare = r.perCall.profiles.find((x) => x.concurrency === c)?.vsBare;
      rows.push({
        target: `2. Per-call (concurrency ${c}): ≥ ${share}× bare node:http keep-alive's calls/s (retries, timeouts, validation and auth on)`,
        measured: `${num(o.callsPerSec)} vs ${num(nh.callsPerSec)} calls/s (${ratio(o.callsPerSec, nh.callsPerSec)}); client CPU ${num(o.cpuUsPerCall)} vs ${num(nh.cpuUsPerCall)} µs/call (${ratio(o.cpuUsPerCall, nh.cpuUsPerCall)})${!pass && vsBare ? `; ${missExplanation(vsBare)}` : ''}`,
        pass,
      });
      rows.push({
        target: `2. (explanation) bare fetch and openapi-fetch (concurrency ${c})`,
        measured: `ours is ${ratio(o.callsPerSec, f.callsPerSec)} bare fetch's ${num(f.callsPerSec)} calls/s (client CPU ${num(f.cpuUsPerCall)} µs/call) and ${ratio(o.callsPerSec, p.callsPerSec)} openapi-fetch's ${num(p.callsPerSec)}`,
        pass: null,
      });
      rows.push({
        target: `2. (explanation) ours, fetch transport (concurrency ${c})`,
        measured: `${num(of.callsPerSec)} calls/s (${ratio(of.callsPerSec, f.callsPerSec)} bare fetch); client CPU ${num(of.cpuUsPerCall)} µs/call`,
        pass: null,
      });
    }
  }
  return rows;
}

/** Section coldStart: its rows of the results table. */
export function coldStartRows(r: BenchResults): TargetRow[] {
  const rows: TargetRow[] = [];
  if (r.coldStart) {
    const get = (a: string) => r.coldStart!.rows.find((x) => x.app === a)!;
    const o = get('ours-client');
    const b = get('bare-fetch');
    rows.push({
      target: '3. Cold start (import + first call): ≤ +30 ms over bare Node (issue 18)',
      // signed: ours can start faster than the floor (bare fetch loads undici on its first call; ours uses node:http)
      measured: `${ms(o.wallMs)} vs ${ms(b.wallMs)}: ${signedMs(o.wallMs - b.wallMs)} (funcs entry ${signedMs(get('ours-funcs').wallMs - b.wallMs)}; openapi-fetch ${signedMs(get('openapi-fetch').wallMs - b.wallMs)})`,
      pass: o.wallMs - b.wallMs <= 30,
    });
  }
  return rows;
}

/** Section perCall of RESULTS.md. */
export function renderPerCall(r: BenchResults, p: Push): void {
  if (r.perCall) {
    const pc = r.perCall;
    p('## 2. Per-call overhead', '');
    p(
      `${num(pc.count)} calls of \`users.get\` (GET /{org}/{app}/users/{username}, retry class Q) per measurement, after ${num(pc.warmup)} warm-up calls in the same process; ${pc.reps} repetitions of each (client, concurrency), each a fresh client process (\`scripts/bench/per-call-client.ts\`); the order of the clients rotates between repetitions (explanation rows: first repetition only). The server is a separate process. The peers use Node's global fetch (undici, keep-alive).`,
      '',
      '- **ours**: `new ImClient({ baseUrl, appKey, clientId, clientSecret })`, `im.users.get({ username })` with the defaults: the node:http transport (keep-alive agent), retries (maxRetries 2), a 60 s per-attempt timeout, request validation, the App Token exchanged once and cached.',
      "- **ours-fetch**: the same with `transport: 'fetch'` (the transport before issue 18).",
      '- **node-http**: bare `http.request` on a keep-alive `Agent` + `JSON.parse`: the ceiling of a node:http client, and the anchor of the per-call targets (ours ≥ 0.95× its calls/s at concurrency 1, ≥ 0.9× at 50; issue 33).',
      '- **ours, validation off**: the same with `validateRequests: false` (not a target: shows what validation costs).',
      "- **openapi-fetch**: `createClient<paths>({ baseUrl, headers: { Authorization } })`, `GET('/{org_name}/{app_name}/users/{username}', { params: { path } })`: static token, no validation, no retries.",
      '- **fetch**: bare `fetch(url, { headers })` + `res.json()`: the floor.',
      '',
    );
    p(
      '| client | concurrency | calls/s (median) | vs bare node:http | vs fetch | vs openapi-fetch | client CPU µs/call | calls/s per run |',
      '|---|---|---|---|---|---|---|---|',
    );
    for (const row of pc.rows) {
      const f = pc.rows.find((x) => x.client === 'fetch' && x.concurrency === row.concurrency)!;
      const o = pc.rows.find((x) => x.client === 'openapi-fetch' && x.concurrency === row.concurrency)!;
      const nh = pc.rows.find((x) => x.client === 'node-http' && x.concurrency === row.concurrency)!;
      const name =
        row.client === 'ours-novalid'
          ? 'ours, validation off (explanation)'
          : row.client === 'fetch-signal'
            ? 'fetch + AbortController pair + setTimeout + signal (explanation)'
            : row.client === 'ours-fetch'
              ? 'ours, fetch transport (explanation)'
              : row.client === 'node-http'
                ? 'bare node:http keep-alive (the anchor of the targets)'
                : row.client;
      p(
        `| ${name} | ${row.concurrency} | ${num(row.callsPerSec)} | ${ratio(row.callsPerSec, nh.callsPerSec)} | ${ratio(row.callsPerSec, f.callsPerSec)} | ${ratio(row.callsPerSec, o.callsPerSec)} | ${num(row.cpuUsPerCall)} | ${row.runs.join(', ')} |`,
      );
    }
    p('');
    const at = (client: string, c: number) => pc.rows.find((x) => x.client === client && x.concurrency === c)!;
    const c1 = pc.concurrencies[0]!;
    const why = [
      `Transport: at concurrency ${c1} ours (node:http) does ${num(at('ours', c1).callsPerSec)} calls/s, ours through fetch ${num(at('ours-fetch', c1).callsPerSec)}, bare node:http ${num(at('node-http', c1).callsPerSec)}, bare fetch ${num(at('fetch', c1).callsPerSec)}.`,
      `Client CPU per call at concurrency ${c1}: ours ${num(at('ours', c1).cpuUsPerCall)} µs, bare fetch ${num(at('fetch', c1).cpuUsPerCall)} µs: ${num(Math.abs(at('ours', c1).cpuUsPerCall - at('fetch', c1).cpuUsPerCall))} µs ${at('ours', c1).cpuUsPerCall >= at('fetch', c1).cpuUsPerCall ? 'more' : 'less'} per call; ours through fetch ${num(at('ours-fetch', c1).cpuUsPerCall)} µs, bare node:http ${num(at('node-http', c1).cpuUsPerCall)} µs.`,
      `Request validation: ours with it ${num(at('ours', c1).cpuUsPerCall)} µs vs without ${num(at('ours-novalid', c1).cpuUsPerCall)} µs per call.${pc.validator ? ` The Ajv validator itself takes ${num(pc.validator.validateUs, 2)} µs; \`await op.loadValidator()\` (a dynamic \`import()\`) takes ${num(pc.validator.loadUs, 2)} µs, but the client runs it only on an operation's first call and keeps the validator (${num(pc.count)} iterations each, same process, after warm-up).` : ''}`,
      `The per-attempt timeout machinery: bare fetch with an AbortController pair, a timer and the signal costs ${num(at('fetch-signal', c1).cpuUsPerCall)} µs per call vs ${num(at('fetch', c1).cpuUsPerCall)} µs without (undici does more work for a fetch that carries a signal).`,
    ];
    p('### Where the time goes', '', ...why.map((x) => `- ${x}`), '');
    for (const pr of pc.profiles) {
      p(
        `### Where our client spends its CPU at concurrency ${pr.concurrency}${pr.missed ? ' (a target missed here)' : ''}`,
        '',
      );
      p(
        `One more run of **ours** (${num(pc.count)} calls, concurrency ${pr.concurrency}) under \`node --cpu-prof\`: self time by where the code lives (${ms(pr.totalMs)} busy in all, idle excluded; ${num((pr.totalMs * 1000) / pc.count, 1)} µs per call under the profiler).`,
        '',
      );
      p('| where | self time | share of busy |', '|---|---|---|');
      for (const g of pr.groups.filter((x) => !x.name.startsWith('(idle')).slice(0, 14))
        p(
          `| ${g.name} | ${ms(g.ms)} (${num((g.ms * 1000) / pc.count, 1)} µs/call) | ${num((100 * g.ms) / pr.totalMs, 1)} % |`,
        );
      const pkgMs = pr.groups.filter((x) => x.name.startsWith('im-server-sdk')).reduce((a, x) => a + x.ms, 0);
      p(
        '',
        `Code of the package itself: ${ms(pkgMs)} self time (${num((100 * pkgMs) / pr.totalMs, 1)} % of busy, ${num((pkgMs * 1000) / pc.count, 1)} µs per call); what it asks of Node (http, sockets, timers, promises) is counted under node internals. Its busiest functions:`,
        '',
      );
      p(
        '| function — file | self time | pays for |',
        '|---|---|---|',
        ...pr.topFunctions.map((f) => `| ${f.name} | ${ms(f.ms)} | ${paysFor(f.name) ?? '–'} |`),
        '',
      );
      if (pr.vsBare) renderVersusBare(pr.vsBare, pr.concurrency, measuredCpu(pc, pr.concurrency), p);
    }
  }
}

/** Client CPU per call of ours and bare node:http at one concurrency, as measured (not profiled). */
function measuredCpu(pc: PerCallResult, c: number): { ours: number; bare: number } {
  const cpu = (client: string) => pc.rows.find((x) => x.client === client && x.concurrency === c)!.cpuUsPerCall;
  return { ours: cpu('ours'), bare: cpu('node-http') };
}

const us = (x: number): string => num(x, 1);
const signedUs = (x: number): string => `${x >= 0 ? '+' : '−'}${num(Math.abs(x), 1)}`;

/** Why a per-call row misses: ours and bare node:http profiled alike, by category and by Node function. */
export function renderVersusBare(
  v: VersusBare,
  concurrency: number,
  cpu: { ours: number; bare: number },
  p: Push,
): void {
  const total = (x: Record<ProfileCategory, number>) => PROFILE_CATEGORIES.reduce((a, c) => a + x[c], 0);
  p(
    `#### Why concurrency ${concurrency} misses: ours against bare node:http, profiled alike`,
    '',
    `Measured without the profiler: client CPU ${us(cpu.ours)} vs ${us(cpu.bare)} µs per call (${signedUs(cpu.ours - cpu.bare)} µs). Under \`--cpu-prof\`, one run of each (${num(v.calls)} calls each: warm-up and measured; µs per call = self time ÷ those calls; idle excluded):`,
    '',
    '| where | ours µs/call | bare node:http µs/call | ours − bare |',
    '|---|---|---|---|',
    ...PROFILE_CATEGORIES.map(
      (c) => `| ${CATEGORY_LABEL[c]} | ${us(v.ours[c])} | ${us(v.bare[c])} | ${signedUs(v.ours[c] - v.bare[c])} |`,
    ),
    `| all busy | ${us(total(v.ours))} | ${us(total(v.bare))} | ${signedUs(total(v.ours) - total(v.bare))} |`,
    '',
  );
  if (v.nodeExtra.length > 0)
    p(
      'Node functions (self time) where ours spends more than bare node:http: what the package asks of Node beyond one keep-alive request:',
      '',
      '| Node function — file | ours µs/call | bare µs/call | ours − bare |',
      '|---|---|---|---|',
      ...v.nodeExtra.map((f) => `| ${f.name} | ${us(f.oursUs)} | ${us(f.bareUs)} | ${signedUs(f.oursUs - f.bareUs)} |`),
      '',
    );
  if (v.nodeLess.length > 0)
    p(
      `Where ours spends less than bare in Node (its flat header array, its own agent): ${v.nodeLess
        .slice(0, 5)
        .map((f) => `${f.name} ${signedUs(f.oursUs - f.bareUs)}`)
        .join('; ')} µs/call.`,
      '',
    );
}

/** The row's short explanation of a miss: the profiled difference by category (section 2 has the rest). */
export function missExplanation(v: VersusBare): string {
  const parts = PROFILE_CATEGORIES.map((c) => ({ c, d: v.ours[c] - v.bare[c] }))
    .filter((x) => Math.abs(x.d) >= 0.05)
    .sort((a, b) => b.d - a.d)
    .map((x) => `${CATEGORY_LABEL[x.c].split(' (')[0]} ${signedUs(x.d)}`);
  return `by profile, ours − bare node:http per call: ${parts.join(', ')} µs (section 2)`;
}

/** Section coldStart of RESULTS.md. */
export function renderColdStart(r: BenchResults, p: Push): void {
  if (r.coldStart) {
    const cs = r.coldStart;
    p('## 3. Cold start', '');
    p(
      `A fresh \`node cold-<app>.mjs <baseUrl>\` per run: import, then the first call to the bench server (already running, its own process); wall time from spawn to exit measured by the parent, median of ${cs.runs} runs after one unmeasured round, apps interleaved. Inside each process, \`performance.now()\` (which counts from process start) gives when the import finished and when the first answer arrived. Ours does a token exchange (POST /token) before its first call; the peers send a static token.`,
      '',
    );
    const bare = cs.rows.find((x) => x.app === 'bare-fetch')!;
    p(
      '| app | wall (median) | over bare Node | CPU | import done at | first answer at | module files at import | loaded by the first call | runs (ms) |',
      '|---|---|---|---|---|---|---|---|---|',
    );
    const oc = cs.rows.find((x) => x.app === 'ours-client')!;
    const mods = (m: { n: number; b: number } | undefined) => (m === undefined ? '–' : `${num(m.n)} (${kib(m.b)})`);
    for (const row of cs.rows) {
      const m = row.modules;
      p(
        `| ${row.label} | ${ms(row.wallMs)} | ${row.app === 'node-empty' ? '–' : `${row.wallMs - bare.wallMs >= 0 ? '+' : ''}${ms(row.wallMs - bare.wallMs)}`} | ${ms(row.cpuMs)} | ${ms(row.importedAtMs)} | ${ms(row.answeredAtMs)} | ${mods(m && { n: m.importModules, b: m.importBytes })} | ${mods(m && { n: m.firstCallModules, b: m.firstCallBytes })} | ${row.runsMs.join(', ')} |`,
      );
    }
    const callMs = (x: (typeof cs.rows)[number] | undefined) =>
      x ? (x.answeredAtMs ?? NaN) - (x.importedAtMs ?? NaN) : NaN;
    const why = [
      `Import: ours finishes importing ${ms((oc.importedAtMs ?? 0) - (bare.importedAtMs ?? 0))} after bare Node reaches the same point${oc.modules ? `, having loaded ${num(oc.modules.importModules)} module files (${kib(oc.modules.importBytes)}) where bare Node loads none` : ''}. Module files are counted by one more, unmeasured run of each app under a \`load\` hook (node:module \`register\`).`,
      `First call: ours takes ${ms(callMs(oc))} from the end of its import to its answer (token exchange, validator module load, the call) against ${ms(callMs(bare))} for bare fetch's one request${cs.rows.some((x) => x.app === 'bare-fetch-2') ? ` and ${ms(callMs(cs.rows.find((x) => x.app === 'bare-fetch-2')))} for bare fetch doing what our first call sends (POST /token, then the GET)` : ''}${cs.rows.some((x) => x.app === 'ours-novalid') ? `; with validation off (no validator module to load) ours takes ${ms(callMs(cs.rows.find((x) => x.app === 'ours-novalid')))}` : ''}. Node's fetch (undici) loads on the first fetch of a process, in bare Node as in ours.`,
    ];
    p('', ...why.flatMap((x) => [`- ${x}`]), '');
  }
}
