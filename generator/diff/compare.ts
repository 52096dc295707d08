/**
 * Two API surfaces → the list of changes, each classed by the rules below (after oasdiff's
 * breaking-change checks and openapi-diff, seen from a caller of the generated SDK: "breaking"
 * means code or expectations that held before may now fail).
 *
 * | change | class |
 * |---|---|
 * | operation removed | breaking |
 * | operation renamed (same method and path, another operationId: the method name changes) | breaking |
 * | operation added | addition |
 * | method or path of an operation changed (same operationId) | non-breaking (the SDK follows it) |
 * | params field added, required | breaking |
 * | params field added, optional | addition |
 * | params field removed (closed params) | breaking; (open params) non-breaking |
 * | params field made required / made optional | breaking / non-breaking |
 * | params field type changed | breaking |
 * | request enum value removed / added | breaking / addition |
 * | params field constraint tightened (minLength up, maximum down, pattern added or changed, …) / loosened | breaking / non-breaking |
 * | result field removed / made optional | breaking |
 * | result field added / made required | addition / non-breaking |
 * | result field type changed | breaking |
 * | result enum value added: closed enum (an exhaustive switch breaks) / open enum | breaking / addition |
 * | result enum value removed | non-breaking |
 * | retry class less safe or sideways (safety order Q, I, D or U, N) / safer | breaking / non-breaking |
 * | retry-class conditions changed | breaking |
 * | paging added or removed (the method's return type changes) | breaking |
 * | success statuses changed | non-breaking |
 * | operation or field deprecated | non-breaking |
 *
 * Version bump from the worst class: breaking → major, addition → minor, else patch.
 */
import type { FieldSurface, OperationSurface } from './surface.js';

export type ChangeClass = 'breaking' | 'addition' | 'non-breaking';

export interface Change {
  class: ChangeClass;
  /** Stable kind, e.g. `operation-removed`, `param-added-required`, `retry-class-changed`. */
  kind: string;
  operation: string;
  /** The field's dotted path, when the change is about a field. */
  field?: string;
  message: string;
}

const SAFETY: Record<string, number> = { '—': -1, Q: 0, I: 1, D: 2, U: 2, N: 3 };

export function compareSurfaces(base: Map<string, OperationSurface>, head: Map<string, OperationSurface>): Change[] {
  const changes: Change[] = [];
  const add = (c: Change) => changes.push(c);
  const removed = [...base.values()].filter((op) => !head.has(op.id));
  const added = [...head.values()].filter((op) => !base.has(op.id));
  const renamedTo = new Map<string, OperationSurface>();
  for (const old of removed) {
    const twin = added.find((n) => n.method === old.method && n.path === old.path && ![...renamedTo.values()].includes(n));
    if (twin) renamedTo.set(old.id, twin);
  }
  for (const old of removed) {
    const twin = renamedTo.get(old.id);
    if (twin) {
      add({ class: 'breaking', kind: 'operation-renamed', operation: old.id, message: `${old.id} was renamed to ${twin.id} (${old.method} ${old.path}): callers of ${old.id} must change` });
      compareOperation(old, twin, add);
    } else {
      add({ class: 'breaking', kind: 'operation-removed', operation: old.id, message: `${old.id} (${old.method} ${old.path}) was removed` });
    }
  }
  for (const op of added) {
    if ([...renamedTo.values()].includes(op)) continue;
    add({ class: 'addition', kind: 'operation-added', operation: op.id, message: `${op.id} (${op.method} ${op.path}) was added` });
  }
  for (const [id, old] of base) {
    const now = head.get(id);
    if (now) compareOperation(old, now, add);
  }
  const order: Record<ChangeClass, number> = { breaking: 0, addition: 1, 'non-breaking': 2 };
  return changes.sort((a, b) => order[a.class] - order[b.class] || a.operation.localeCompare(b.operation) || (a.field ?? '').localeCompare(b.field ?? '') || a.kind.localeCompare(b.kind));
}

function compareOperation(old: OperationSurface, now: OperationSurface, add: (c: Change) => void): void {
  const op = now.id;
  if (old.method !== now.method || old.path !== now.path) {
    add({ class: 'non-breaking', kind: 'operation-moved', operation: op, message: `${op} moved from ${old.method} ${old.path} to ${now.method} ${now.path}` });
  }
  if (old.retryClass !== now.retryClass) {
    const worse = (SAFETY[now.retryClass] ?? 9) >= (SAFETY[old.retryClass] ?? 9);
    add({ class: worse ? 'breaking' : 'non-breaking', kind: 'retry-class-changed', operation: op, message: `${op}: retry class ${old.retryClass} → ${now.retryClass}${worse ? ' (less safe to repeat: callers relying on automatic resends must check)' : ' (safer to repeat)'}` });
  }
  if (old.retryClassWhen !== now.retryClassWhen) {
    add({ class: 'breaking', kind: 'retry-class-conditions-changed', operation: op, message: `${op}: retry-class conditions "${old.retryClassWhen || 'none'}" → "${now.retryClassWhen || 'none'}"` });
  }
  if (old.paging !== now.paging) {
    add({ class: 'breaking', kind: 'paging-changed', operation: op, message: `${op}: paging ${old.paging ?? 'none'} → ${now.paging ?? 'none'} (the method's return type changes)` });
  }
  if (old.successStatuses.join(',') !== now.successStatuses.join(',')) {
    add({ class: 'non-breaking', kind: 'success-statuses-changed', operation: op, message: `${op}: success statuses ${old.successStatuses.join(', ')} → ${now.successStatuses.join(', ')}` });
  }
  if (!old.deprecated && now.deprecated) add({ class: 'non-breaking', kind: 'operation-deprecated', operation: op, message: `${op} is now deprecated` });
  compareFields(op, 'param', old.params, now.params, add, { removedBreaks: !now.paramsOpen });
  compareFields(op, 'result', old.result, now.result, add, { removedBreaks: true });
}

function compareFields(op: string, side: 'param' | 'result', old: Map<string, FieldSurface>, now: Map<string, FieldSurface>, add: (c: Change) => void, opts: { removedBreaks: boolean }): void {
  const label = side === 'param' ? 'params field' : 'result field';
  // A nested field under a removed or added parent is reported by its parent only.
  const under = (path: string, set: Iterable<string>) => [...set].some((p) => path.startsWith(`${p}.`) || path.startsWith(`${p}[]`));
  const gone = [...old.keys()].filter((k) => !now.has(k));
  const fresh = [...now.keys()].filter((k) => !old.has(k));
  for (const path of gone) {
    if (under(path, gone.filter((g) => g !== path))) continue;
    const breaking = side === 'result' || opts.removedBreaks;
    add({ class: breaking ? 'breaking' : 'non-breaking', kind: `${side}-removed`, operation: op, field: path, message: `${op}: ${label} ${path} was removed` });
  }
  for (const path of fresh) {
    if (under(path, fresh.filter((f) => f !== path))) continue;
    const f = now.get(path)!;
    if (side === 'param') {
      add(f.required
        ? { class: 'breaking', kind: 'param-added-required', operation: op, field: path, message: `${op}: required ${label} ${path} (${f.type}) was added: every call must now pass it` }
        : { class: 'addition', kind: 'param-added-optional', operation: op, field: path, message: `${op}: optional ${label} ${path} (${f.type}) was added` });
    } else {
      add({ class: 'addition', kind: 'result-added', operation: op, field: path, message: `${op}: ${label} ${path} (${f.type}) was added` });
    }
  }
  for (const [path, a] of old) {
    const b = now.get(path);
    if (!b) continue;
    if (a.type !== b.type) add({ class: 'breaking', kind: `${side}-type-changed`, operation: op, field: path, message: `${op}: ${label} ${path} changed type ${a.type} → ${b.type}` });
    if (a.required !== b.required) {
      const breaking = side === 'param' ? b.required : !b.required;
      add({ class: breaking ? 'breaking' : 'non-breaking', kind: `${side}-${b.required ? 'made-required' : 'made-optional'}`, operation: op, field: path, message: `${op}: ${label} ${path} was made ${b.required ? 'required' : 'optional'}` });
    }
    if (side === 'param') compareConstraints(op, path, a.constraints ?? {}, b.constraints ?? {}, add);
    if (!a.deprecated && b.deprecated) add({ class: 'non-breaking', kind: `${side}-deprecated`, operation: op, field: path, message: `${op}: ${label} ${path} is now deprecated` });
    if (a.enum && b.enum) {
      const removed = a.enum.filter((v) => !b.enum!.includes(v));
      const addedValues = b.enum.filter((v) => !a.enum!.includes(v));
      if (removed.length) {
        add({ class: side === 'param' ? 'breaking' : 'non-breaking', kind: `${side}-enum-value-removed`, operation: op, field: path, message: `${op}: ${label} ${path} no longer allows ${removed.map((v) => JSON.stringify(v)).join(', ')}` });
      }
      if (addedValues.length) {
        const breaking = side === 'result' && !b.openEnum;
        add({ class: breaking ? 'breaking' : 'addition', kind: `${side}-enum-value-added`, operation: op, field: path, message: `${op}: ${label} ${path} gained ${addedValues.map((v) => JSON.stringify(v)).join(', ')}${breaking ? ' (a closed enum: an exhaustive switch over it no longer compiles)' : ''}` });
      }
    }
  }
}

/** Which way each bound tightens: up for lower bounds, down for upper bounds. */
const LOWER = new Set(['minLength', 'minimum', 'exclusiveMinimum', 'minItems']);
const UPPER = new Set(['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems']);

function compareConstraints(op: string, path: string, a: Record<string, number | string>, b: Record<string, number | string>, add: (c: Change) => void): void {
  const tightened: string[] = [];
  const loosened: string[] = [];
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const [x, y] = [a[k], b[k]];
    if (x === y) continue;
    const words = `${k} ${x ?? 'none'} → ${y ?? 'none'}`;
    if (x === undefined) (k === 'pattern' || k === 'multipleOf' || LOWER.has(k) || UPPER.has(k) ? tightened : loosened).push(words);
    else if (y === undefined) loosened.push(words);
    else if (LOWER.has(k)) (Number(y) > Number(x) ? tightened : loosened).push(words);
    else if (UPPER.has(k)) (Number(y) < Number(x) ? tightened : loosened).push(words);
    else tightened.push(words); // a changed pattern or multipleOf may refuse what passed
  }
  if (tightened.length) add({ class: 'breaking', kind: 'param-constraint-tightened', operation: op, field: path, message: `${op}: params field ${path} is stricter (${tightened.join(', ')}): calls that passed may now be refused` });
  if (loosened.length) add({ class: 'non-breaking', kind: 'param-constraint-loosened', operation: op, field: path, message: `${op}: params field ${path} accepts more (${loosened.join(', ')})` });
}

export function versionBump(changes: readonly Change[]): 'major' | 'minor' | 'patch' | 'none' {
  if (!changes.length) return 'none';
  if (changes.some((c) => c.class === 'breaking')) return 'major';
  if (changes.some((c) => c.class === 'addition')) return 'minor';
  return 'patch';
}
