/**
 * Where a JSON pointer stands in the YAML text: `spec/openapi.yaml:LINE:COL`, for refusals a
 * person can jump to. Parsed only when there is something to report (never on a clean run).
 */
import { isMap, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import { printable, type SpecError, type SpecProblem } from './spec-error.js';

const segmentsOf = (pointer: string): string[] =>
  pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));

/** `/paths/~1users/get/responses/200` → `paths./users.get.responses.200`. */
export function readablePath(pointer: string): string {
  return segmentsOf(pointer).join('.') || '(document)';
}

export interface Located {
  line: number;
  col: number;
  /** False when the pointer's last part is missing and the position is its nearest parent's. */
  exact: boolean;
}

/** A locator over one YAML text (parse once, locate many). */
export function yamlLocator(text: string): (pointer: string) => Located | undefined {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, keepSourceTokens: false });
  return (pointer) => {
    let node: Node | null | undefined = doc.contents as Node | null;
    let keyNode: Node | undefined;
    let exact = true;
    for (const seg of segmentsOf(pointer)) {
      if (isMap(node)) {
        const pair = node.items.find((p) => String((p.key as { value?: unknown })?.value ?? p.key) === seg);
        if (!pair) {
          exact = false;
          break;
        }
        keyNode = pair.key as Node;
        node = pair.value as Node | null;
      } else if (isSeq(node) && /^\d+$/.test(seg) && node.items[Number(seg)]) {
        keyNode = undefined;
        node = node.items[Number(seg)] as Node;
      } else {
        exact = false;
        break;
      }
    }
    const at = keyNode?.range ?? node?.range;
    if (!at) return undefined;
    const pos = lineCounter.linePos(at[0]);
    return { line: pos.line, col: pos.col, exact };
  };
}

/**
 * Two or three lines per problem: `file:line:col  readable.path`, `rule: message`, `fix: hint`.
 * `texts`: file → YAML text of every spec a problem may name (`problem.file`, else `source`).
 */
export function formatSpecProblems(
  problems: readonly SpecProblem[],
  texts: Readonly<Record<string, string>>,
  source: string,
): string {
  const locators = new Map<string, ReturnType<typeof yamlLocator>>();
  const locatorOf = (file: string) => {
    if (!locators.has(file) && texts[file] !== undefined) {
      try {
        locators.set(file, yamlLocator(texts[file]!));
      } catch {
        locators.set(file, () => undefined); // a text the YAML reader cannot take apart: the file is named without a line
      }
    }
    return locators.get(file);
  };
  // the document itself (pointer '') stands at its first line; a YAML error at the parser's position
  const whereOf = (p: SpecProblem) =>
    p.position ?? (p.pointer ? locatorOf(p.file ?? source)?.(p.pointer) : { line: 1, col: 1 });
  return problems
    .map((p) => ({ p, file: p.file ?? source, where: whereOf(p) }))
    .sort((a, b) => a.file.localeCompare(b.file) || (a.where?.line ?? 0) - (b.where?.line ?? 0))
    .map(({ p, file, where }) => {
      const position = where ? `${file}:${where.line}:${where.col}` : file;
      return printable(`${position}  ${readablePath(p.pointer)}\n  ${p.rule}: ${p.message}\n  fix: ${p.hint}`);
    })
    .join('\n');
}

export function formatSpecError(error: SpecError, texts: Readonly<Record<string, string>>, source: string): string {
  const n = error.problems.length;
  return `${n} problem${n === 1 ? '' : 's'} in the spec (nothing was generated):\n${formatSpecProblems(error.problems, texts, source)}`;
}
