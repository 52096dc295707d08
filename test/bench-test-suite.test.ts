/**
 * The bench's test-suite section (issue 33, `npm test` wall time ≤ 4 min): it runs a vitest command
 * with IM_TEST_DURATIONS_FILE, reads the per-file durations the slowest-files reporter writes and
 * vitest's summary counts, and report.ts turns them into the target row. The real section runs the
 * whole `npm test` (`npm run bench -- --only=test-suite`); here one small file stands in for it.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanupTemp, ROOT } from '../scripts/bench/lib.js';
import { targets } from '../scripts/bench/report.js';
import type { BenchResults } from '../scripts/bench/run.js';
import { benchTestSuite, summaryCounts } from '../scripts/bench/test-suite.js';

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

  it('runs the command, reads the per-file durations and counts, and the row passes or misses on them', async () => {
    const file = 'test/lockfile.test.ts';
    const command: [string, ...string[]] = [
      process.execPath,
      join(ROOT, 'node_modules/vitest/vitest.mjs'),
      'run',
      '--project',
      'default',
      file,
    ];
    const r = await benchTestSuite({ command, timeoutMs: 120_000 }).finally(cleanupTemp);
    expect(r.exitCode).toBe(0);
    expect(r.tests).toEqual({ passed: 1, failed: 0, skipped: 0 });
    expect(r.files.map((f) => [f.file, f.project, f.tests, f.passed])).toEqual([[file, 'default', 1, true]]);
    expect(r.files[0]!.ms).toBeGreaterThan(0);
    expect(r.wallMs).toBeGreaterThan(r.files[0]!.ms);

    const row = (x: typeof r) =>
      targets({ testSuite: x, machine: { cores: 2 } } as unknown as BenchResults).find((t) =>
        t.target.includes('npm test'),
      )!;
    expect(row(r)).toMatchObject({ pass: true, measured: expect.stringContaining('1 passed, 0 failed, 0 skipped') });
    expect(row({ ...r, wallMs: 241_000 }).pass).toBe(false);
    expect(row({ ...r, exitCode: 1 }).pass).toBe(false);
    expect(row({ ...r, tests: { ...r.tests, failed: 1 } }).pass).toBe(false);
  }, 150_000);
});
