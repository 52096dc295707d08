/**
 * Writes every provenance mark of spec/openapi.yaml into the description of the object it sits on
 * (see scripts/lib/mark-sentences.ts for which object that is), as "Assumed: <reason>." or
 * "Not documented by the service: <reason>.", because Swagger UI and Scalar do not show `x-` keys.
 *
 * Run it after adding or changing a mark: `npx tsx scripts/spec-mark-sentences.ts [spec]`.
 * It only appends sentences that are missing (running it twice changes nothing) and keeps the
 * rest of the file byte for byte. test/openapi-spec.test.ts fails while a mark is not stated.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseDocument, Scalar, type Document } from 'yaml';
import { markOwners, markSentence } from './lib/mark-sentences.js';

/** The description of a local `$ref` target, so a `$ref` sibling description does not hide it. */
function refDescription(root: any, ref: unknown): string {
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return '';
  let node = root;
  for (const part of ref.slice(2).split('/')) node = node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return typeof node?.description === 'string' ? node.description : '';
}

/** Appends the missing mark sentences; returns how many descriptions changed. */
export function addMarkSentences(doc: Document): number {
  const root = doc.toJS();
  const byOwner = new Map<string, { path: (string | number)[]; owner: any; sentences: string[] }>();
  for (const m of markOwners(root)) {
    const id = JSON.stringify(m.ownerPath);
    const entry = byOwner.get(id) ?? { path: m.ownerPath, owner: m.owner, sentences: [] };
    const current = typeof m.owner.description === 'string' ? m.owner.description : '';
    const sentence = markSentence(m.key, m.reason);
    if (!current.includes(m.reason.trim()) && !entry.sentences.includes(sentence)) entry.sentences.push(sentence);
    byOwner.set(id, entry);
  }
  let changed = 0;
  for (const { path, owner, sentences } of byOwner.values()) {
    if (!sentences.length) continue;
    const current = typeof owner.description === 'string' ? owner.description : refDescription(root, owner.$ref);
    // Operations get the marks as their own paragraph, after the retry class.
    const isOperation = path[0] === 'paths' && path.length === 3;
    const sep = !current ? '' : isOperation || current.includes('\n') ? '\n\n' : ' ';
    const text = `${current}${sep}${sentences.join(' ')}`;
    const node = new Scalar(text);
    if (text.includes('\n')) node.type = 'BLOCK_LITERAL';
    doc.setIn([...path, 'description'], node);
    changed++;
  }
  return changed;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const file = process.argv[2] ?? fileURLToPath(new URL('../spec/openapi.yaml', import.meta.url));
  const doc = parseDocument(readFileSync(file, 'utf8'));
  const changed = addMarkSentences(doc);
  if (changed) writeFileSync(file, doc.toString({ lineWidth: 0 }));
  console.log(`${file}: ${changed} description(s) now state their x-assumed / x-not-documented marks`);
}
