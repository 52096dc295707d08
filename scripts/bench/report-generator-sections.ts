/** RESULTS.md sections about generating and the package (generation, scale, size, typecheck): target rows and text. */
import type { PhaseReport } from './generation.js';
import type { CliProfile } from './generation-profile.js';
import type { BenchResults } from './results.js';
import { perOpRatio, type ScaleRow } from './scale.js';
import { type Push, type TargetRow, mib, ms, num, ratio, median } from './report-format.js';

/** Section generation: its rows of the results table. */
export function generationRows(r: BenchResults): TargetRow[] {
  const rows: TargetRow[] = [];
  if (r.generation) {
    const [ours, , hey, cold] = r.generation.tools;
    const hm = median(hey!.wallMs);
    // issue 18: no cache ≤ 1.0× hey-api's wall time; after a one-line spec edit (warm cache) ≤ 0.5×
    for (const [tool, label, limit, profile] of [
      [cold, 'no cache, first run of a fresh clone', 1, r.generation.cliProfiles?.cold],
      [ours, 'warm cache, after a one-line spec edit', 0.5, r.generation.cliProfiles?.warm],
    ] as const) {
      if (!tool) continue;
      const om = median(tool.wallMs);
      const pass = om <= limit * hm && tool.output.lines > hey!.output.lines;
      rows.push({
        target: `1. Generation (${label}) ≤ ${num(limit, 1)}× @hey-api/openapi-ts's wall time, while emitting more`,
        measured: `${ms(om)} vs ${ms(hm)} wall (${ratio(om, hm)}); CPU ${ms(median(tool.cpuMs))} vs ${ms(median(hey!.cpuMs))}; output ${num(tool.output.lines)} vs ${num(hey!.output.lines)} lines${!pass && profile ? `. Why, by this run's own profile (main thread, section 1): ${largestSteps(profile)}` : ''}`,
        pass,
      });
    }
  }
  return rows;
}

/** The three largest steps of a CLI profile with their share, e.g. `emit validators 320 ms (28 %), …`. */
function largestSteps(profile: CliProfile, count = 3): string {
  return [...profile.steps]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count)
    .map((s) => `${s.name} ${ms(s.ms)} (${num((100 * s.ms) / profile.totalMs)} %)`)
    .join(', ');
}

/** Both CLI profiles side by side: each step's ms and share, and what it pays for. */
function cliProfileTable(profiles: { cold: CliProfile; warm: CliProfile }, p: Push): void {
  const { cold, warm } = profiles;
  p(
    '### Where the CLI itself spends its time (both rows)',
    '',
    `One more run of each of our two rows under \`node --cpu-prof\` (\`scripts/bench/generation-profile.ts\`), its main thread's samples attributed to the CLI step they ran in (idle excluded; Biome's binary and esbuild's service run in their own processes and are not in it). The ms are sampled main-thread time, which on a loaded machine includes waiting for a core: read the shares. Sampled main thread: cold ${ms(cold.totalMs)}, warm ${ms(warm.totalMs)}.`,
    '',
    '| step | cold ms | cold share | warm ms | warm share | pays for |',
    '|---|---|---|---|---|---|',
  );
  for (const [i, step] of cold.steps.entries()) {
    const w = warm.steps[i]!;
    p(
      `| ${step.name} | ${ms(step.ms)} | ${num((100 * step.ms) / cold.totalMs)} % | ${ms(w.ms)} | ${num((100 * w.ms) / warm.totalMs)} % | ${step.paysFor} |`,
    );
  }
  p('');
}

/** Section scale: its rows of the results table. */
export function scaleRows(r: BenchResults): TargetRow[] {
  const rows: TargetRow[] = [];
  if (r.scale && r.scale.rows.length > 1) {
    const first = r.scale.rows[0]!;
    const last = r.scale.rows[r.scale.rows.length - 1]!;
    const perOp = (x: ScaleRow, pick: (y: ScaleRow) => number[]) => median(pick(x)) / x.operations;
    const wallRatio = perOpRatio(r.scale, last, (x) => x.wallMs);
    rows.push({
      target: `1. Generation at scale: time per operation at ${num(last.factor)}× the spec (${num(last.operations)} operations) ≤ 1.2× that at ${num(first.factor)}× (${num(first.operations)})`,
      measured: `${num(
        perOp(last, (x) => x.wallMs),
        2,
      )} vs ${num(
        perOp(first, (x) => x.wallMs),
        2,
      )} ms/operation wall (${num(wallRatio, 2)}×); CPU ${num(
        perOp(last, (x) => x.cpuMs),
        2,
      )} vs ${num(
        perOp(first, (x) => x.cpuMs),
        2,
      )} ms/operation (${num(
        perOpRatio(r.scale, last, (x) => x.cpuMs),
        2,
      )}×); max RSS ${mib(Math.max(...last.maxRssKb) / 1024)} vs ${mib(Math.max(...first.maxRssKb) / 1024)}`,
      pass: wallRatio <= 1.2,
    });
  }
  return rows;
}

/** Section typecheck: its rows of the results table. */
export function typecheckRows(r: BenchResults): TargetRow[] {
  const rows: TargetRow[] = [];
  if (r.typecheck) {
    const [o, p] = r.typecheck.rows;
    rows.push({
      target: '5. Type-check of a 20-operation consumer < 2× openapi-fetch',
      measured: `${ms(o!.wallMs)} vs ${ms(p!.wallMs)} (${ratio(o!.wallMs, p!.wallMs)})${o!.errors || p!.errors ? ' — with type errors, see section 5' : ''}`,
      pass: o!.wallMs < 2 * p!.wallMs,
    });
  }
  return rows;
}

/** Section generation of RESULTS.md. */
export function renderGeneration(r: BenchResults, p: Push): void {
  if (r.generation) {
    const g = r.generation;
    p('## 1. Generation', '');
    p(
      `Each tool a fresh process on \`spec/openapi.yaml\`, ${g.runs} runs each, interleaved. Commands (from the repository root; hey-api from a temp folder holding its own tsconfig.json, see TOOLCHAIN.md):`,
      '',
    );
    p(
      '| tool | command | emits | wall (median) | CPU (median) | max RSS | output files | output lines | wall runs |',
      '|---|---|---|---|---|---|---|---|---|',
    );
    for (const tool of g.tools)
      p(
        `| ${tool.name} | \`${tool.command}\` | ${tool.emits} | ${ms(median(tool.wallMs))} | ${ms(median(tool.cpuMs))} | ${tool.maxRssKb.length ? mib(Math.max(...tool.maxRssKb) / 1024) : '–'} | ${num(tool.output.files)} | ${num(tool.output.lines)} | ${tool.wallMs.map((x) => Math.round(x)).join(', ')} |`,
      );
    p('');
    const note = g.tools.find((x) => x.exitNote);
    if (note) p(`Note: ${note.name}: ${note.exitNote}.`, '');
    if (g.cliProfiles) cliProfileTable(g.cliProfiles, p);
    const ph = g.phases;
    if (ph) {
      p(`### Where our generation time goes`, '');
      p(
        `One more fresh process (\`scripts/bench/generation-phases.ts\`) runs the steps of \`generator/generate.ts\` one by one (${ph.operations} operations, ${ph.files} files; Biome formats ${ph.formattedFiles} of them), then the real \`generate()\` for the total: ${ms(ph.realGenerate.wallMs)} wall, ${ms(ph.realGenerate.cpuMs)} CPU. Loading the generator's modules (tsx transpiling TypeScript, ts-morph, Ajv) took ${ms(ph.importMs)} before that.`,
        '',
      );
      const sum = phaseTable(ph, p);
      const fmt = ph.phases.find((x) => x.name.startsWith('format'));
      const hey = g.tools[2]!;
      if (fmt)
        p(
          `Formatting (Biome's native binary, one run for all files; the CPU column counts this process only, the binary's own CPU is in the CLI's CPU above) is ${ms(fmt.wallMs)} wall of these steps; every other step together is ${ms(sum - fmt.cpuMs)} CPU, against @hey-api/openapi-ts's ${ms(median(hey.cpuMs))} CPU for its whole process. The rest of our CLI's time is process start, tsx transpiling the generator, loading ts-morph/TypeScript and Ajv, and reading generated/ for the comparison.`,
          '',
        );
      p(
        'Our output by kind (hey-api emits types, SDK functions and its client; openapi-typescript one .d.ts of types):',
        '',
      );
      p(
        '| kind | files | lines |',
        '|---|---|---|',
        ...Object.entries(ph.kinds)
          .sort((a, b) => b[1].lines - a[1].lines)
          .map(([k, v]) => `| ${k} | ${num(v.files)} | ${num(v.lines)} |`),
        '',
      );
    }
  }
}

/** Section scale of RESULTS.md. */
export function renderScale(r: BenchResults, p: Push): void {
  if (r.scale) {
    const sc = r.scale;
    p('## 1b. Generation at scale', '');
    p(
      `Synthetic specs made from \`spec/openapi.yaml\` by \`scripts/bench/synthetic-spec.ts\` (every namespace repeated under new names: paths, operationIds, tags and component names renamed; written to a temp folder, never committed). Each size generated without cache by a fresh process (\`node --import tsx scripts/bench/scale-child.ts <spec> <out>\`: read inputs, \`generate()\`, write every file), ${sc.runs} run(s) per size, sizes interleaved. Wall: spawn to exit; CPU and max RSS: GNU time; \`generate()\` alone is timed inside the child (without process start and module loading). Per operation: the median ÷ the number of operations.`,
      '',
    );
    const first = sc.rows[0]!;
    p(
      '| size | operations | spec | files written | wall (median) | CPU (median) | max RSS | generate() wall / CPU | wall per operation | CPU per operation | vs 1× per operation (wall / CPU) | wall runs |',
      '|---|---|---|---|---|---|---|---|---|---|---|---|',
    );
    for (const row of sc.rows) {
      const per = (pick: (x: ScaleRow) => number[]) => num(median(pick(row)) / row.operations, 2);
      p(
        `| ${num(row.factor)}× | ${num(row.operations)} | ${num(row.specBytes / 2 ** 20, 1)} MiB | ${num(row.files)} | ${ms(median(row.wallMs))} | ${ms(median(row.cpuMs))} | ${row.maxRssKb.length ? mib(Math.max(...row.maxRssKb) / 1024) : '–'} | ${ms(median(row.generateWallMs))} / ${ms(median(row.generateCpuMs))} | ${per((x) => x.wallMs)} ms | ${per((x) => x.cpuMs)} ms | ${
          row === first
            ? '–'
            : `${num(
                perOpRatio(sc, row, (x) => x.wallMs),
                2,
              )}× / ${num(
                perOpRatio(sc, row, (x) => x.cpuMs),
                2,
              )}×`
        } | ${row.wallMs.map((x) => Math.round(x)).join(', ')} |`,
      );
    }
    p('');
    if (sc.phases) {
      p(`### Where the time goes at ${num(sc.rows[sc.rows.length - 1]!.factor)}×`, '');
      p(
        `\`scripts/bench/generation-phases.ts\` on the largest synthetic spec (${num(sc.phases.operations)} operations, ${num(sc.phases.files)} files): each step of \`generate()\` timed alone, then the real \`generate()\`: ${ms(sc.phases.realGenerate.wallMs)} wall, ${ms(sc.phases.realGenerate.cpuMs)} CPU (module loading before it: ${ms(sc.phases.importMs)}).`,
        '',
      );
      phaseTable(sc.phases, p);
    }
  }
}

/** Section typecheck of RESULTS.md. */
export function renderTypecheck(r: BenchResults, p: Push): void {
  if (r.typecheck) {
    const tc = r.typecheck;
    p('## 5. Type-check', '');
    p(
      `\`tsc -p <consumer>\` (noEmit, strict, NodeNext, skipLibCheck) of a consumer calling the same 20 operations: ${tc.operations.join(', ')}. Median of ${tc.runs} fresh tsc processes each, interleaved, after one unmeasured run with \`--extendedDiagnostics\` (its figures below).`,
      '',
    );
    p(
      '| consumer | wall (median) | CPU | files | lines of definitions | types | instantiations | check time (tsc) | memory | runs (ms) |',
      '|---|---|---|---|---|---|---|---|---|---|',
    );
    for (const row of tc.rows) {
      const d = row.diagnostics;
      p(
        `| ${row.label} | ${ms(row.wallMs)} | ${ms(row.cpuMs)} | ${d.Files ?? '–'} | ${d['Lines of Definitions'] ?? '–'} | ${d.Types ?? '–'} | ${d.Instantiations ?? '–'} | ${d['Check time'] ?? '–'} | ${d['Memory used'] ?? '–'} | ${row.runsMs.join(', ')} |`,
      );
    }
    p('');
    for (const row of tc.rows)
      if (row.errors)
        p(
          `Type errors in the ${row.consumer} consumer (the timing still stands, but read it with this in mind):`,
          '',
          '```',
          row.errors,
          '```',
          '',
        );
  }
}

/** The phase table of a generation-phases.ts run, by CPU; returns the CPU sum of the phases. */
function phaseTable(ph: PhaseReport, p: (...lines: string[]) => void): number {
  const sum = ph.phases.reduce((a, x) => a + x.cpuMs, 0);
  p('| phase | wall | CPU | share of CPU |', '|---|---|---|---|');
  for (const x of [...ph.phases].sort((a, b) => b.cpuMs - a.cpuMs))
    p(`| ${x.name} | ${ms(x.wallMs)} | ${ms(x.cpuMs)} | ${num((100 * x.cpuMs) / sum)} % |`);
  p('');
  return sum;
}
