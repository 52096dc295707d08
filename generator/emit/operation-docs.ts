/** The doc comment of an operation's method and function: meaning, wire, retry class, assumptions. */
import type { OperationModel } from '../model.js';
import { withoutMarkSentences } from './mark-text.js';

const CLASS_WORDS: Record<string, string> = {
  Q: 'Q (read-only): resent automatically on a network error, timeout or 5xx.',
  I: 'I (idempotent): resent automatically on a network error, timeout or 5xx. A resent call that answers not_found or version_conflict may be the echo of its own earlier attempt: the error then has `mayBeEchoOfEarlierAttempt: true`.',
  U: 'U (unique create): resent automatically on a network error, timeout or 5xx. A resent call that answers already_exists may be the echo of its own earlier attempt: the error then has `mayBeEchoOfEarlierAttempt: true`.',
  D: 'D (deduplicated): resent automatically with the same dedupe key, which the client fills when you give none.',
  N: 'N (not repeated): never resent after a network error, timeout or 5xx, because the request may already have been executed. Only a 429 (not executed) is waited out and resent.',
};

function conditionWords(op: OperationModel): string[] {
  return op.retryClassWhen.map((c) => {
    const tests = c.all.map((t) => ('equals' in t ? `\`${t.field}\` is ${JSON.stringify(t.equals)}` : `\`${t.field}\` is ${t.present ? 'given' : 'not given'}`));
    return `Class ${c.class} when ${tests.join(' and ')}.`;
  });
}

export function operationDocs(op: OperationModel): string {
  const lines: string[] = [];
  // Hover order: what it does (one line), method and path, what else the spec says, retry class, assumptions.
  // (a summary that is only the op id, or "opId (METHOD /path)", says nothing the next line does not)
  const summary = op.summary === op.id || op.summary.startsWith(`${op.id} (`) ? undefined : op.summary.trim().replace(/([^.!?])$/, '$1.');
  if (summary) lines.push(summary);
  lines.push(`\`${op.method} /{org_name}/{app_name}${op.path}\` — op \`${op.id}\`.`);
  const marks = op.provenance.map((p) => p.reason);
  let description = withoutMarkSentences(op.description.replace(/Retry class [QIUDN]: [^\n]*\n*/g, '').replace(/Class N when [^\n]*\n*/g, ''), marks);
  // the description's first sentence often repeats the summary ("Send a message. Inputs …"): once is enough
  const said = summary?.replace(/\s*\([^)]*\)\.$/, '.').toLowerCase();
  if (said && description.toLowerCase().startsWith(said)) description = description.slice(said.length).trim();
  // and the summary's "(inputs)" when the description lists them
  if (summary && /^Inputs named by the seed/.test(description)) lines[0] = summary.replace(/\s*\([^)]*\)\.$/, '.');
  if (description) lines.push(description);
  lines.push(`Retry class ${CLASS_WORDS[op.retryClass]}`);
  lines.push(...conditionWords(op));
  if (op.dedupeKey) lines.push(`Dedupe key: \`${op.dedupeKey.name}\` (${op.dedupeKey.in}); pass your own to make a resend across processes safe, or \`idempotencyKey\` in the options.`);
  if (op.batchSplit) lines.push(`\`${op.batchSplit.field}\` holds at most ${op.batchSplit.max} entries per request.`);
  if (op.pagination) lines.push(`A list (${op.pagination.kind} pages): \`await\` gives the first page; \`for await\` walks every item across pages.`);
  const assumptions = op.provenance.filter((p) => p.kind === 'x-assumed').map((p) => p.reason);
  const undocumented = op.provenance.filter((p) => p.kind === 'x-not-documented').map((p) => p.reason);
  if (assumptions.length) lines.push(`Assumed (the seed is silent): ${[...new Set(assumptions)].join('; ')}.`);
  if (undocumented.length) lines.push(`Not documented by the service: ${[...new Set(undocumented)].join('; ')}.`);
  if (op.bodies.length > 1) lines.push(`Request body: ${op.bodies.map((b) => `\`${b.contentType}\``).join(', ')}; the first is the default, pick another with the \`contentType\` request option.`);
  else if (op.body && op.body.contentType !== 'application/json') lines.push(`Request body: \`${op.body.contentType}\`.`);
  if (op.deprecated) lines.push('@deprecated The spec marks this operation deprecated.');
  return lines.join('\n\n').replace(/\*\//g, '*\\/');
}
