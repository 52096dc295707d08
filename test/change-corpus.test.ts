/**
 * The change-report corpus (issue 27): every single edit of test/change-corpus/edits.ts is
 * reported with the class written down for it, by the spec rules and the type check together;
 * and a strict caller's snippet per edit compiles against the base package and — exactly when the
 * edit is written down as breaking a compile — not against the edited one. All snippets and all
 * edited packages are checked in one TypeScript program (shared files are read once).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import type { Change } from '../generator/diff/compare.js';
import { packagesProgram } from '../generator/diff/package-program.js';
import { changeReport, type ChangeReport } from '../generator/diff/report.js';
import { packageSources } from '../generator/diff/type-check.js';
import { specModel } from '../generator/generate.js';
import type { ApiModel } from '../generator/model.js';
import { readTree } from '../generator/read-inputs.js';
import { CORPUS, type CorpusEdit } from './change-corpus/edits.js';
import { repoRoot } from './helpers/seed.js';

const SOURCE = 'test/fixtures/change-corpus.yaml';
const baseText = readFileSync(join(repoRoot, SOURCE), 'utf8');
const runtimeFiles = readTree(join(repoRoot, 'templates/runtime'));

interface Outcome {
  edit: CorpusEdit;
  model: ApiModel;
  report: ChangeReport;
  got: CorpusEdit['expected'];
}

const worst = (changes: readonly Change[]): CorpusEdit['expected'] =>
  changes.some((c) => c.class === 'breaking')
    ? 'breaking'
    : changes.some((c) => c.class === 'addition')
      ? 'addition'
      : changes.length
        ? 'non-breaking'
        : 'none';

/** The caller module: the snippet in an async function, with the results it names fetched first. */
function callerModule(pkg: string, snippet: string): string {
  const fetched = [
    /\bcall\b/.test(snippet) ? "const call = await im.calls.get({ call_id: 'c' });" : '',
    /\bstats\b/.test(snippet) ? 'const stats = await im.calls.stats();' : '',
  ].filter(Boolean);
  return [
    `import { ImClient } from '${pkg}/src/index.js';`,
    `import type * as T from '${pkg}/src/index.js';`,
    'export type { T };',
    'export async function run(im: ImClient, input: string): Promise<void> {',
    '  void input;',
    ...fetched.map((l) => `  ${l}`),
    `  ${snippet}`,
    '}',
    '',
  ].join('\n');
}

describe(`change report corpus: ${CORPUS.length} single spec edits`, () => {
  const baseModel = specModel(baseText, SOURCE);
  const outcomes: Outcome[] = [];
  const compileErrors = new Map<string, { base: string[]; head: string[] }>();

  beforeAll(() => {
    for (const edit of CORPUS) {
      const doc = parse(baseText);
      edit.edit(doc);
      const model = specModel(stringify(doc), SOURCE);
      const report = changeReport(baseModel, model, 'base', { types: { runtimeFiles } });
      outcomes.push({ edit, model, report, got: worst(report.changes) });
    }
    // one program: the base package, every edited package, two caller modules per edit
    const callers = new Map<string, string>();
    for (const { edit } of outcomes) {
      callers.set(`/callers/${edit.id}/base.ts`, callerModule('/pkg/base', edit.caller));
      callers.set(`/callers/${edit.id}/head.ts`, callerModule(`/pkg/${edit.id}`, edit.caller));
    }
    const { program } = packagesProgram(
      [
        { root: '/pkg/base', files: packageSources(baseModel, runtimeFiles) },
        ...outcomes.map((o) => ({ root: `/pkg/${o.edit.id}`, files: packageSources(o.model, runtimeFiles) })),
      ],
      callers,
    );
    const errorsOf = (file: string) => {
      const sf = program.getSourceFile(file)!;
      return [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)].map(
        (d) => `TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`,
      );
    };
    for (const { edit } of outcomes)
      compileErrors.set(edit.id, {
        base: errorsOf(`/callers/${edit.id}/base.ts`),
        head: errorsOf(`/callers/${edit.id}/head.ts`),
      });
    const agree = outcomes.filter((o) => o.got === o.edit.expected).length;
    console.log(
      `change corpus: ${agree} of ${outcomes.length} edits reported with the expected class; ${outcomes.filter((o) => o.edit.breaksCompile).length} break a strict caller's compile`,
    );
  }, 600_000);

  it('covers every construct the issue names, both directions', () => {
    const ids = CORPUS.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const needle of [
      'oneof-branch-added',
      'oneof-branch-removed',
      'anyof-branch-added',
      'anyof-branch-removed',
      'discriminator-value-added',
      'discriminator-value-removed',
      'const-added',
      'const-removed',
      'response-json-to-text',
      'request-media-added',
      'request-media-removed',
      'status-added-other-body',
      'page-next-cursor-renamed',
      'param-deprecated',
      'default-changed',
      'param-becomes-nullable',
      'result-becomes-nullable',
      'result-stops-nullable',
      'param-stops-nullable',
    ]) {
      expect(
        ids.filter((id) => id.includes(needle)),
        needle,
      ).not.toEqual([]);
    }
    expect(CORPUS.filter((e) => e.id.startsWith('param') || e.id.startsWith('named-request')).length).toBeGreaterThan(
      15,
    );
    expect(CORPUS.filter((e) => e.id.startsWith('result') || e.id.startsWith('named-result')).length).toBeGreaterThan(
      15,
    );
  });

  it.each(CORPUS.map((e) => [e.id, e] as const))('%s is reported as written down', (id) => {
    const o = outcomes.find((x) => x.edit.id === id)!;
    const lines = o.report.changes.map((c) => `${c.class} ${c.kind}: ${c.message}`);
    expect({ class: o.got, changes: lines }).toMatchObject({ class: o.edit.expected });
    // every message names the SDK call or the exported type it is about
    for (const c of o.report.changes) expect(c.call ?? c.typeName, c.message).toBeTruthy();
    for (const c of o.report.changes.filter((x) => x.class === 'breaking')) expect(c.migration, c.message).toBeTruthy();
  });

  it.each(CORPUS.map((e) => [e.id, e] as const))(
    '%s: a strict caller compiles against the base, and against the edit exactly when written down',
    (id, edit) => {
      const errors = compileErrors.get(id)!;
      expect(errors.base).toEqual([]);
      if (edit.breaksCompile) expect(errors.head.length, 'the snippet should stop compiling').toBeGreaterThan(0);
      else expect(errors.head).toEqual([]);
      // whatever breaks a strict caller's compile is reported breaking
      if (errors.head.length) expect(outcomes.find((x) => x.edit.id === id)!.got).toBe('breaking');
    },
  );
});
