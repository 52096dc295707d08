/**
 * The bench's test-suite section (issue 33, `npm test` wall time ≤ 4 min): it runs a test command
 * with IM_TEST_DURATIONS_FILE and IM_TEST_STEPS_FILE, reads the per-file durations the
 * slowest-files reporter writes, the pre-steps' times scripts/test-pre-steps.mjs writes and
 * vitest's summary counts, and the report turns them into the row and, where it misses, the
 * critical path that explains the miss. The real section runs the whole `npm test`
 * (`npm run bench -- --only=test-suite`); here one small file and one cheap pre-step stand in for it.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanupTemp, ROOT } from '../scripts/bench/lib.js';
import { targets } from '../scripts/bench/report.js';
import { renderTestSuite, testSuiteProfile } from '../scripts/bench/report-test-suite-section.js';
import type { BenchResults } from '../scripts/bench/run.js';
import {
  benchTestSuite,
  failureReport,
  leadingSentence,
  summaryCounts,
  type TestSuiteResult,
} from '../scripts/bench/test-suite.js';
// @ts-expect-error: a plain ES module script without types
import { commandOf } from '../scripts/test-pre-steps.mjs';

const rowOf = (x: TestSuiteResult) =>
  targets({ testSuite: x, machine: { cores: 2 } } as unknown as BenchResults).find((t) =>
    t.target.includes('npm test'),
  )!;

/** A run shaped like a real one: two workers, a pre-step, three files in two projects. */
const RUN: TestSuiteResult = {
  command: 'npm test',
  exitCode: 0,
  wallMs: 300_000,
  tests: { passed: 10, failed: 0, skipped: 1 },
  load: [0.2, 1.1],
  workers: 2,
  preSteps: {
    wallMs: 8_000,
    steps: [
      { step: 'lint:spec', command: 'tsx scripts/lint-spec.ts', wallMs: 8_000, exitCode: 0 },
      { step: 'lint:code', command: 'biome check .', wallMs: 3_000, exitCode: 0 },
    ],
  },
  files: [
    { file: 'test/a.test.ts', project: 'default', ms: 200_000, tests: 3, passed: true },
    { file: 'test/b.test.ts', project: 'default', ms: 250_000, tests: 4, passed: true },
    { file: 'test/b.test.ts', project: 'fetch-transport', ms: 110_000, tests: 4, passed: true },
  ],
  proves: { 'test/a.test.ts': 'A | proves something.' },
};

describe('bench section: test suite', () => {
  it("reads vitest's summary line", () => {
    expect(summaryCounts(' Test Files  2 passed (2)\n      Tests  3040 passed | 55 skipped (3095)\n')).toEqual({
      passed: 3040,
      failed: 0,
      skipped: 55,
    });
    expect(summaryCounts('      Tests  2 failed | 7 passed (9)')).toEqual({ passed: 7, failed: 2, skipped: 0 });
    expect(summaryCounts('npm error lint:spec failed')).toEqual({ passed: 0, failed: 0, skipped: 0 });
  });

  it('the critical path: pre-steps + max(longest file, summed ÷ workers), and the files budget of 4 min', () => {
    const p = testSuiteProfile(RUN);
    expect(p).toMatchObject({
      summedMs: 560_000,
      longest: { file: 'test/b.test.ts', ms: 250_000 },
      perWorkerMs: 280_000,
      vitestBoundMs: 280_000,
      preStepsMs: 8_000,
      criticalPathMs: 288_000,
      overheadMs: 12_000,
      budgetMs: 2 * (240_000 - 8_000),
    });
    expect(p.byProject).toEqual([
      { project: 'default', files: 2, ms: 450_000 },
      { project: 'fetch-transport', files: 1, ms: 110_000 },
    ]);
    // one file longer than the spread: it sets the bound
    const lopsided = testSuiteProfile({ ...RUN, files: [{ ...RUN.files[0]!, ms: 400_000 }, RUN.files[1]!] });
    expect([lopsided.vitestBoundMs, lopsided.criticalPathMs]).toEqual([400_000, 408_000]);
  });

  it('a miss prints its explanation from the measured figures; a pass prints none', () => {
    const miss = rowOf(RUN);
    expect(miss.pass).toBe(false);
    expect(miss.measured).toContain(
      'critical path 288.0 s = pre-steps 8.0 s + max(longest file 250.0 s, summed 560 s ÷ 2 workers = 280.0 s), set by the summed file time',
    );
    expect(miss.measured).toContain('to fit 4 min the files may sum to 464 s (96 s over');
    const quick = { ...RUN, wallMs: 200_000, files: RUN.files.map((f) => ({ ...f, ms: f.ms / 4 })) };
    expect(rowOf(quick)).toMatchObject({ pass: true });
    expect(rowOf(quick).measured).not.toContain('critical path');

    const lines: string[] = [];
    renderTestSuite({ testSuite: RUN } as unknown as BenchResults, (...l) => lines.push(...l));
    const text = lines.join('\n');
    expect(text).toContain('then vitest with 2 workers. 300.0 s wall (5.0 min), exit 0');
    expect(text).toContain('The wall time over the critical path, 12.0 s, is not measured part by part');
    const under: string[] = [];
    renderTestSuite({ testSuite: { ...RUN, wallMs: 280_000 } } as unknown as BenchResults, (...l) => under.push(...l));
    expect(under.join('\n')).toContain('The wall time is 8.0 s under the critical path');
    expect(text).toContain('| lint:spec | `tsx scripts/lint-spec.ts` | 8.0 s | 0 |');
    expect(text).toContain('| all, side by side | | 8.0 s | |');
    expect(text).toContain('| fetch-transport | 1 | 110.0 | 19.6 % |');
    expect(text).toContain('| test/a.test.ts | default | 3 | 200.0 | 35.7 % | A \\| proves something. |');
    expect(text).toContain('they sum to 560 s (120.7 % of it)');
  });

  it("a failed run keeps vitest's report of its failed tests, and the section prints it", () => {
    const output = [
      ' ✓ |default| test/a.test.ts (3 tests) 10ms',
      ' × |default| test/b.test.ts > hangs 30001ms',
      '⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯',
      ' FAIL  |default| test/b.test.ts > hangs',
      'Error: Test timed out in 30000ms.',
      '⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯',
      ' Test Files  1 failed | 1 passed (2)',
      '      Tests  1 failed | 3 passed (4)',
    ].join('\n');
    const failures = failureReport(output);
    expect(failures[0]).toMatch(/Failed Tests 1/);
    expect(failures).toContain('Error: Test timed out in 30000ms.');
    expect(failures.some((l) => l.includes('Test Files'))).toBe(false);
    expect(failureReport(' ✓ |default| test/a.test.ts (3 tests) 10ms\n      Tests  3 passed (3)')).toEqual([]);
    const lines: string[] = [];
    const failedRun = {
      ...RUN,
      exitCode: 1,
      failures,
      files: [{ ...RUN.files[0]!, passed: false }, ...RUN.files.slice(1)],
    };
    renderTestSuite({ testSuite: failedRun } as unknown as BenchResults, (...l) => lines.push(...l));
    const text = lines.join('\n');
    expect(text).toContain(`### Failed tests\n\nFiles with a failure: ${RUN.files[0]!.file}.`);
    expect(text).toContain('Error: Test timed out in 30000ms.');
    const ok: string[] = [];
    renderTestSuite({ testSuite: RUN } as unknown as BenchResults, (...l) => ok.push(...l));
    expect(ok.join('\n')).not.toContain('### Failed tests');
  });

  it("a test file's leading sentence is what the report says it proves", () => {
    expect(leadingSentence('test/lockfile.test.ts')).toBe(
      "`npm ci` needs a lockfile that lists every optional dependency, also the platform builds that this project's registry does not serve (see scripts/lock-unavailable-optionals.mjs).",
    );
    expect(leadingSentence('test/no-such-file.test.ts')).toBe('');
  });

  it('runs the command, reads the pre-steps, per-file durations and counts', async () => {
    const file = 'test/lockfile.test.ts';
    const vitest = `${process.execPath} ${join(ROOT, 'node_modules/vitest/vitest.mjs')} run --project default ${file}`;
    const command: [string, ...string[]] = [
      'sh',
      '-c',
      `${process.execPath} scripts/test-pre-steps.mjs pretest && ${vitest}`,
    ];
    const r = await benchTestSuite({ command, timeoutMs: 120_000 }).finally(cleanupTemp);
    expect(r.exitCode).toBe(0);
    expect(r.tests).toEqual({ passed: 1, failed: 0, skipped: 0 });
    expect(r.files.map((f) => [f.file, f.project, f.tests, f.passed])).toEqual([[file, 'default', 1, true]]);
    expect(r.files[0]!.ms).toBeGreaterThan(0);
    expect(r.wallMs).toBeGreaterThan(r.files[0]!.ms);
    expect(r.preSteps.steps).toEqual([
      { step: 'pretest', command: 'bash scripts/ensure-system-deps.sh', wallMs: expect.any(Number), exitCode: 0 },
    ]);
    expect(r.preSteps.wallMs).toBeGreaterThanOrEqual(r.preSteps.steps[0]!.wallMs);
    expect(r.proves[file]).toContain('`npm ci` needs a lockfile');

    expect(rowOf(r)).toMatchObject({ pass: true, measured: expect.stringContaining('1 passed, 0 failed, 0 skipped') });
    expect(rowOf({ ...r, wallMs: 241_000 }).pass).toBe(false);
    expect(rowOf({ ...r, exitCode: 1 }).pass).toBe(false);
    expect(rowOf({ ...r, tests: { ...r.tests, failed: 1 } }).pass).toBe(false);
  }, 150_000);
});

describe("npm test's pre-steps side by side (scripts/test-pre-steps.mjs)", () => {
  it('a step is a package.json script, with what follows " -- " passed on', () => {
    const table = { generate: 'node scripts/generate.mjs', 'lint:code': 'biome check .' };
    expect(commandOf('generate -- --check', table)).toBe('node scripts/generate.mjs --check');
    expect(commandOf('lint:code', table)).toBe('biome check .');
    expect(() => commandOf('lint:css', table)).toThrow('no package.json script "lint:css"');
  });

  it('runs every step to its end, prints each output whole under its name, and fails naming the failed step', async () => {
    // its own steps file: inherited from a bench run of `npm test`, this run's failed step would
    // overwrite the pre-steps that run measured (seen in RESULTS.md at cd09bb9)
    const tmp = mkdtempSync(join(tmpdir(), 'im-pre-steps-'));
    const stepsFile = join(tmp, 'steps.json');
    const r = await new Promise<{ code: number | null; out: string }>((done) =>
      execFile(
        process.execPath,
        ['scripts/test-pre-steps.mjs', 'pretest', 'lint:spec -- --openapi test/fixtures/no-such-spec.yaml'],
        { cwd: ROOT, encoding: 'utf8', env: { ...process.env, IM_TEST_STEPS_FILE: stepsFile } },
        (error, stdout, stderr) => done({ code: error ? (error.code as number) : 0, out: `${stdout}${stderr}` }),
      ),
    );
    expect(r.code).toBe(1);
    const written = JSON.parse(readFileSync(stepsFile, 'utf8')) as { steps: { step: string; exitCode: number }[] };
    rmSync(tmp, { recursive: true, force: true });
    expect(written.steps.map((x) => [x.step, x.exitCode])).toEqual([
      ['pretest', 0],
      ['lint:spec -- --openapi test/fixtures/no-such-spec.yaml', 1],
    ]);
    expect(r.out).toMatch(/> pretest \(bash scripts\/ensure-system-deps\.sh\): \d+\.\d s\n/);
    expect(r.out).toMatch(
      /> lint:spec -- --openapi test\/fixtures\/no-such-spec\.yaml \(tsx scripts\/lint-spec\.ts --openapi test\/fixtures\/no-such-spec\.yaml\): \d+\.\d s, FAILED \(exit 1\)\n[^>]*no-such-spec/,
    );
    expect(r.out).toContain(
      'npm test stopped before vitest: lint:spec -- --openapi test/fixtures/no-such-spec.yaml failed',
    );
  }, 60_000);
});
