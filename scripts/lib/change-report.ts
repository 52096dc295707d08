/**
 * The change report step of `npm run generate`: the spec as last committed (or `--base <ref|file>`)
 * against the spec being generated. Writes dist-artifacts/change-report/report.{md,json} for CI.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { changeReport, reportMarkdown, type ChangeReport } from '../../generator/diff/report.js';
import { specModel } from '../../generator/generate.js';
import type { ApiModel } from '../../generator/model.js';
import type { GeneratorCache } from '../../generator/format.js';

export const REPORT_DIR = 'dist-artifacts/change-report';

/** The base spec's text and label: a file path as given, else `<ref>:spec/openapi.yaml` from git. */
export function readBaseSpec(root: string, base: string, specPath = 'spec/openapi.yaml'): { text: string; label: string } | { error: string } {
  if (existsSync(join(root, base)) || existsSync(base)) {
    const path = existsSync(join(root, base)) ? join(root, base) : base;
    return { text: readFileSync(path, 'utf8'), label: base };
  }
  try {
    const text = execFileSync('git', ['show', `${base}:${specPath}`], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
    return { text, label: `${base}:${specPath}` };
  } catch (error) {
    const why = String((error as { stderr?: unknown }).stderr ?? error).split('\n')[0];
    return { error: `no base spec at ${base} (${why})` };
  }
}

/**
 * `headText`: the spec being generated; when the base is the same text there is nothing to compare.
 * `cache`: the generator's, which keeps the base spec's parsed YAML between runs.
 */
export function buildChangeReport(root: string, head: ApiModel, base: string, headText?: string, cache?: GeneratorCache): ChangeReport | { error: string } {
  const spec = readBaseSpec(root, base);
  if ('error' in spec) return spec;
  if (headText !== undefined && spec.text === headText) return { base: spec.label, bump: 'none', counts: { breaking: 0, addition: 0, 'non-breaking': 0 }, changes: [] };
  let baseModel: ApiModel;
  try {
    baseModel = specModel(spec.text, head.source, undefined, cache);
  } catch (error) {
    return { error: `the base spec ${spec.label} does not build a model: ${(error as Error).message.split('\n')[0]}` };
  }
  return changeReport(baseModel, head, spec.label);
}

export function writeChangeReport(root: string, report: ChangeReport): string {
  const dir = join(root, REPORT_DIR);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'report.md'), reportMarkdown(report));
  writeFileSync(join(dir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
  return REPORT_DIR;
}
