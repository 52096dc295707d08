/**
 * The change report of one generate: built from two ApiModels made by the same buildApiModel
 * (DESIGN.md), rendered as a short summary for the terminal, Markdown for people and JSON for CI.
 */
import type { ApiModel } from '../model.js';
import { compareSurfaces, versionBump, type Change, type ChangeClass } from './compare.js';
import { surfaceOf } from './surface.js';

export interface ChangeReport {
  /** What the spec was compared with, e.g. `HEAD:spec/openapi.yaml`. */
  base: string;
  bump: ReturnType<typeof versionBump>;
  counts: Record<ChangeClass, number>;
  changes: Change[];
}

export function changeReport(base: ApiModel, head: ApiModel, baseLabel: string): ChangeReport {
  const changes = compareSurfaces(surfaceOf(base), surfaceOf(head));
  const counts: Record<ChangeClass, number> = { breaking: 0, addition: 0, 'non-breaking': 0 };
  for (const c of changes) counts[c.class] += 1;
  return { base: baseLabel, bump: versionBump(changes), counts, changes };
}

/** A few lines: the counts, the bump, and the breaking changes (at most `limit`). */
export function reportSummary(report: ChangeReport, limit = 10): string {
  if (!report.changes.length) return `change report vs ${report.base}: no API change`;
  const { breaking, addition } = report.counts;
  const lines = [`change report vs ${report.base}: ${breaking} breaking, ${addition} addition(s), ${report.counts['non-breaking']} non-breaking → ${report.bump} version bump`];
  const shown = report.changes.filter((c) => c.class === 'breaking').slice(0, limit);
  for (const c of shown) lines.push(`  breaking: ${c.message}`);
  if (breaking > shown.length) lines.push(`  … and ${breaking - shown.length} more breaking change(s) in the full report`);
  return lines.join('\n');
}

const TITLES: Record<ChangeClass, string> = { breaking: 'Breaking changes', addition: 'Additions', 'non-breaking': 'Other changes' };

export function reportMarkdown(report: ChangeReport): string {
  const lines = [`# API change report`, '', `Compared with \`${report.base}\`. Version bump: **${report.bump}**.`, ''];
  if (!report.changes.length) lines.push('No API change.', '');
  for (const cls of ['breaking', 'addition', 'non-breaking'] as const) {
    const list = report.changes.filter((c) => c.class === cls);
    if (!list.length) continue;
    lines.push(`## ${TITLES[cls]} (${list.length})`, '');
    for (const c of list) lines.push(`- \`${c.kind}\` ${c.message}`);
    lines.push('');
  }
  return lines.join('\n');
}
