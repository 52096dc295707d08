/**
 * Section "test suite" (issue 33: `npm test` ≤ 4 min on a quiet 2-core box): runs `npm test` once,
 * as CI does after `npm ci` (the pre-steps lint:spec, lint:code and generate --check side by side,
 * then vitest's projects), and reads what the run writes: each pre-step's wall time
 * (scripts/test-pre-steps.mjs, IM_TEST_STEPS_FILE) and each test file's own time in its worker
 * (test-support/slowest-files-reporter.ts, IM_TEST_DURATIONS_FILE). The report turns them into the
 * row and, where it misses, the critical path that explains why. Only when asked
 * (`npm run bench -- --only=test-suite`): a run takes minutes and is the whole suite, so it is no
 * part of the default bench or of its smoke run.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FileDuration } from '../../test-support/slowest-files-reporter.js';
import { testWorkers } from '../../test-support/test-workers.js';
import { load1, ROOT, tempDir, timedRun } from './lib.js';

/** One pre-step of `npm test` (scripts/test-pre-steps.mjs). */
export interface PreStep {
  step: string;
  command: string;
  wallMs: number;
  exitCode: number | null;
}

export interface TestSuiteResult {
  /** The command run, as a maintainer types it. */
  command: string;
  exitCode: number | null;
  wallMs: number;
  cpuMs?: number;
  /** vitest's summary line counts (0 when the run stopped before vitest). */
  tests: { passed: number; failed: number; skipped: number };
  /** vitest's report of the failed tests (failureReport), [] when none failed; optional in older results. */
  failures?: string[];
  /** The 1-minute load average before and after the run. */
  load: [number, number];
  /** Every test file of the run with its own time in its worker, slowest first. */
  files: FileDuration[];
  /** The vitest workers the run used (IM_TEST_MAX_WORKERS or vitest.config.ts's default, test-support/test-workers.ts). */
  workers: number;
  /** The pre-steps before vitest, side by side, and their wall time together (empty: the command ran none). */
  preSteps: { wallMs: number; steps: PreStep[] };
  /** What each of the slowest files proves: the first sentence of its leading doc comment, by file. */
  proves: Record<string, string>;
}

/** The counts of vitest's "Tests  3040 passed | 55 skipped (3095)" summary line. */
export function summaryCounts(output: string): TestSuiteResult['tests'] {
  const line = output.split('\n').find((l) => /^\s*Tests\s+\d/.test(l)) ?? '';
  const count = (word: string) => Number(new RegExp(`(\\d+) ${word}`).exec(line)?.[1] ?? 0);
  return { passed: count('passed'), failed: count('failed'), skipped: count('skipped') };
}

export async function benchTestSuite(
  options: { command?: [string, ...string[]]; timeoutMs?: number } = {},
): Promise<TestSuiteResult> {
  const [cmd, ...args] = options.command ?? ['npm', 'test'];
  const dir = tempDir('test-suite');
  const durations = join(dir, 'durations.json');
  const stepsFile = join(dir, 'steps.json');
  const before = load1();
  const run = await timedRun(cmd, args, {
    cwd: ROOT,
    env: { IM_TEST_DURATIONS_FILE: durations, IM_TEST_STEPS_FILE: stepsFile, NO_COLOR: '1', FORCE_COLOR: '0' },
    timeoutMs: options.timeoutMs ?? 60 * 60_000,
  });
  const files: FileDuration[] = existsSync(durations) ? JSON.parse(readFileSync(durations, 'utf8')) : [];
  const preSteps = existsSync(stepsFile) ? JSON.parse(readFileSync(stepsFile, 'utf8')) : { wallMs: 0, steps: [] };
  const proves = Object.fromEntries(files.slice(0, SLOWEST_SHOWN).map((f) => [f.file, leadingSentence(f.file)]));
  return {
    command: [cmd, ...args].join(' '),
    exitCode: run.code,
    wallMs: run.wallMs,
    ...(run.cpuMs === undefined ? {} : { cpuMs: run.cpuMs }),
    tests: summaryCounts(`${run.stdout}\n${run.stderr}`),
    failures: failureReport(`${run.stdout}\n${run.stderr}`),
    load: [before, load1()],
    files,
    workers: testWorkers(),
    preSteps,
    proves,
  };
}

/** At most this many lines of vitest's failure report are kept (the run's output is not). */
export const FAILURE_LINES = 80;

/**
 * vitest's "Failed Tests" block (each failed test's name, error and the code it points at), so a
 * failed run of the bench says why; the rest of the output is dropped with the temp folder.
 */
export function failureReport(output: string): string[] {
  const lines = output.split('\n');
  const start = lines.findIndex((l) => /⎯+ Failed (Tests|Suites) \d+ ⎯+/.test(l));
  if (start < 0) return lines.filter((l) => /^\s*(×|FAIL)\s/.test(l)).slice(0, FAILURE_LINES);
  const end = lines.findIndex((l, i) => i > start && /^\s*Test Files\s/.test(l));
  return lines.slice(start, end < 0 ? undefined : end).slice(0, FAILURE_LINES);
}

/** The slowest files the report lists (with what each proves). */
export const SLOWEST_SHOWN = 15;

/** The first sentence of a file's leading doc comment (what the test file says it proves), or ''. */
export function leadingSentence(file: string): string {
  const path = join(ROOT, file);
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const doc = /^\s*\/\*\*([\s\S]*?)\*\//.exec(text)?.[1] ?? '';
  const prose = doc
    .split('\n')
    .map((l) => l.replace(/^\s*\*\s?/, '').trim())
    .join(' ')
    .trim();
  // up to the first full stop followed by a space (not "e.g." or "1.5"), at most 240 characters
  const end = /[^.]{2}\.(\s|$)/.exec(prose);
  const sentence = end ? prose.slice(0, end.index + 3) : prose;
  return sentence.length > 240 ? `${sentence.slice(0, 239)}…` : sentence;
}
