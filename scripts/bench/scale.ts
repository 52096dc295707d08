/**
 * Scale: how generation cost grows with the spec. Synthetic specs of 1×, 10× and 30× the
 * operations of spec/openapi.yaml (scripts/bench/synthetic-spec.ts, written to a temp folder),
 * each generated without cache by a fresh process (scripts/bench/scale-child.ts, under tsx as
 * `npm run generate` runs) that writes the package to a temp folder. Sizes run interleaved
 * (1×, 10×, 30×, 1×, …). Wall time from spawn to exit, CPU and max RSS by GNU time. Then one
 * phase breakdown (generation-phases.ts) at the largest size, so a miss shows what grew.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_DIR, median, ROOT, runJsonChild, tempDir, timedRun, TSX_IMPORT } from './lib.js';
import { syntheticSpec } from './synthetic-spec.js';
import type { PhaseReport } from './generation.js';

export interface ScaleRow {
  factor: number;
  operations: number;
  specBytes: number;
  files: number;
  wallMs: number[];
  cpuMs: number[];
  maxRssKb: number[];
  /** generate() alone, inside the child (no process start or module load). */
  generateWallMs: number[];
  generateCpuMs: number[];
}

export interface ScaleResult {
  runs: number;
  rows: ScaleRow[];
  /** Phase breakdown at the largest size (skipped in smoke runs). */
  phases: PhaseReport | undefined;
}

interface ChildOut {
  operations: number;
  files: number;
  warnings: number;
  generateWallMs: number;
  generateCpuMs: number;
}

export async function benchScale(opts: { factors: number[]; runs: number; phases: boolean }): Promise<ScaleResult> {
  const work = tempDir('scale');
  const base = readFileSync(join(ROOT, 'spec/openapi.yaml'), 'utf8');
  const rows: (ScaleRow & { spec: string })[] = opts.factors.map((factor) => {
    const { text, operations } = syntheticSpec(base, factor);
    const spec = join(work, `openapi-${factor}x.yaml`);
    writeFileSync(spec, text);
    return {
      factor,
      operations,
      specBytes: Buffer.byteLength(text),
      files: 0,
      spec,
      wallMs: [],
      cpuMs: [],
      maxRssKb: [],
      generateWallMs: [],
      generateCpuMs: [],
    };
  });
  for (let i = 0; i < opts.runs; i++) {
    for (const row of rows) {
      const out = join(work, `out-${row.factor}x-${i}`);
      const r = await timedRun(process.execPath, [...TSX_IMPORT, join(BENCH_DIR, 'scale-child.ts'), row.spec, out], {
        timeoutMs: 600_000,
      });
      if (r.code !== 0) throw new Error(`scale ${row.factor}× exited ${r.code}: ${r.stderr.slice(-1500)}`);
      const child = JSON.parse(r.stdout.trim().split('\n').pop()!) as ChildOut;
      if (child.operations !== row.operations)
        throw new Error(
          `scale ${row.factor}×: generated ${child.operations} operations, the spec has ${row.operations}`,
        );
      if (child.warnings) throw new Error(`scale ${row.factor}×: the synthetic spec gave ${child.warnings} warning(s)`);
      row.files = child.files;
      row.wallMs.push(r.wallMs);
      if (r.cpuMs !== undefined) row.cpuMs.push(r.cpuMs);
      if (r.maxRssKb !== undefined) row.maxRssKb.push(r.maxRssKb);
      row.generateWallMs.push(child.generateWallMs);
      row.generateCpuMs.push(child.generateCpuMs);
      rmSync(out, { recursive: true, force: true });
    }
  }
  const largest = rows[rows.length - 1]!;
  const phases = opts.phases
    ? await runJsonChild<PhaseReport>('generation-phases.ts', [largest.spec], { timeoutMs: 600_000 })
    : undefined;
  return { runs: opts.runs, rows: rows.map(({ spec: _s, ...r }) => r), phases };
}

/** Time per operation at `row` ÷ at the smallest size, by the median of `pick`. */
export function perOpRatio(r: ScaleResult, row: ScaleRow, pick: (x: ScaleRow) => number[]): number {
  const first = r.rows[0]!;
  return median(pick(row)) / row.operations / (median(pick(first)) / first.operations);
}
