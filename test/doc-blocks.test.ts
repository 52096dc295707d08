/**
 * One doc block per declaration (scripts/lib/doc-blocks.ts): no stacked blocks (the hover keeps
 * only the last) and no block attached to nothing, in all hand-written TypeScript; the cases show
 * what the check sees and what it allows (a file overview, union members, strings).
 */
import { describe, expect, it } from 'vitest';
import { docBlockProblems, findDocBlockProblems, handWrittenFiles } from '../scripts/lib/doc-blocks.js';
import { repoRoot } from './helpers/seed.js';

const rules = (text: string) => docBlockProblems('a.ts', text).map((p) => `${p.at} ${p.rule}`);

describe('doc blocks', () => {
  it('finds two stacked blocks on one declaration and a block before no code', () => {
    expect(rules('const a = 1;\n/** a */\n/** b */\nexport function f() {}\n')).toEqual(['a.ts:2 stacked']);
    expect(rules('export function f() {\n  return 1;\n  /** after the last statement */\n}\n')).toEqual([
      'a.ts:3 orphan',
    ]);
    expect(rules('export const a = [\n  /** an element */\n  1,\n];\n')).toEqual(['a.ts:2 orphan']);
  });

  it('allows a file overview above the first declaration’s own block, union members, and /** inside strings', () => {
    expect(rules('#!/usr/bin/env node\n/** The file. */\n/** f. */\nexport function f() {}\n')).toEqual([]);
    expect(rules('/** The file. */\nimport { x } from "x";\n/** f. */\nexport const f = x;\n')).toEqual([]);
    expect(
      rules("/** Why. */\nexport type R =\n  /** the network */\n  | 'network'\n  /** no answer */\n  | 'timeout';\n"),
    ).toEqual([]);
    expect(
      rules('export const s = `/** not a comment */ ${1} /** nor this */`;\nexport const r = /\\/\\*\\*/;\n'),
    ).toEqual([]);
    expect(rules('const a = 1;\n/** a second statement is no overview */\n/** b */\nexport const b = a;\n')).toEqual([
      'a.ts:2 stacked',
    ]);
  });

  it('none in the hand-written TypeScript (generator, runtime, examples, scripts, tests)', () => {
    const files = handWrittenFiles(repoRoot);
    expect(files).toContain('templates/runtime/internal/retry.ts');
    expect(files.some((f) => f.startsWith('generated/') || f.includes('__snapshots__'))).toBe(false);
    expect(findDocBlockProblems(repoRoot).map((p) => `${p.at} ${p.rule}: ${p.message}`)).toEqual([]);
  }, 60_000);
});
