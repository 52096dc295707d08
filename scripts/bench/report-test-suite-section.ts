/**
 * RESULTS.md section 11 (issue 33: `npm test` ≤ 4 min on a quiet 2-core box): the row, and the
 * profile that explains a miss, computed from the run. With W vitest workers the suite cannot end
 * before its pre-steps plus max(the longest file, the summed file time ÷ W): that bound, the files
 * that make up the summed time (with what each proves) and the pre-steps' times are what the wall
 * time is made of.
 */
import type { BenchResults } from './results.js';
import { type Push, type TargetRow, num } from './report-format.js';
import { SLOWEST_SHOWN } from './test-suite.js';

type TestSuite = NonNullable<BenchResults['testSuite']>;

export const TEST_SUITE_TARGET_MS = 240_000;

/** The run's critical path and what it is made of, all from the measured figures. */
export interface TestSuiteProfile {
  summedMs: number;
  longest: { file: string; ms: number } | undefined;
  /** The summed file time spread evenly over the workers. */
  perWorkerMs: number;
  /** The shortest vitest can take with these files and workers: max(longest file, summed ÷ workers). */
  vitestBoundMs: number;
  preStepsMs: number;
  /** Pre-steps + vitestBoundMs: no schedule of these files ends sooner. */
  criticalPathMs: number;
  /** The wall time left over the critical path: scheduling gaps, vitest's start and end, npm's start. */
  overheadMs: number;
  /** The summed file time that would fit the target with these workers and pre-steps (the files' budget). */
  budgetMs: number;
  byProject: { project: string; files: number; ms: number }[];
}

export function testSuiteProfile(x: TestSuite): TestSuiteProfile {
  const summedMs = x.files.reduce((a, f) => a + f.ms, 0);
  const longest = x.files.reduce<TestSuite['files'][number] | undefined>(
    (a, f) => (!a || f.ms > a.ms ? f : a),
    undefined,
  );
  const workers = Math.max(1, x.workers);
  const perWorkerMs = summedMs / workers;
  const vitestBoundMs = Math.max(longest?.ms ?? 0, perWorkerMs);
  const preStepsMs = x.preSteps.wallMs;
  const projects = new Map<string, { files: number; ms: number }>();
  for (const f of x.files) {
    const p = projects.get(f.project) ?? { files: 0, ms: 0 };
    projects.set(f.project, { files: p.files + 1, ms: p.ms + f.ms });
  }
  return {
    summedMs,
    longest: longest && { file: longest.file, ms: longest.ms },
    perWorkerMs,
    vitestBoundMs,
    preStepsMs,
    criticalPathMs: preStepsMs + vitestBoundMs,
    overheadMs: x.wallMs - preStepsMs - vitestBoundMs,
    budgetMs: Math.max(0, workers * (TEST_SUITE_TARGET_MS - preStepsMs)),
    byProject: [...projects].map(([project, p]) => ({ project, ...p })).sort((a, b) => b.ms - a.ms),
  };
}

const sec = (v: number, d = 1) => `${num(v / 1000, d)} s`;
const share = (part: number, whole: number) => `${num((100 * part) / (whole || 1), 1)} %`;

/** The critical-path sentence of the row and the section. */
function criticalPath(x: TestSuite, p: TestSuiteProfile): string {
  const which =
    p.longest && p.longest.ms >= p.perWorkerMs ? `the longest file (${p.longest.file})` : 'the summed file time';
  return `critical path ${sec(p.criticalPathMs)} = pre-steps ${sec(p.preStepsMs)} + max(longest file ${sec(p.longest?.ms ?? 0)}, summed ${sec(p.summedMs, 0)} ÷ ${x.workers} workers = ${sec(p.perWorkerMs)}), set by ${which}`;
}

/** Issue 33's test-suite row: `npm test` wall time ≤ 4 min on a quiet 2-core box, every test passing. */
export function testSuiteTarget(x: TestSuite, cores: number): TargetRow {
  const busy = Math.max(...x.load) > cores * 0.75;
  const pass = x.exitCode === 0 && x.tests.failed === 0 && x.wallMs <= TEST_SUITE_TARGET_MS;
  const p = testSuiteProfile(x);
  const miss =
    x.wallMs > TEST_SUITE_TARGET_MS
      ? `; ${criticalPath(x, p)}; to fit 4 min the files may sum to ${sec(p.budgetMs, 0)} (${sec(p.summedMs - p.budgetMs, 0)} over; section 11)`
      : '';
  return {
    target: '11. `npm test` wall time ≤ 4 min (quiet 2-core box), every test passing',
    measured: `${num(x.wallMs / 60_000, 1)} min wall${x.cpuMs === undefined ? '' : `, ${num(x.cpuMs / 60_000, 1)} min CPU`}, exit ${x.exitCode}; ${num(x.tests.passed)} passed, ${num(x.tests.failed)} failed, ${num(x.tests.skipped)} skipped; load ${x.load.join(' → ')}${busy ? ' (busy machine: the wall time is not the quiet figure)' : ''}${miss}`,
    pass,
  };
}

/** Section 11 of RESULTS.md. */
export function renderTestSuite(r: BenchResults, push: Push): void {
  const x = r.testSuite;
  if (!x) return;
  const p = testSuiteProfile(x);
  push('## 11. Test suite', '');
  push(
    `\`${x.command}\` once: the pre-steps side by side (scripts/test-pre-steps.mjs), then vitest with ${x.workers} workers. ${sec(x.wallMs)} wall (${num(x.wallMs / 60_000, 1)} min), exit ${x.exitCode}. Per file: its own run time in its worker (test-support/slowest-files-reporter.ts), per vitest project; ${x.files.length} files, ${sec(p.summedMs, 0)} summed.`,
    '',
  );
  push('### Where the wall time goes', '');
  push(`- ${criticalPath(x, p)}.`);
  push(
    p.overheadMs >= 0
      ? `- The wall time over the critical path, ${sec(p.overheadMs)}, is not measured part by part: it holds scheduling gaps (a worker idle while the other runs a long file) and vitest's and npm's start and end.`
      : `- The wall time is ${sec(-p.overheadMs)} under the critical path: the per-file times overlap (a file's time in its worker includes waits for a core), so the sum over-counts.`,
  );
  push(
    `- Target 4 min: with these pre-steps and ${x.workers} workers the files may sum to at most ${sec(p.budgetMs, 0)}; they sum to ${sec(p.summedMs, 0)} (${share(p.summedMs, p.budgetMs)} of it).`,
    '',
  );
  if (x.preSteps.steps.length) {
    push('| pre-step | command | wall | exit |', '|---|---|---|---|');
    for (const s of x.preSteps.steps) push(`| ${s.step} | \`${s.command}\` | ${sec(s.wallMs)} | ${s.exitCode} |`);
    push(`| all, side by side | | ${sec(x.preSteps.wallMs)} | |`, '');
  }
  push('| vitest project | files | summed seconds | share |', '|---|---|---|---|');
  for (const g of p.byProject)
    push(`| ${g.project} | ${g.files} | ${num(g.ms / 1000, 1)} | ${share(g.ms, p.summedMs)} |`);
  push('');
  const top = x.files.slice(0, SLOWEST_SHOWN);
  const topMs = top.reduce((a, f) => a + f.ms, 0);
  push(
    `The ${top.length} slowest files are ${share(topMs, p.summedMs)} of the summed time; each with what it proves (its doc comment's first sentence):`,
    '',
  );
  push('| file | project | tests | seconds | share | what it proves |', '|---|---|---|---|---|---|');
  for (const f of top)
    push(
      `| ${f.file} | ${f.project} | ${f.tests} | ${num(f.ms / 1000, 1)} | ${share(f.ms, p.summedMs)} | ${(x.proves?.[f.file] ?? '').replaceAll('|', '\\|')} |`,
    );
  push('');
  if (x.failures?.length) {
    const failed = x.files.filter((f) => !f.passed).map((f) => f.file);
    push(
      '### Failed tests',
      '',
      `${failed.length ? `Files with a failure: ${failed.join(', ')}. ` : ''}vitest's report of them, as the run printed it:`,
      '',
      '```',
      ...x.failures,
      '```',
      '',
    );
  }
}
