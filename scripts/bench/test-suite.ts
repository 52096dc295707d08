/**
 * Section "test suite" (issue 33: `npm test` ≤ 4 min on a quiet 2-core box): runs `npm test` once,
 * as CI does after `npm ci` (lint:spec, lint:code, generate --check, then vitest's projects), and
 * reads the per-file durations that test-support/slowest-files-reporter.ts writes to
 * IM_TEST_DURATIONS_FILE. Only when asked (`npm run bench -- --only=test-suite`): a run takes
 * minutes and is the whole suite, so it is no part of the default bench or of its smoke run.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FileDuration } from '../../test-support/slowest-files-reporter.js';
import { load1, ROOT, tempDir, timedRun } from './lib.js';

export interface TestSuiteResult {
  /** The command run, as a maintainer types it. */
  command: string;
  exitCode: number | null;
  wallMs: number;
  cpuMs?: number;
  /** vitest's summary line counts (0 when the run stopped before vitest). */
  tests: { passed: number; failed: number; skipped: number };
  /** The 1-minute load average before and after the run. */
  load: [number, number];
  /** Every test file of the run with its own time in its worker, slowest first. */
  files: FileDuration[];
  /** The vitest workers the run used (IM_TEST_MAX_WORKERS or vitest.config.ts's default). */
  workers: string;
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
  const durations = join(tempDir('test-suite'), 'durations.json');
  const before = load1();
  const run = await timedRun(cmd, args, {
    cwd: ROOT,
    env: { IM_TEST_DURATIONS_FILE: durations, NO_COLOR: '1', FORCE_COLOR: '0' },
    timeoutMs: options.timeoutMs ?? 60 * 60_000,
  });
  const files: FileDuration[] = existsSync(durations) ? JSON.parse(readFileSync(durations, 'utf8')) : [];
  return {
    command: [cmd, ...args].join(' '),
    exitCode: run.code,
    wallMs: run.wallMs,
    ...(run.cpuMs === undefined ? {} : { cpuMs: run.cpuMs }),
    tests: summaryCounts(`${run.stdout}\n${run.stderr}`),
    load: [before, load1()],
    files,
    workers: process.env.IM_TEST_MAX_WORKERS ?? 'vitest.config.ts default (max(2, cores − 1))',
  };
}
