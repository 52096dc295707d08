/**
 * One doc block per declaration (issue 32): a `/** … *\/` block is the hover text of the code it
 * precedes, so two stacked blocks on one declaration lose the first one's text from the hover
 * (TypeScript shows the last), and a block that precedes no code (at the end of a body, before a
 * closing brace) documents nothing. This finds both in hand-written TypeScript with the compiler's
 * own parser: a block is attached when the parser hangs it on a node (`jsDoc`). A file's opening
 * block, before its imports, is its overview and may stand above the first declaration's own; a
 * block before a member of a union type (`| 'timeout'`) documents that member (TypeDoc shows it).
 * `npx tsx scripts/check-doc-blocks.ts` prints them; test/doc-blocks.test.ts fails on any.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export interface DocBlockProblem {
  /** `path:line`, line 1-based. */
  at: string;
  rule: 'stacked' | 'orphan';
  message: string;
}

/** The folders of hand-written TypeScript, relative to the repository root. */
export const HAND_WRITTEN_DIRS = ['generator', 'templates/runtime', 'templates/examples', 'scripts', 'test'];
const SKIPPED = /(^|\/)(node_modules|__snapshots__|generated|out|fixtures\/corpus)(\/|$)/;

/** Every `.ts` file under the hand-written folders, sorted, relative to `root`. */
export function handWrittenFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (SKIPPED.test(path)) continue;
      if (entry.isDirectory()) walk(path);
      else if (/\.m?ts$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
    }
  };
  for (const dir of HAND_WRITTEN_DIRS) walk(dir);
  return out.sort();
}

/** The stacked and orphan doc blocks of one file's text. */
export function docBlockProblems(path: string, text: string): DocBlockProblem[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const attached = new Set<number>();
  const problems: DocBlockProblem[] = [];
  const line = (pos: number): string => `${path}:${source.getLineAndCharacterOfPosition(pos).line + 1}`;
  const overviewOf = source.statements[0];
  const visit = (node: ts.Node): void => {
    const docs = (node as { jsDoc?: ts.JSDoc[] }).jsDoc ?? [];
    for (const doc of docs) attached.add(doc.pos);
    // the first statement may carry the file's overview above its own block
    const own = node === overviewOf && docs.length > 1 && isOverview(text, docs[0]!.pos) ? docs.slice(1) : docs;
    if (own.length > 1) {
      problems.push({
        at: line(own[0]!.pos),
        rule: 'stacked',
        message: `${own.length} doc blocks on one declaration: the hover shows only the last; merge them into one`,
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  for (const pos of docCommentStarts(source)) {
    if (!attached.has(pos) && !beforeUnionMember(text, pos))
      problems.push({
        at: line(pos),
        rule: 'orphan',
        message: 'a doc block attached to no declaration: move it onto the code it describes, or make it a // comment',
      });
  }
  return problems.sort((a, b) => a.at.localeCompare(b.at, undefined, { numeric: true }));
}

/** Every problem in the hand-written TypeScript under `root`. */
export function findDocBlockProblems(root: string): DocBlockProblem[] {
  return handWrittenFiles(root).flatMap((path) =>
    docBlockProblems(relative(root, join(root, path)), readFileSync(join(root, path), 'utf8')),
  );
}

/** A block before `| 'member'` of a union type documents that member (TypeDoc shows it; TypeScript has no hover there). */
function beforeUnionMember(text: string, pos: number): boolean {
  return /^\/\*\*[\s\S]*?\*\/\s*\|/.test(text.slice(pos, pos + 2000));
}

/** Only a shebang, whitespace or line comments before `pos`: the file's opening block. */
function isOverview(text: string, pos: number): boolean {
  return /^(#![^\n]*\n)?(\s|\/\/[^\n]*\n)*$/.test(text.slice(0, pos));
}

/** The start of every `/**` comment (not `/**\/`): the leading trivia of every token of the parsed file, so strings, templates and regular expressions do not count. */
function docCommentStarts(source: ts.SourceFile): number[] {
  const text = source.text;
  const starts = new Set<number>();
  const visit = (node: ts.Node): void => {
    if (node.kind >= ts.SyntaxKind.FirstToken && node.kind <= ts.SyntaxKind.LastToken) {
      for (const c of ts.getLeadingCommentRanges(text, node.pos) ?? []) {
        if (
          c.kind === ts.SyntaxKind.MultiLineCommentTrivia &&
          text.startsWith('/**', c.pos) &&
          text.slice(c.pos, c.end) !== '/**/'
        )
          starts.add(c.pos);
      }
      return;
    }
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return [...starts].sort((a, b) => a - b);
}
