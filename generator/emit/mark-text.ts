/**
 * The spec's descriptions also state its provenance marks ("Assumed: …", "Not documented by the
 * service: …", for viewers that hide x- keys). The generated docs state each mark once, in their
 * own place (after the retry class): the sentence is taken out of the description first.
 */
const LEADS = ['Assumed:', 'Assumed (the seed is silent):', 'Not documented by the service:'];

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `text` without the sentences that state one of `reasons` (with any of the mark leads). */
export function withoutMarkSentences(text: string, reasons: readonly string[]): string {
  let out = text;
  for (const reason of reasons) {
    const r = reason.trim().replace(/[.!?]$/, '');
    if (!r) continue;
    out = out.replace(new RegExp(`(?:${LEADS.map(escape).join('|')}) ${escape(r)}[.!?]?`, 'g'), '');
  }
  return out.replace(/[ \t]+\n/g, '\n').replace(/\n{3,}/g, '\n\n').replace(/[ \t]{2,}/g, ' ').trim();
}
