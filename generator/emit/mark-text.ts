/**
 * The spec's descriptions also state its provenance marks ("Assumed: …", "Not documented by the
 * service: …", for viewers that hide x- keys). The generated docs state each mark once, in their
 * own place (after the retry class): the sentence is taken out of the description first.
 */
const LEADS = [
  'Assumed:',
  'Assumed (the seed is silent):',
  "Assumed (the service's documentation is silent):",
  'Not documented by the service:',
];

/** `text` without every `needle`, and the `.`, `!` or `?` right after one (indexOf: linear, no regex built from spec text). */
function withoutEach(text: string, needle: string): string {
  let out = '';
  let from = 0;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, from)) {
    out += text.slice(from, at);
    from = at + needle.length;
    if ('.!?'.includes(text.charAt(from)) && text.charAt(from) !== '') from++;
  }
  return out + text.slice(from);
}

/** Spaces and tabs at the end of each line removed (a loop: `/[ \t]+\n/` backtracks quadratically on a long run of spaces). */
function trimLineEnds(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      let end = line.length;
      while (end > 0 && (line[end - 1] === ' ' || line[end - 1] === '\t')) end--;
      return line.slice(0, end);
    })
    .join('\n');
}

/** `text` without the sentences that state one of `reasons` (with any of the mark leads). */
export function withoutMarkSentences(text: string, reasons: readonly string[]): string {
  let out = text;
  for (const reason of reasons) {
    const trimmed = reason.trim();
    const r = '.!?'.includes(trimmed.slice(-1)) && trimmed !== '' ? trimmed.slice(0, -1) : trimmed;
    if (!r) continue;
    for (const lead of LEADS) out = withoutEach(out, `${lead} ${r}`);
  }
  return trimLineEnds(out)
    .replace(/\n{3,}/g, '\n\n')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}
