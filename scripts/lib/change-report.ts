/**
 * The change report step of `npm run generate` and `npm run release`: a resolved base spec
 * (resolve-base.ts) against the spec being generated, optionally with the type check, and the
 * runtime files changed since a git base. Writes dist-artifacts/change-report/report.{md,json}.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  changeReport,
  reportMarkdown,
  reportOf,
  surfaceReport,
  type ChangeReport,
} from '../../generator/diff/report.js';
import { surfaceOf, type OperationSurface } from '../../generator/diff/surface.js';
import type { Change } from '../../generator/diff/compare.js';
import { specModel } from '../../generator/generate.js';
import type { ApiModel } from '../../generator/model.js';
import type { GeneratorCache } from '../../generator/format.js';
import { readTree } from '../../generator/read-inputs.js';
import { runtimeChangesSince, type ResolvedBase } from './resolve-base.js';

export const REPORT_DIR = 'dist-artifacts/change-report';

export interface ReportRun {
  /** The spec being generated; when the base is the same text there is no API change to look for. */
  headText?: string;
  /** Run the TypeScript check of both packages (the gate and release always do). */
  types?: boolean;
  /** The generator's cache: keeps the base spec's parsed YAML between runs. */
  cache?: GeneratorCache;
}

export function buildChangeReport(
  root: string,
  head: ApiModel,
  base: ResolvedBase,
  run: ReportRun = {},
): ChangeReport | { error: string } {
  const runtime = base.commit ? runtimeChangesSince(root, base.commit) : undefined;
  // by the spec rules alone only the base's surface is read: kept in the cache by the base text,
  // so a run after an edit does not parse, check and model the unchanged base again (~100 ms)
  const surfaceKey =
    run.cache && !run.types ? `base-surface\0${createHash('sha256').update(base.text).digest('hex')}` : '';
  if (run.headText !== undefined && base.text === run.headText) {
    // the head is the base: its surface is the one the first edit will compare with
    if (surfaceKey && run.cache!.get(surfaceKey) === undefined)
      run.cache!.set(surfaceKey, surfaceJson(surfaceOf(head)));
    return reportOf(base.label, [], run.types ? 'done' : 'skipped', runtime);
  }
  const cached = surfaceKey ? run.cache!.get(surfaceKey) : undefined;
  if (cached !== undefined) return surfaceReport(surfaceFromJson(cached), head, base.label, runtime);
  let baseModel: ApiModel;
  try {
    baseModel = specModel(base.text, head.source, undefined, run.cache);
  } catch (error) {
    return { error: `the base spec ${base.label} does not build a model: ${(error as Error).message.split('\n')[0]}` };
  }
  if (surfaceKey) {
    const surface = surfaceOf(baseModel);
    run.cache!.set(surfaceKey, surfaceJson(surface));
    return surfaceReport(surface, head, base.label, runtime);
  }
  const types = run.types ? { runtimeFiles: readTree(join(root, 'templates/runtime')) } : undefined;
  return changeReport(baseModel, head, base.label, { ...(types ? { types } : {}), ...(runtime ? { runtime } : {}) });
}

/** A surface as JSON (its two field maps as entry lists, in order) and back. */
export function surfaceJson(surface: Map<string, OperationSurface>): string {
  return JSON.stringify(
    [...surface].map(([id, op]) => [id, { ...op, params: [...op.params], result: [...op.result] }]),
  );
}

export function surfaceFromJson(text: string): Map<string, OperationSurface> {
  const entries = JSON.parse(text) as [string, any][];
  return new Map(entries.map(([id, op]) => [id, { ...op, params: new Map(op.params), result: new Map(op.result) }]));
}

export function writeChangeReport(root: string, report: ChangeReport): string {
  const dir = join(root, REPORT_DIR);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'report.md'), reportMarkdown(report));
  writeFileSync(join(dir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
  return REPORT_DIR;
}

/** The human notes of the next release: `release` puts them in the CHANGELOG; the gate reads them. */
export const NOTES_FILE = 'release-notes/next.md';

/**
 * Breaking changes the notes acknowledge: the notes name the change's SDK call (`im.users.get()`)
 * or, for a change to an exported type alone, the type (`CountResult`).
 */
export function acknowledged(changes: readonly Change[], notes: string): { accepted: Change[]; open: Change[] } {
  const text = stripTemplate(notes);
  const named = (c: Change) =>
    c.call ? text.includes(c.call) : !!c.typeName && new RegExp(`\\b${c.typeName.split('.')[0]}\\b`).test(text);
  const breaking = changes.filter((c) => c.class === 'breaking');
  return { accepted: breaking.filter(named), open: breaking.filter((c) => !named(c)) };
}

/** The notes without the template's own comment (which names an example call). */
export function stripTemplate(notes: string): string {
  return notes.replace(/<!--[\s\S]*?-->/g, '').trim();
}
