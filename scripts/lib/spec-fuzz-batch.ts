/**
 * The exhaustive spec fuzz in groups (`scripts/spec-fuzz.ts --batch N`): one payload written into
 * up to N fields of one spec at once, so that every (field, payload) pair is covered in a
 * fraction of the single-edit run's generate calls (1.3–2.2 s each on this 2-core box under load:
 * `--shard i/2` runs, 500 variants in 657–1,087 s).
 *
 * A group generates like a single variant, and is judged the same way, then:
 * - accepted: every edit in it is accepted. When its code changed otherwise than in data (or
 *   when asked), the package is built and imported; a side effect splits the group in halves
 *   until the edit behind it stands alone (then it is a failure, named by its field).
 * - refused: every problem must be located, with a rule and a fix (as for one edit). An edit is
 *   counted refused when a problem stands at its own place (its pointer after the edit, inside it,
 *   or above it when no other edit of the group is there too); the others go round again without it. A refusal no edit owns splits the group in
 *   halves; an edit alone is refused outright.
 * - crashed (not a SpecError): split until the edit stands alone, then a failure.
 *
 * A group never holds two edits whose text ranges overlap, nor two names of one mapping (one
 * payload twice in a mapping is a duplicate key, which would only say that about the group).
 */
import type { GeneratorCache } from '../../generator/format.js';
import type { GeneratorInput } from '../../generator/generate.js';
import { generate } from '../../generator/generate.js';
import { SpecError, pointerSegment } from '../../generator/spec-error.js';
import { codeChanges, type PackageBench } from './fuzz-package.js';
import { refusalViolations, SPEC_FILES, yamlQuoted, type FuzzSummary, type FuzzTarget } from './spec-fuzz.js';

export interface BatchRun {
  input: GeneratorInput;
  cache: GeneratorCache;
  baseline: ReadonlyMap<string, string>;
  bench: PackageBench;
  /** Build and import this accepted group even when its code did not change. */
  alwaysBuild?: () => boolean;
  onGroup?: (size: number, outcome: 'accepted' | 'refused' | 'crashed') => void;
  /** A payload is done on every field: its tally so far. */
  onPayload?: (name: string, tally: { refused: number; accepted: number }, failures: number) => void;
}

/** A one-edit run's summary without what only it measures, and the generate calls the groups made (re-runs and splits included). */
export type BatchSummary = Omit<FuzzSummary, 'dataOnly' | 'generateMs' | 'buildMs'> & { generateRuns: number };

/** Where an edit stands after it is made: a name's pointer carries the payload as its last segment. */
function editedPointer(target: FuzzTarget, payload: string): string {
  if (target.kind === 'value') return target.pointer;
  return `${target.pointer.slice(0, target.pointer.lastIndexOf('/'))}/${pointerSegment(payload)}`;
}

const parentOf = (pointer: string) => pointer.slice(0, pointer.lastIndexOf('/'));

/** Several edits of one text at once (ranges never overlap: from the last to the first). */
export function withPayloads(text: string, targets: readonly FuzzTarget[], payload: string): string {
  let out = text;
  for (const t of [...targets].sort((a, b) => b.range[0] - a.range[0])) {
    const [start, end] = t.range;
    const trailing = /\s*$/.exec(out.slice(start, end))![0];
    out = out.slice(0, start) + yamlQuoted(payload) + (trailing.includes('\n') ? trailing : '') + out.slice(end);
  }
  return out;
}

/** Targets into groups of at most `size`, no two overlapping and no two names of one mapping in a group. */
export function groupTargets(targets: readonly FuzzTarget[], size: number): FuzzTarget[][] {
  const groups: { items: FuzzTarget[]; parents: Set<string> }[] = [];
  for (const t of targets) {
    const parent = t.kind === 'name' ? parentOf(t.pointer) : undefined;
    const fits = (g: { items: FuzzTarget[]; parents: Set<string> }) =>
      g.items.length < size &&
      !(parent !== undefined && g.parents.has(parent)) &&
      !g.items.some((o) => o.range[0] < t.range[1] && t.range[0] < o.range[1]);
    let group = groups.find(fits);
    if (!group) groups.push((group = { items: [], parents: new Set() }));
    group.items.push(t);
    if (parent !== undefined) group.parents.add(parent);
  }
  return groups.map((g) => g.items);
}

/** Every (target, payload) pair, the targets of one spec file per group. */
export async function fuzzInGroups(
  run: BatchRun,
  targets: readonly FuzzTarget[],
  payloads: readonly { name: string; text: string }[],
  size: number,
): Promise<BatchSummary> {
  const summary: BatchSummary = {
    variants: 0,
    refused: 0,
    accepted: 0,
    generateRuns: 0,
    built: 0,
    byPayload: new Map(),
    byRule: new Map(),
    failures: [],
  };
  for (const payload of payloads) {
    const tally = { refused: 0, accepted: 0 };
    summary.byPayload.set(payload.name, tally);
    for (const file of Object.keys(SPEC_FILES) as (keyof typeof SPEC_FILES)[]) {
      const queue = groupTargets(
        targets.filter((t) => t.file === file),
        size,
      );
      summary.variants += queue.reduce((n, g) => n + g.length, 0);
      while (queue.length) {
        const group = queue.shift()!;
        const settled = await runGroup(run, summary, group, payload);
        if (settled.kind === 'accepted') {
          summary.accepted += group.length;
          tally.accepted += group.length;
        } else if (settled.kind === 'refused') {
          summary.refused += settled.owned.length;
          tally.refused += settled.owned.length;
          if (settled.rest.length) queue.unshift(...(settled.owned.length ? [settled.rest] : halves(settled.rest)));
        } else if (group.length === 1) {
          summary.failures.push({ variant: { target: group[0]!, payload }, problems: settled.problems });
        } else {
          queue.unshift(...halves(group));
        }
        run.onGroup?.(group.length, settled.kind === 'split' ? 'crashed' : settled.kind);
      }
    }
    run.onPayload?.(payload.name, tally, summary.failures.length);
  }
  return summary;
}

const halves = <T>(items: readonly T[]): T[][] =>
  [items.slice(0, Math.ceil(items.length / 2)), items.slice(Math.ceil(items.length / 2))].filter((h) => h.length);

type Settled =
  | { kind: 'accepted' }
  | { kind: 'refused'; owned: FuzzTarget[]; rest: FuzzTarget[] }
  /** Something went wrong that the group cannot pin on one edit: split it (or, alone, a failure). */
  | { kind: 'split'; problems: string[] };

async function runGroup(
  run: BatchRun,
  summary: BatchSummary,
  group: readonly FuzzTarget[],
  payload: { name: string; text: string },
): Promise<Settled> {
  const file = group[0]!.file;
  const edited = withPayloads(
    file === 'openapi' ? run.input.openapiText : run.input.callbacksText!,
    group,
    payload.text,
  );
  const input = file === 'openapi' ? { ...run.input, openapiText: edited } : { ...run.input, callbacksText: edited };
  summary.generateRuns++;
  let files: Map<string, string>;
  try {
    files = (await generate(input, run.cache)).files;
  } catch (error) {
    if (!(error instanceof SpecError))
      return {
        kind: 'split',
        problems: [
          `not a SpecError: ${String((error as Error)?.stack ?? error)
            .split('\n')
            .slice(0, 3)
            .join(' | ')}`,
        ],
      };
    const violations = refusalViolations(
      error,
      { [SPEC_FILES.openapi]: input.openapiText, [SPEC_FILES.callbacks]: input.callbacksText! },
      SPEC_FILES[file],
    );
    if (violations.length) return { kind: 'split', problems: violations };
    const problems = error.problems.filter((p) => (p.file ?? SPEC_FILES.openapi) === SPEC_FILES[file]);
    // a problem belongs to the one edit at, inside or above its place; shared by several, to none
    const places = group.map((t) => editedPointer(t, payload.text));
    const related = (a: string, b: string) => a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
    const owners = new Set<number>();
    for (const p of problems) {
      const near = places.flatMap((at, i) => (p.pointer && related(p.pointer, at) ? [i] : []));
      if (near.length !== 1 && group.length > 1) continue;
      owners.add(near[0] ?? 0);
      summary.byRule.set(p.rule, (summary.byRule.get(p.rule) ?? 0) + 1);
    }
    const owned = group.length === 1 ? [...group] : group.filter((_, i) => owners.has(i));
    return { kind: 'refused', owned, rest: group.filter((t) => !owned.includes(t)) };
  }
  const changed = codeChanges(run.baseline, files);
  if (changed.length || run.alwaysBuild?.()) {
    summary.built++;
    const problems = await run.bench.buildAndImport(files);
    if (problems.length) return { kind: 'split', problems };
  }
  return { kind: 'accepted' };
}
