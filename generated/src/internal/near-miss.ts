// Copied by im-openapi from templates/runtime/internal/near-miss.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * Near-miss field names (internal, unstable). An open body accepts fields the spec does not
 * declare, so `messages.send({ clientMsgId })` used to pass validation and go out without the
 * caller's dedupe key (`client_msg_id`): the service saw a different field and a resend was not
 * deduplicated. A param that is not declared but is a near miss of a declared name (the same
 * name in another case style, or an edit or two away) is refused before anything is sent, with
 * both names in the error. `{ validate: false }` turns this off with the validators.
 */
import type { OperationSpec, ValidationIssue } from '../operation.js';
import { operationNames } from './operation-names.js';

/** Case and separators ignored: `clientMsgId`, `ClientMsgID`, `client-msg-id` → `clientmsgid`. */
const folded = (name: string): string => name.toLowerCase().replace(/[_-]/g, '');

/** Edit distance, stopping early once it is above `max`. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      best = Math.min(best, row[j]!);
    }
    if (best > max) return max + 1;
    previous = row;
  }
  return previous[b.length]!;
}

/**
 * How far a name may be from a declared one to count as a miss of it: short names are left
 * alone (`to` and `id` are two edits apart and both real), longer ones get one or two edits.
 */
function allowedEdits(a: string, b: string): number {
  const shorter = Math.min(a.length, b.length);
  return shorter >= 8 ? 2 : shorter >= 4 ? 1 : 0;
}

/** The declared name `given` is a near miss of, if any. */
export function nearMissOf(given: string, declared: readonly string[]): string | undefined {
  const f = folded(given);
  const exact = declared.find((d) => folded(d) === f);
  if (exact) return exact;
  const lower = given.toLowerCase();
  let found: string | undefined;
  let best = Infinity;
  for (const d of declared) {
    const max = allowedEdits(given, d);
    if (max === 0) continue;
    const edits = distance(lower, d.toLowerCase(), max);
    if (edits <= max && edits < best) {
      best = edits;
      found = d;
    }
  }
  return found;
}

/** Issues for each param of an object-body operation that is not declared but nearly is. */
export function nearMissIssues(op: OperationSpec, params: Record<string, unknown>): ValidationIssue[] {
  if (op.body !== 'object') return []; // without a body, every undeclared param is refused anyway
  const { declared, known } = operationNames(op);
  if (declared.length === 0) return [];
  const issues: ValidationIssue[] = [];
  for (const name of Object.keys(params)) {
    if (known.has(name) || params[name] === undefined) continue;
    const meant = nearMissOf(name, declared);
    if (meant) {
      issues.push({
        pointer: `/${name}`,
        rule: 'nearMiss',
        message: `\`${name}\` is not a field of ${op.id}, but \`${meant}\` is: write \`${meant}\` (an undeclared field would be sent as it is and \`${meant}\` left out)`,
      });
    }
  }
  return issues;
}
