/**
 * The doc comment of an operation's method and function: meaning, wire, retry class, assumptions.
 * Spec text (summary, description, path, field names, reasons) goes in through `doc` (spec-text.ts).
 */
import type { JsonSchema, OperationModel } from '../model.js';
import { withoutMarkSentences } from './mark-text.js';
import { doc, docJoin, type DocText } from './spec-text.js';
import { exampleTag, throwsTags } from './operation-doc-tags.js';
import { OPERATION_EXTENSIONS } from '../extensions/index.js';

/** How the assumptions are introduced: in the user's words, not the generator's (issue 31). */
export const ASSUMED_LEAD = "Assumed (the service's documentation is silent):";

/** `text` with a final `.` unless it ends a sentence already (no regex over the whole text: it may be megabytes). */
const sentence = (text: string) => (text === '' || '.!?'.includes(text.slice(-1)) ? text : `${text}.`);

/**
 * Where a summary's trailing "(inputs)." starts (the first `(` after the last other `)`), or -1:
 * what `/\s*\([^)]*\)\.$/` finds, in linear time.
 */
function trailingGroup(summary: string): number {
  if (!summary.endsWith(').')) return -1;
  const close = summary.length - 2;
  const open = summary.indexOf('(', summary.lastIndexOf(')', close - 1) + 1);
  return open >= 0 && open < close ? open : -1;
}

/**
 * The description's "Inputs named by the seed (4.2): …" in the user's words; "The seed (4.8) names
 * no inputs besides the path." says nothing the signature does not: dropped.
 */
function inputsInUserWords(description: string): string {
  const seedInputs = /^Inputs named by the seed \([\d.]+\):/;
  if (seedInputs.test(description)) return description.replace(seedInputs, "Inputs the service's documentation names:");
  return description.replace(/^The seed \([\d.]+\) names no inputs besides the path\.\s*/, '');
}

/** `style`: the doc of a resource method (`im.users.get(…)`) or of a standalone function (`usersGet(im, …)`), for the example. */
export function operationDocs(
  op: OperationModel,
  style: 'method' | 'function' = 'method',
  components: ReadonlyMap<string, JsonSchema> = new Map(),
): DocText {
  const lines: DocText[] = [];
  // Hover order: what it does (one line), method and path, what else the spec says, retry class, assumptions.
  // (a summary that is only the op id, or "opId (METHOD /path)", says nothing the next line does not)
  const summary = op.summary === op.id || op.summary.startsWith(`${op.id} (`) ? undefined : sentence(op.summary.trim());
  if (summary) lines.push(doc`${summary}`);
  lines.push(
    doc`Sends \`${op.method} /{org_name}/{app_name}${op.path}\` (\`${op.id}\` in the service's documentation).`,
  );
  const marks = op.provenance.map((p) => p.reason);
  let description = withoutMarkSentences(dropClassLines(op.description), marks);
  // the description's first sentence often repeats the summary ("Send a message. Inputs …"): once is enough
  const group = summary ? trailingGroup(summary) : -1;
  const said = summary ? (group >= 0 ? `${summary.slice(0, group).trimEnd()}.` : summary).toLowerCase() : undefined;
  if (said && description.toLowerCase().startsWith(said)) description = description.slice(said.length).trim();
  // and the summary's "(inputs)" when the description lists them
  if (summary && group >= 0 && description.startsWith('Inputs named by the seed'))
    lines[0] = doc`${summary.slice(0, group).trimEnd()}.`;
  description = inputsInUserWords(description);
  if (description) lines.push(doc`${description}`);
  for (const extension of OPERATION_EXTENSIONS) lines.push(...(extension.docLines?.(op) ?? []));
  const assumptions = op.provenance.filter((p) => p.kind === 'x-assumed').map((p) => p.reason);
  const undocumented = op.provenance.filter((p) => p.kind === 'x-not-documented').map((p) => p.reason);
  if (assumptions.length) lines.push(doc`${ASSUMED_LEAD} ${[...new Set(assumptions)].join('; ')}.`);
  if (undocumented.length) lines.push(doc`Not documented by the service: ${[...new Set(undocumented)].join('; ')}.`);
  if (op.bodies.length > 1)
    lines.push(
      doc`Request body: ${docJoin(
        op.bodies.map((b) => doc`\`${b.contentType}\``),
        ', ',
      )}; the first is the default, pick another with the \`contentType\` request option.`,
    );
  else if (op.body && op.body.contentType !== 'application/json')
    lines.push(doc`Request body: \`${op.body.contentType}\`.`);
  lines.push(exampleTag(op, style, components));
  lines.push(docJoin([...throwsTags(op), ...OPERATION_EXTENSIONS.flatMap((e) => e.docTags?.(op) ?? [])], '\n'));
  if (op.deprecated) lines.push(doc`@deprecated The spec marks this operation deprecated.`);
  return docJoin(lines, '\n\n');
}

/** The description without its "Retry class X: …" and "Class N when …" sentences (the docs state them from the extensions). */
function dropClassLines(description: string): string {
  return description.replace(/Retry class [QIUDN]: [^\n]*\n*/g, '').replace(/Class N when [^\n]*\n*/g, '');
}
