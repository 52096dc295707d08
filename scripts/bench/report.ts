/** Renders bench/RESULTS.md from the measured results (nothing in it is written by hand): the results table, then one section per measured part (report-*-sections.ts). */
import type { BenchResults } from './results.js';
import { HAVE_GNU_TIME } from './lib.js';
import {
  callbacksRows,
  quotaRows,
  renderCallbacks,
  renderQuota,
  renderSimulator,
  renderUpload,
  simulatorRows,
  uploadRows,
} from './report-callback-sections.js';
import { inboxTargets, renderInbox } from './report-inbox-section.js';
import { coldStartRows, perCallRows, renderColdStart, renderPerCall } from './report-call-sections.js';
import { ms, type TargetRow } from './report-format.js';
import { renderSize, sizeTargets } from './report-size-section.js';
import { renderTestSuite, testSuiteTarget } from './report-test-suite-section.js';
import {
  generationRows,
  renderGeneration,
  renderScale,
  renderTypecheck,
  scaleRows,
  typecheckRows,
} from './report-generator-sections.js';

export type { TargetRow } from './report-format.js';

export function targets(r: BenchResults): TargetRow[] {
  const rows: TargetRow[] = [];
  rows.push(...generationRows(r));
  rows.push(...scaleRows(r));
  rows.push(...perCallRows(r));
  rows.push(...coldStartRows(r));
  if (r.size) rows.push(...sizeTargets(r.size));
  rows.push(...typecheckRows(r));
  rows.push(...callbacksRows(r));
  rows.push(...uploadRows(r));
  rows.push(...quotaRows(r));
  if (r.inbox) rows.push(...inboxTargets(r.inbox));
  if (r.testSuite) rows.push(testSuiteTarget(r.testSuite, r.machine.cores));
  rows.push(...simulatorRows(r));
  return rows;
}

export function renderResults(r: BenchResults): string {
  const L: string[] = [];
  const p = (...lines: string[]) => L.push(...lines);
  const m = r.machine;
  p('# Benchmarks: im-server-sdk against the peers', '');
  p('<!-- Written by `npm run bench` (scripts/bench/run.ts). Do not edit: run it again. -->', '');
  if (r.smoke) p('> **SMOKE RUN** — tiny counts to check that the harness works; the figures below mean nothing.', '');
  p(`Run ${r.startedAt} with \`${r.command}\`, ${r.durationS} s in all.`, '');
  p('## Machine', '');
  p('| | |', '|---|---|');
  p(
    `| CPU | ${m.cpuModel}, ${m.cores} cores |`,
    `| memory | ${m.memoryGiB} GiB |`,
    `| Node | ${m.node} (${m.platform}) |`,
  );
  p(`| load average (1/5/15 min) at start | ${m.loadAvgAtStart.join(' / ')} |`);
  p(
    `| load (1 min) before → after each section | ${Object.entries(r.loadBySection)
      .map(([s, [a, b]]) => `${s} ${a}→${b}`)
      .join('; ')} |`,
    '',
  );
  if (m.loadAvgAtStart[0]! > m.cores * 0.75)
    p(
      `The machine was busy with other work during this run (load ${m.loadAvgAtStart[0]} on ${m.cores} cores): absolute figures are low and noisy; the peers ran interleaved with ours in the same run, so ratios are the figures to read, and CPU times (which waiting does not inflate) are given beside wall times.`,
      '',
    );
  p('## Tool versions', '');
  p('| tool | version |', '|---|---|', ...Object.entries(r.versions).map(([k, v]) => `| ${k} | ${v} |`), '');
  p('## Method', '');
  p(
    '- Every figure is the **median** of repeated runs; each peer is measured in the same run, interleaved with ours (A, B, C, A, B, C, …) so that load on the machine falls on all alike; ratios are ours ÷ peer.',
    `- The package is a private copy of \`generated/\` built in a temp folder with its own build script, as its prepack builds it (${ms(r.build.ms)}: esbuild bundles + tsc declarations), so the bench never races \`npm test\` (which rebuilds generated/dist) and never writes into \`generated/\`. Apps import it as \`im-server-sdk\` through a node_modules link.`,
    '- Servers: `scripts/bench/server.ts`, node:http with keep-alive on 127.0.0.1, always in its own process. Loopback only; every child process is stopped and temp folders removed at the end.',
    '- Measured children run on plain `node` (child scripts compiled by esbuild to .mjs beforehand), never under tsx, so no loader hook sits in a measured process.',
    `- Wall time: spawn to exit, measured by the parent. CPU time and max RSS of a child: ${HAVE_GNU_TIME ? 'GNU time (`/usr/bin/time -f "%U %S %M"`), user + system' : 'not available (no /usr/bin/time)'}.`,
    '',
  );

  const t = targets(r);
  p('## Results against the targets', '');
  p('| target | measured (ours vs peer) | result |', '|---|---|---|');
  for (const row of t)
    p(`| ${row.target} | ${row.measured} | ${row.pass === null ? 'reported' : row.pass ? '**pass**' : '**miss**'} |`);
  p('');

  renderGeneration(r, p);

  renderScale(r, p);

  renderPerCall(r, p);

  renderColdStart(r, p);

  renderSize(r, p);

  renderTypecheck(r, p);

  renderCallbacks(r, p);

  renderUpload(r, p);

  renderQuota(r, p);

  renderInbox(r, p);

  renderSimulator(r, p);

  renderTestSuite(r, p);

  p('## Counts of this run', '', '```json', JSON.stringify(r.counts, null, 2), '```', '');
  return L.join('\n');
}
