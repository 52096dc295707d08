/**
 * The change report of one generate or release: a diff of two ApiModels made by the same
 * buildApiModel (DESIGN.md), classed by the spec rules (compare.ts, compare-fields.ts), plus —
 * when asked (`types`) — the TypeScript checker's verdict on the two packages' declarations
 * (type-check.ts), plus the runtime and template files changed since the base (found by the CLI
 * from git). Rendered as a short summary for the terminal, Markdown for people and JSON for CI.
 */
import type { ApiModel } from '../model.js';
import { compareSurfaces, sortChanges, versionBump, type Change, type ChangeClass } from './compare.js';
import { surfaceOf, type OperationSurface } from './surface.js';
import { packageSources, typeCheckChanges } from './type-check.js';

export interface ChangeReport {
  /** What the spec was compared with, e.g. `HEAD:spec/openapi.yaml`, `merge-base with main (1a2b3c4)`. */
  base: string;
  bump: ReturnType<typeof versionBump>;
  counts: Record<ChangeClass, number>;
  changes: Change[];
  /** `done`: the TypeScript check ran; `skipped`: spec rules only (plain generate without --types). */
  typeCheck: 'done' | 'skipped';
  /** Runtime and package template files changed since the base (shipped code the spec does not show). */
  runtime?: string[];
}

export interface ReportOptions {
  /** Run the type check: the runtime templates the two packages are built with. */
  types?: { runtimeFiles: ReadonlyMap<string, string> };
  runtime?: string[];
}

export function changeReport(
  base: ApiModel,
  head: ApiModel,
  baseLabel: string,
  options: ReportOptions = {},
): ChangeReport {
  if (!options.types) return surfaceReport(surfaceOf(base), head, baseLabel, options.runtime);
  const { runtimeFiles } = options.types;
  const typed = typeCheckChanges(
    { model: base, files: packageSources(base, runtimeFiles) },
    { model: head, files: packageSources(head, runtimeFiles) },
  );
  const changes = mergeTypeChanges(compareSurfaces(surfaceOf(base), surfaceOf(head)), typed);
  return reportOf(baseLabel, changes, 'done', options.runtime);
}

/** The report by the spec rules alone, from the base's surface (which the CLI may have kept from an earlier run). */
export function surfaceReport(
  base: Map<string, OperationSurface>,
  head: ApiModel,
  baseLabel: string,
  runtime?: string[],
): ChangeReport {
  return reportOf(baseLabel, compareSurfaces(base, surfaceOf(head)), 'skipped', runtime);
}

export function reportOf(
  base: string,
  changes: Change[],
  typeCheck: ChangeReport['typeCheck'],
  runtime?: string[],
): ChangeReport {
  const counts: Record<ChangeClass, number> = { breaking: 0, addition: 0, 'non-breaking': 0 };
  for (const c of changes) counts[c.class] += 1;
  const apiBump = versionBump(changes);
  const bump = apiBump === 'none' && runtime?.length ? 'patch' : apiBump;
  return { base, bump, counts, changes, typeCheck, ...(runtime?.length ? { runtime } : {}) };
}

const sideOf = (kind: string) =>
  /^(type-)?param/.test(kind) || kind.startsWith('type-params')
    ? 'param'
    : /^(type-)?result/.test(kind)
      ? 'result'
      : 'other';

/**
 * Folds the type check's findings into the spec rules' changes: a finding about a field a rule
 * already names makes that change breaking (with the TypeScript types) instead of a second
 * entry; a finding about an operation that was removed or renamed is told by that; the rest are
 * changes of their own.
 */
export function mergeTypeChanges(spec: Change[], typed: Change[]): Change[] {
  const out = spec.map((c) => ({ ...c }));
  const gone = new Set(
    spec.filter((c) => c.kind === 'operation-removed' || c.kind === 'operation-renamed').map((c) => c.operation),
  );
  for (const t of typed) {
    if (gone.has(t.operation)) continue;
    // the same field on the same side; or, for a finding about the whole call, the call's own breaking change
    const same =
      out.find(
        (c) =>
          c.operation === t.operation &&
          c.field !== undefined &&
          c.field === t.field &&
          sideOf(c.kind) === sideOf(t.kind),
      ) ??
      (!t.field
        ? out.find(
            (c) =>
              c.operation === t.operation &&
              c.field === undefined &&
              c.class === 'breaking' &&
              sideOf(c.kind) === 'other',
          )
        : undefined);
    if (!same) {
      out.push(t);
      continue;
    }
    if (same.class !== 'breaking') {
      same.class = 'breaking';
      same.message = `${same.message}; breaking for a strict TypeScript caller: ${t.typeName} ${t.before} → ${t.after} no longer compiles where it is ${sideOf(t.kind) === 'param' ? 'passed' : 'read'}`;
      same.migration = t.migration;
    }
    same.source = 'types';
    same.typeName ??= t.typeName;
  }
  return sortChanges(out);
}

/** A few lines: the counts, the bump, and the breaking changes (at most `limit`). */
export function reportSummary(report: ChangeReport, limit = 10): string {
  const checked = report.typeCheck === 'done' ? 'spec rules and type check' : 'spec rules; --types adds the type check';
  const runtime = report.runtime?.length ? `, ${report.runtime.length} runtime/template file(s) changed` : '';
  if (!report.changes.length)
    return `change report vs ${report.base} (${checked}): no API change${runtime}${report.runtime?.length ? ' → patch version bump' : ''}`;
  const { breaking, addition } = report.counts;
  const lines = [
    `change report vs ${report.base} (${checked}): ${breaking} breaking, ${addition} addition(s), ${report.counts['non-breaking']} non-breaking${runtime} → ${report.bump} version bump`,
  ];
  const shown = report.changes.filter((c) => c.class === 'breaking').slice(0, limit);
  for (const c of shown) lines.push(`  breaking: ${c.message}`);
  if (breaking > shown.length)
    lines.push(`  … and ${breaking - shown.length} more breaking change(s) in the full report`);
  return lines.join('\n');
}

const TITLES: Record<ChangeClass, string> = {
  breaking: 'Breaking changes',
  addition: 'Additions',
  'non-breaking': 'Other changes',
};

export function reportMarkdown(report: ChangeReport): string {
  const lines = [
    `# API change report`,
    '',
    `Compared with \`${report.base}\` (${report.typeCheck === 'done' ? 'spec rules and the TypeScript check of both packages' : 'spec rules only'}). Version bump: **${report.bump}**.`,
    '',
  ];
  if (!report.changes.length) lines.push('No API change.', '');
  for (const cls of ['breaking', 'addition', 'non-breaking'] as const) {
    const list = report.changes.filter((c) => c.class === cls);
    if (!list.length) continue;
    lines.push(`## ${TITLES[cls]} (${list.length})`, '');
    for (const c of list) {
      lines.push(`- \`${c.kind}\` ${c.message}`);
      if (c.migration) lines.push(`  Migration: ${c.migration}.`);
    }
    lines.push('');
  }
  if (report.runtime?.length)
    lines.push(
      `## Runtime and template files changed (${report.runtime.length})`,
      '',
      ...report.runtime.map((f) => `- \`${f}\``),
      '',
    );
  return lines.join('\n');
}
