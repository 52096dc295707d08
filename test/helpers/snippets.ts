/**
 * The ```ts blocks of a markdown document, with their line numbers; a block preceded by
 * `<!-- snippet: not compiled, <reason> -->` carries that reason in `skipped`.
 */
const SKIP = /<!--\s*snippet:\s*not compiled,\s*([^>]+?)\s*-->\s*$/;

export interface Snippet {
  doc: string;
  line: number;
  code: string;
  skipped?: string;
}

export function tsSnippets(doc: string, text: string): Snippet[] {
  const lines = text.split('\n');
  const out: Snippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(ts|typescript)\s*$/.test(lines[i]!)) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]!); i++) body.push(lines[i]!);
    const before =
      lines
        .slice(0, start)
        .reverse()
        .find((l) => l.trim() !== '') ?? '';
    const skipped = before.match(SKIP)?.[1];
    out.push({ doc, line: start + 1, code: body.join('\n'), ...(skipped ? { skipped } : {}) });
  }
  return out;
}

/** The title of the `## ` section a line of `text` is in ('' before the first). */
export function sectionAt(text: string, line: number): string {
  const lines = text.split('\n').slice(0, line);
  const heading = [...lines].reverse().find((l) => /^## /.test(l));
  return heading ? heading.slice(3).trim() : '';
}

/** The text of the `## <title>` section, up to the next `## ` heading. */
export function sectionText(text: string, title: string): string {
  const lines = text.split('\n');
  const start = lines.indexOf(`## ${title}`);
  if (start < 0) return '';
  const end = lines.findIndex((l, i) => i > start && /^## /.test(l));
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}
