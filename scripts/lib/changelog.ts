/**
 * generated/CHANGELOG.md as people read it: one dated section per release, newest first; entries
 * grouped breaking / additions / other / runtime, each naming the SDK call and type with the old
 * and new type, a migration line under each breaking entry, and the maintainer's notes
 * (release-notes/next.md) under their own heading. Each section carries a marker comment
 * (`<!-- im-release … -->`) that lets `release` recognise a section it already wrote: it keeps
 * one section per release instead of bumping twice.
 */
import type { ChangeReport } from '../../generator/diff/report.js';
import type { Change, ChangeClass } from '../../generator/diff/compare.js';

export interface ReleaseMarker {
  version: string;
  /** The version it was bumped from. */
  from: string;
  /** The base the report compared with, as `--base` takes it. */
  base: string;
  /** Hash of what was released (spec, shipped runtime, notes): the same again is no new release. */
  fingerprint: string;
}

export interface Section {
  version: string;
  marker?: ReleaseMarker;
  /** The notes the section holds (kept when the section is written again). */
  notes: string;
  text: string;
}

const HEADINGS: Record<ChangeClass, string> = {
  breaking: 'Breaking changes',
  addition: 'Additions',
  'non-breaking': 'Other changes',
};
const MARKER = /<!-- im-release (\{.*?\}) -->/;

/** `im.calls.stats(): …` → `` `im.calls.stats()`: … `` */
function entry(c: Change): string[] {
  const text = c.call && c.message.startsWith(c.call) ? `\`${c.call}\`${c.message.slice(c.call.length)}` : c.message;
  const lines = [`- ${text}`];
  if (c.class === 'breaking')
    lines.push(`  - Migration: ${c.migration ?? `check your calls of ${c.call ?? c.typeName ?? c.operation}`}.`);
  return lines;
}

export interface SectionInput {
  version: string;
  date: string;
  report: ChangeReport;
  marker: ReleaseMarker;
  /** How the version was chosen, e.g. `minor: breaking changes before 1.0`. */
  why: string;
  notes: string;
}

export function changelogSection(s: SectionInput): string {
  const { report } = s;
  const lines = [`## ${s.version} — ${s.date}`, '', `<!-- im-release ${JSON.stringify(s.marker)} -->`, ''];
  lines.push(
    `Compared with \`${report.base}\`${report.typeCheck === 'done' ? ' (spec rules and the TypeScript check of both packages)' : ''}. Version: ${s.marker.from} → ${s.version} (${s.why}).`,
    '',
  );
  if (!report.changes.length && !report.runtime?.length) lines.push('No API change.', '');
  for (const cls of ['breaking', 'addition', 'non-breaking'] as const) {
    const list = report.changes.filter((c) => c.class === cls);
    if (!list.length) continue;
    lines.push(`### ${HEADINGS[cls]}`, '', ...list.flatMap(entry), '');
  }
  if (report.runtime?.length)
    lines.push(
      '### Runtime and templates',
      '',
      'Shipped code changed without an API change:',
      '',
      ...report.runtime.map((f) => `- \`${f}\``),
      '',
    );
  if (s.notes.trim()) lines.push('### Notes', '', s.notes.trim(), '');
  return `${lines.join('\n').trimEnd()}\n`;
}

/** The changelog's intro and its sections, newest first. */
export function parseChangelog(text: string): { intro: string; sections: Section[] } {
  const [head, ...rest] = text.split(/\n(?=## )/);
  const sections = rest.map((raw): Section => {
    const version = /^## (\S+)/.exec(raw)?.[1] ?? '';
    const m = MARKER.exec(raw);
    const notes = /\n### Notes\n\n([\s\S]*)$/.exec(raw)?.[1]?.trimEnd() ?? '';
    return { version, ...(m ? { marker: JSON.parse(m[1]!) as ReleaseMarker } : {}), notes, text: `${raw.trimEnd()}\n` };
  });
  return { intro: head!.replace(/No release yet\.\n?$/, '').trimEnd(), sections };
}

/** The changelog with `section` on top, replacing the top section when `replaceTop`. */
export function withSection(changelog: string, section: string, replaceTop = false): string {
  const { intro, sections } = parseChangelog(changelog);
  const kept = replaceTop ? sections.slice(1) : sections;
  return [intro, section.trimEnd(), ...kept.map((s) => s.text.trimEnd())].join('\n\n').replace(/\n*$/, '\n');
}
