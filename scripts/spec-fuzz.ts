/**
 * `npx tsx scripts/spec-fuzz.ts`: the exhaustive spec fuzz of issue 25 (scripts/lib/spec-fuzz.ts
 * says what it checks). Every field of both specs (a string value or a name, generalised over
 * names and list indices) × every payload of the table, on the field's first occurrence in the
 * spec (`--occurrences all`: on every occurrence; slow). Prints the counts, writes the report to
 * dist-artifacts/spec-fuzz/report.md, exits 1 when a variant fails.
 *
 * Options: `--payloads a,b` (names from the table), `--fields <regex>` (over `file:field`),
 * `--build-every N` (also build and import every Nth accepted variant whose code did not change,
 * a cross-check of the token comparison; default 25), `--limit N` (stop after N variants),
 * `--sample N` (N variants drawn with `--seed S`, default 1: the same ones every run), `--shard i/n`
 * (every nth variant from the ith: run n processes side by side; each writes report-i-of-n.md).
 * `--batch N`: the same (field, payload) pairs, one payload in up to N fields of a spec per
 * generate (scripts/lib/spec-fuzz-batch.ts says how a group is judged and split): the whole table
 * in well under an hour where one edit at a time takes hours; writes report-batch.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from '../generator/generate.js';
import { readGeneratorInput } from '../generator/read-inputs.js';
import { fuzzInGroups, type BatchSummary } from './lib/spec-fuzz-batch.js';
import {
  byField,
  describeFailure,
  fuzzTargets,
  fuzzVariants,
  memoryCache,
  PackageBench,
  PAYLOADS,
  seeded,
  type FuzzTarget,
  type Variant,
} from './lib/spec-fuzz.js';

const root = fileURLToPath(new URL('..', import.meta.url));

function arg(flag: string): string | undefined {
  const i = process.argv.indexOf(flag);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const payloads = arg('--payloads') ? PAYLOADS.filter((p) => arg('--payloads')!.split(',').includes(p.name)) : PAYLOADS;
const fieldFilter = arg('--fields') ? new RegExp(arg('--fields')!) : undefined;
const everyOccurrence = arg('--occurrences') === 'all';
const buildEvery = Number(arg('--build-every') ?? 25);
const limit = Number(arg('--limit') ?? Infinity);

const started = performance.now();
const input = readGeneratorInput(root);
const cache = memoryCache();
const { files: baseline } = await generate(input, cache);
const fields = new Map([
  ...byField(fuzzTargets(input.openapiText, 'openapi')),
  ...byField(fuzzTargets(input.callbacksText!, 'callbacks')),
]);
const variants: Variant[] = [];
for (const [key, targets] of fields) {
  if (fieldFilter && !fieldFilter.test(key)) continue;
  for (const target of everyOccurrence ? targets : targets.slice(0, 1))
    for (const payload of payloads) variants.push({ target, payload });
}
const sample = arg('--sample') ? Number(arg('--sample')) : undefined;
const random = seeded(Number(arg('--seed') ?? 1));
const shard = arg('--shard')?.split('/').map(Number);
const drawn = sample
  ? variants
      .map((v) => ({ v, r: random() }))
      .sort((a, b) => a.r - b.r)
      .slice(0, sample)
      .map(({ v }) => v)
  : variants;
const chosen = (shard ? drawn.filter((_, i) => i % shard[1]! === shard[0]! - 1) : drawn).slice(0, limit);
const occurrences = [...fields.values()].reduce((n, t) => n + t.length, 0);
console.log(
  `${fields.size} fields (${occurrences} occurrences) in both specs × ${payloads.length} payloads: ${variants.length} variants${chosen.length !== variants.length ? `, ${chosen.length} run here` : ''}`,
);

const bench = new PackageBench(root);
if (arg('--batch')) {
  const targets = [...fields.entries()]
    .filter(([key]) => !fieldFilter || fieldFilter.test(key))
    .flatMap(([, t]) => (everyOccurrence ? t : t.slice(0, 1)));
  process.exit(await runInGroups(targets, Number(arg('--batch'))));
}
let acceptedSoFar = 0;
let done = 0;
const summary = await fuzzVariants(
  {
    input,
    cache,
    baseline,
    bench,
    alwaysBuild: () => buildEvery > 0 && acceptedSoFar++ % buildEvery === 0,
    onVariant: (variant, outcome, problems) => {
      done++;
      if (problems.length) console.log(`FAIL ${describeFailure({ variant, problems })}`);
      if (done % 500 === 0)
        console.log(
          `… ${done}/${chosen.length} variants, ${Math.round((performance.now() - started) / 1000)} s (last: ${outcome})`,
        );
    },
  },
  chosen,
);
bench.dispose();

const seconds = Math.round((performance.now() - started) / 1000);
const lines = [
  '# Spec fuzz (issue 25)',
  '',
  `\`npx tsx scripts/spec-fuzz.ts${process.argv.slice(2).length ? ` ${process.argv.slice(2).join(' ')}` : ''}\`: ${fields.size} fields (${occurrences} occurrences) of both specs, ${everyOccurrence ? 'every occurrence' : 'the first occurrence of each'}, × ${payloads.length} payloads; ${seconds} s.`,
  '',
  `| variants | refused (located SpecError) | accepted | of which code unchanged (tokens) | built and imported | failures |`,
  '|---|---|---|---|---|---|',
  `| ${summary.variants} | ${summary.refused} | ${summary.accepted} | ${summary.dataOnly} | ${summary.built} | ${summary.failures.length} |`,
  ...reportTables(summary, 'variants'),
];
const dir = join(root, 'dist-artifacts/spec-fuzz');
mkdirSync(dir, { recursive: true });
const reportName = shard ? `report-${shard[0]}-of-${shard[1]}.md` : 'report.md';
writeFileSync(join(dir, reportName), lines.join('\n'));
console.log(lines.slice(4, 7).join('\n'));
console.log(
  `report: dist-artifacts/spec-fuzz/${reportName} (${seconds} s: generate ${Math.round(summary.generateMs / 1000)} s, build and import ${Math.round(summary.buildMs / 1000)} s)`,
);
process.exit(summary.failures.length ? 1 : 0);

/** The report's tables after its figures: by payload, by refusal rule, the failures. */
function reportTables(summary: Pick<BatchSummary, 'byPayload' | 'byRule' | 'failures'>, ruleCount: string): string[] {
  return [
    '',
    '| payload | refused | accepted |',
    '|---|---|---|',
    ...[...summary.byPayload].map(([name, t]) => `| ${name} | ${t.refused} | ${t.accepted} |`),
    '',
    `| refusal rule | ${ruleCount} |`,
    '|---|---|',
    ...[...summary.byRule].sort((a, b) => b[1] - a[1]).map(([rule, n]) => `| ${rule} | ${n} |`),
    '',
    ...(summary.failures.length
      ? ['## Failures', '', ...summary.failures.map((f) => `- ${describeFailure(f)}`)]
      : ['No failure.']),
    '',
  ];
}

/** `--batch N`: every pair in groups; prints and writes the report; the exit code. */
async function runInGroups(targets: FuzzTarget[], size: number): Promise<number> {
  let groups = 0;
  let builds = 0;
  const summary = await fuzzInGroups(
    {
      input,
      cache,
      baseline,
      bench,
      alwaysBuild: () => buildEvery > 0 && builds++ % buildEvery === 0,
      onPayload: (name, t, failures) =>
        console.log(
          `payload ${name}: ${t.refused} refused, ${t.accepted} accepted, failures so far ${failures}, ${Math.round((performance.now() - started) / 1000)} s`,
        ),
      onGroup: (n, outcome) => {
        if (++groups % 100 === 0)
          console.log(
            `… ${groups} groups (last: ${n} edits, ${outcome}), ${Math.round((performance.now() - started) / 1000)} s`,
          );
      },
    },
    targets,
    payloads,
    size,
  );
  bench.dispose();
  const seconds = Math.round((performance.now() - started) / 1000);
  const lines = [
    '# Spec fuzz in groups (issue 25)',
    '',
    `\`npx tsx scripts/spec-fuzz.ts ${process.argv.slice(2).join(' ')}\`: ${targets.length} fields of both specs (${everyOccurrence ? 'every occurrence' : 'the first occurrence of each'}) × ${payloads.length} payloads, up to ${size} edits per generate; ${seconds} s, ${summary.generateRuns} generate runs.`,
    '',
    '| variants (field × payload) | refused at their own place (located SpecError) | accepted | packages built and imported | failures |',
    '|---|---|---|---|---|',
    `| ${summary.variants} | ${summary.refused} | ${summary.accepted} | ${summary.built} | ${summary.failures.length} |`,
    ...reportTables(summary, 'problems at their edit place'),
  ];
  const dir = join(root, 'dist-artifacts/spec-fuzz');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'report-batch.md'), lines.join('\n'));
  console.log(lines.slice(2, 7).join('\n'));
  for (const f of summary.failures) console.log(`FAIL ${describeFailure(f)}`);
  return summary.failures.length || summary.variants !== summary.refused + summary.accepted ? 1 : 0;
}
