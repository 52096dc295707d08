/**
 * A vitest reporter that adds, after the default output, the slowest test files of the run
 * (issue 32 "reports its slowest files", issue 33 "find the slowest files"). The duration is the
 * file's own run time in its worker (vitest's module diagnostic), per project. It also writes the
 * full list as JSON when IM_TEST_DURATIONS_FILE is set, so the under-load script can merge runs.
 */
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

const SHOWN = Number(process.env.IM_TEST_SLOWEST ?? 20);

export interface FileDuration {
  file: string;
  project: string;
  ms: number;
  tests: number;
  passed: boolean;
}

export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const rows: FileDuration[] = modules.map((m) => ({
      file: relative(process.cwd(), m.moduleId),
      project: m.project.name,
      ms: Math.round(m.diagnostic().duration),
      tests: [...m.children.allTests()].length,
      passed: m.ok(),
    }));
    rows.sort((a, b) => b.ms - a.ms);
    const out = process.env.IM_TEST_DURATIONS_FILE;
    if (out) writeFileSync(out, `${JSON.stringify(rows, null, 1)}\n`);
    if (rows.length === 0) return;
    const total = rows.reduce((s, r) => s + r.ms, 0);
    const lines = rows.slice(0, SHOWN).map((r) => {
      const share = total > 0 ? ((100 * r.ms) / total).toFixed(1) : '0.0';
      return `  ${(r.ms / 1000).toFixed(1).padStart(7)} s ${share.padStart(5)} %  ${r.file} [${r.project}] (${r.tests} tests)`;
    });
    process.stdout.write(
      `\n Slowest ${lines.length} of ${rows.length} test files (summed file time ${(total / 1000).toFixed(0)} s):\n${lines.join('\n')}\n`,
    );
  }
}
