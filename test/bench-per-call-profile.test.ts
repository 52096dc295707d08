/**
 * The per-call section's explanation of a miss (issue 33): when ours misses its share of bare
 * node:http, the bench profiles both alike and RESULTS.md prints, from those profiles, ours and
 * bare side by side by category and the Node functions where ours spends more. Here from a
 * synthetic profile file and a small results object (the real profiles need `npm run bench`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PER_CALL_CLIENTS, type PerCallResult } from '../scripts/bench/per-call.js';
import {
  categoryOf,
  functionTimes,
  paysFor,
  versusBare,
  type FunctionTime,
} from '../scripts/bench/per-call-profile.js';
import { perCallRows, renderPerCall } from '../scripts/bench/report-call-sections.js';
import type { BenchResults } from '../scripts/bench/results.js';

const PKG = '/tmp/build/im-server-sdk/dist/esm/';
const dir = mkdtempSync(join(tmpdir(), 'bench-per-call-profile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A .cpuprofile whose samples give each (function, url) the self time asked for (1 sample = 1 ms). */
function profileFile(name: string, selfMs: [fn: string, url: string, ms: number][]): string {
  const nodes = [
    { id: 1, callFrame: { functionName: '(root)', url: '' } },
    ...selfMs.map(([fn, url], i) => ({ id: i + 2, callFrame: { functionName: fn, url } })),
  ];
  const samples: number[] = [];
  selfMs.forEach(([, , ms], i) => {
    for (let k = 0; k < ms; k++) samples.push(i + 2);
  });
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify({ nodes, samples, timeDeltas: samples.map(() => 1000) }));
  return file;
}

const ours = functionTimes(
  profileFile('ours.cpuprofile', [
    ['writeLatin1String', '', 300],
    ['addRequest', 'node:_http_agent', 60],
    ['setTimeout', 'node:timers', 20],
    ['sendWithRetries', `file://${PKG}chunks/chunk-A.js`, 40],
    ['validate0', `file://${PKG}chunks/usersGet-X.js`, 10],
    ['(garbage collector)', '', 50],
    ['(program)', '', 30],
    ['(idle)', '', 500],
    ['drive', 'file:///tmp/apps/per-call-client.mjs', 5],
  ]),
  PKG,
);
const bare = functionTimes(
  profileFile('bare.cpuprofile', [
    ['writeLatin1String', '', 280],
    ['addRequest', 'node:_http_agent', 70],
    ['(garbage collector)', '', 30],
    ['(program)', '', 30],
    ['(idle)', '', 400],
    ['drive', 'file:///tmp/apps/per-call-client.mjs', 15],
  ]),
  PKG,
);

describe('per-call profiles: ours against bare node:http', () => {
  it('puts each profile node in its category', () => {
    expect(categoryOf('node:net', 'Socket.connect', PKG)).toBe('node');
    expect(categoryOf('', 'writeLatin1String', PKG)).toBe('node');
    expect(categoryOf(`file://${PKG}index.js`, 'x', PKG)).toBe('package');
    expect(categoryOf('', '(garbage collector)', PKG)).toBe('gc');
    expect(categoryOf('', '(program)', PKG)).toBe('program');
    expect(categoryOf('', '(idle)', PKG)).toBe('idle');
    expect(categoryOf('file:///tmp/apps/per-call-client.mjs', 'drive', PKG)).toBe('other');
  });

  it('reads self time per function from a .cpuprofile, named with its file', () => {
    const byName = (fns: FunctionTime[], name: string) => fns.find((f) => f.name === name);
    expect(byName(ours, 'sendWithRetries — chunks/chunk-A.js')).toEqual({
      name: 'sendWithRetries — chunks/chunk-A.js',
      category: 'package',
      ms: 40,
    });
    expect(byName(ours, 'writeLatin1String — (native)')).toMatchObject({ category: 'node', ms: 300 });
    expect(byName(ours, 'addRequest — node:_http_agent')).toMatchObject({ category: 'node', ms: 60 });
  });

  it('compares by category and lists the Node functions where ours spends more (µs per call)', () => {
    const v = versusBare(ours, bare, 10_000);
    expect(v.calls).toBe(10_000);
    // 380 ms of node internals over 10,000 calls = 38 µs per call; bare 350 ms = 35
    expect(v.ours).toEqual({ node: 38, package: 5, gc: 5, program: 3, other: 0.5 });
    expect(v.bare).toEqual({ node: 35, package: 0, gc: 3, program: 3, other: 1.5 });
    expect(v.nodeExtra).toEqual([
      { name: 'writeLatin1String — (native)', oursUs: 30, bareUs: 28 },
      { name: 'setTimeout — node:timers', oursUs: 2, bareUs: 0 },
    ]);
    expect(v.nodeLess).toEqual([{ name: 'addRequest — node:_http_agent', oursUs: 6, bareUs: 7 }]);
  });

  it('names what a package function pays for, and nothing for a name it does not know', () => {
    expect(paysFor('validate0 — chunks/usersGet-X.js')).toMatch(/validation/);
    expect(paysFor('parseSuccessBody — chunks/chunk-A.js')).toMatch(/lossless/);
    expect(paysFor('readyToken — chunks/chunk-A.js')).toMatch(/App Token/);
    expect(paysFor('sendCall — chunks/chunk-A.js')).toMatch(/dedupe key/);
    expect(paysFor('somethingElse — chunks/chunk-A.js')).toBeUndefined();
  });
});

describe('RESULTS.md: a per-call miss explained by profile', () => {
  const rows = (c: number, ours: number, bareRate: number) =>
    PER_CALL_CLIENTS.map((client) => ({
      client,
      concurrency: c,
      callsPerSec: client === 'ours' ? ours : bareRate,
      cpuUsPerCall: client === 'ours' ? 44 : 29,
      runs: [1],
    }));
  const perCall = (oursAt50: number): PerCallResult => ({
    count: 10_000,
    warmup: 0,
    reps: 1,
    concurrencies: [1, 50],
    rows: [...rows(1, 7_500, 7_700), ...rows(50, oursAt50, 36_000)],
    validator: null,
    profiles: [
      {
        concurrency: 50,
        missed: oursAt50 < 0.9 * 36_000,
        totalMs: 515,
        groups: [{ name: 'im-server-sdk: chunks/chunk-A.js', ms: 40 }],
        topFunctions: [{ name: 'validate0 — chunks/usersGet-X.js', ms: 10 }],
        ...(oursAt50 < 0.9 * 36_000 ? { vsBare: versusBare(ours, bare, 10_000) } : {}),
      },
    ],
  });
  const render = (pc: PerCallResult) => {
    const lines: string[] = [];
    renderPerCall({ perCall: pc } as BenchResults, (...l) => lines.push(...l));
    return lines.join('\n');
  };

  it('the missed row says the profiled difference by category, and section 2 prints both profiles side by side', () => {
    const pc = perCall(24_000);
    const row = perCallRows({ perCall: pc } as BenchResults).find((x) => x.target.includes('concurrency 50'))!;
    expect(row.pass).toBe(false);
    expect(row.measured).toContain(
      'by profile, ours − bare node:http per call: package code +5.0, node internals +3.0, garbage collection +2.0, bench driver and loader −1.0 µs',
    );
    const text = render(pc);
    expect(text).toContain('#### Why concurrency 50 misses: ours against bare node:http, profiled alike');
    expect(text).toContain('Measured without the profiler: client CPU 44.0 vs 29.0 µs per call (+15.0 µs)');
    expect(text).toContain('| node internals (http, sockets, streams, timers, promises) | 38.0 | 35.0 | +3.0 |');
    expect(text).toContain('| package code (im-server-sdk) | 5.0 | 0.0 | +5.0 |');
    expect(text).toContain('| garbage collection | 5.0 | 3.0 | +2.0 |');
    expect(text).toContain('| all busy | 51.5 | 42.5 | +9.0 |');
    expect(text).toContain('| writeLatin1String — (native) | 30.0 | 28.0 | +2.0 |');
    expect(text).toContain('| setTimeout — node:timers | 2.0 | 0.0 | +2.0 |');
    expect(text).toContain('addRequest — node:_http_agent −1.0');
    expect(text).toContain('| validate0 — chunks/usersGet-X.js | 10 ms | request validation');
  });

  it('a row that passes carries no explanation, and no side by side is printed', () => {
    const pc = perCall(35_000);
    const row = perCallRows({ perCall: pc } as BenchResults).find((x) => x.target.includes('concurrency 50'))!;
    expect(row.pass).toBe(true);
    expect(row.measured).not.toContain('by profile');
    expect(render(pc)).not.toContain('Why concurrency 50 misses');
  });
});
