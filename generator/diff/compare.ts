/**
 * Two API surfaces → the list of changes, each classed by the rules below, seen from a caller of
 * the generated SDK ("breaking": code that compiled, or a call that worked, may now fail). The
 * type check (type-check.ts) adds what the TypeScript checker sees; these rules add what types
 * cannot see (retry class, paging, validation, runtime refusals) and name every change.
 * Field rules are in compare-fields.ts; the rules of an extension (retry class, conditions, paging)
 * in its module (generator/extensions/<name>.ts, its `compare`), listed here too. After oasdiff's
 * rule catalogue (read, not copied).
 *
 * | change | class |
 * |---|---|
 * | operation removed; renamed (same method and path, another operationId: the method name changes) | breaking |
 * | operation added | addition |
 * | method or path of an operation changed (same operationId) | non-breaking (the SDK follows it) |
 * | retry class less safe or sideways (safety order Q, I, D or U, N) / safer | breaking / non-breaking |
 * | retry-class conditions changed | breaking |
 * | paging added or removed (the method's return type changes); the page fields the walker reads or sends renamed | breaking |
 * | response read another way (json → text, binary, empty) | breaking |
 * | a success status added or removed whose body differs (the result becomes, or stops being, a `{ status, data }` union) | breaking |
 * | success statuses changed, same body | non-breaking |
 * | request media type removed / added | breaking / addition |
 * | the params object became required (`im.x.y()` no longer compiles) / optional | breaking / non-breaking |
 * | operation deprecated | non-breaking |
 * | field rules (params in the caller's direction: what it sends must still be accepted; result in the other: what it reads must still be what it expects) | compare-fields.ts |
 *
 * Version bump (before the release script's pre-1.0 rules): breaking → major, addition → minor, else patch.
 */
import { OPERATION_EXTENSIONS } from '../extensions/index.js';
import { compareFields } from './compare-fields.js';
import type { AddChange, Change, ChangeClass, OperationSurface } from './types.js';

export type { AddChange, Change, ChangeClass } from './types.js';

const ORDER: Record<ChangeClass, number> = { breaking: 0, addition: 1, 'non-breaking': 2 };

export function sortChanges(changes: Change[]): Change[] {
  return changes.sort(
    (a, b) =>
      ORDER[a.class] - ORDER[b.class] ||
      a.operation.localeCompare(b.operation) ||
      (a.field ?? '').localeCompare(b.field ?? '') ||
      a.kind.localeCompare(b.kind),
  );
}

export function compareSurfaces(base: Map<string, OperationSurface>, head: Map<string, OperationSurface>): Change[] {
  const changes: Change[] = [];
  const add: AddChange = (c) => changes.push({ source: 'spec', ...c });
  const removed = [...base.values()].filter((op) => !head.has(op.id));
  const added = [...head.values()].filter((op) => !base.has(op.id));
  const renamedTo = new Map<string, OperationSurface>();
  for (const old of removed) {
    const twin = added.find(
      (n) => n.method === old.method && n.path === old.path && ![...renamedTo.values()].includes(n),
    );
    if (twin) renamedTo.set(old.id, twin);
  }
  for (const old of removed) {
    const twin = renamedTo.get(old.id);
    if (twin) {
      add({
        class: 'breaking',
        kind: 'operation-renamed',
        operation: old.id,
        call: old.call,
        message: `${old.call} was renamed to ${twin.call} (${old.method} ${old.path}; op ${old.id} → ${twin.id}); its types ${old.paramsType} and ${old.resultType} are now ${twin.paramsType} and ${twin.resultType}`,
        migration: `call ${twin.call} where you called ${old.call}, and rename ${old.paramsType} → ${twin.paramsType}, ${old.resultType} → ${twin.resultType}`,
      });
      compareOperation(old, twin, add);
    } else {
      add({
        class: 'breaking',
        kind: 'operation-removed',
        operation: old.id,
        call: old.call,
        message: `${old.call} (${old.method} ${old.path}) was removed`,
        migration: `stop calling ${old.call}; the service no longer offers ${old.method} ${old.path}`,
      });
    }
  }
  for (const op of added) {
    if ([...renamedTo.values()].includes(op)) continue;
    add({
      class: 'addition',
      kind: 'operation-added',
      operation: op.id,
      call: op.call,
      message: `${op.call} (${op.method} ${op.path}) was added`,
    });
  }
  for (const [id, old] of base) {
    const now = head.get(id);
    if (now) compareOperation(old, now, add);
  }
  return sortChanges(changes);
}

function compareOperation(old: OperationSurface, now: OperationSurface, add: AddChange): void {
  const op = now.id;
  const call = now.call;
  const change = (c: Omit<Change, 'operation' | 'call'>) => add({ operation: op, call, ...c });
  if (old.method !== now.method || old.path !== now.path) {
    change({
      class: 'non-breaking',
      kind: 'operation-moved',
      message: `${call} moved from ${old.method} ${old.path} to ${now.method} ${now.path} (the SDK follows it)`,
    });
  }
  for (const extension of OPERATION_EXTENSIONS) extension.compare?.(old, now, change);
  if (old.responseKind !== now.responseKind) {
    change({
      class: 'breaking',
      kind: 'response-media-changed',
      before: old.responseKind,
      after: now.responseKind,
      message: `${call}: the response is now read as ${now.responseKind}, was ${old.responseKind} (${now.resultType} changes)`,
      migration: `handle ${call}'s result as ${now.responseKind}`,
    });
  }
  const shapes = (s: OperationSurface) => (s.statusShapes ?? []).join('; ');
  if (shapes(old) !== shapes(now)) {
    const becomes = !old.statusShapes
      ? `becomes a union by status ({ status, data })`
      : !now.statusShapes
        ? 'is no longer a union by status'
        : 'has other statuses or bodies';
    change({
      class: 'breaking',
      kind: 'success-responses-changed',
      before: shapes(old) || old.successStatuses.join(', '),
      after: shapes(now) || now.successStatuses.join(', '),
      message: `${call}: success responses ${old.successStatuses.join(', ')} → ${now.successStatuses.join(', ')} with different bodies: ${now.resultType} ${becomes}`,
      migration: now.statusShapes
        ? `narrow ${call}'s result on status before reading data`
        : `read ${call}'s result directly, without status/data`,
    });
  } else if (old.successStatuses.join(',') !== now.successStatuses.join(',')) {
    change({
      class: 'non-breaking',
      kind: 'success-statuses-changed',
      before: old.successStatuses.join(', '),
      after: now.successStatuses.join(', '),
      message: `${call}: success statuses ${old.successStatuses.join(', ')} → ${now.successStatuses.join(', ')} (same body)`,
    });
  }
  for (const media of old.requestMedia.filter((m) => !now.requestMedia.includes(m))) {
    change({
      class: 'breaking',
      kind: 'request-media-removed',
      before: media,
      message: `${call}: request body media type ${media} is no longer accepted${now.requestMedia.length ? ` (left: ${now.requestMedia.join(', ')})` : ''}`,
      migration: now.requestMedia.length
        ? `send ${call} as ${now.requestMedia[0]} (contentType option)`
        : `send ${call} without a body`,
    });
  }
  for (const media of now.requestMedia.filter((m) => !old.requestMedia.includes(m))) {
    change({
      class: 'addition',
      kind: 'request-media-added',
      after: media,
      message: `${call}: request body media type ${media} was added (contentType option)`,
    });
  }
  if (old.paramsRequired !== now.paramsRequired) {
    change({
      class: now.paramsRequired ? 'breaking' : 'non-breaking',
      kind: now.paramsRequired ? 'params-made-required' : 'params-made-optional',
      message: `${call}: the params argument (${now.paramsType}) is now ${now.paramsRequired ? 'required' : 'optional'}`,
      ...(now.paramsRequired ? { migration: `pass a ${now.paramsType} object to ${call}` } : {}),
    });
  }
  if (!old.deprecated && now.deprecated)
    change({ class: 'non-breaking', kind: 'operation-deprecated', message: `${call} is now deprecated` });
  compareFields(now, 'param', old.params, now.params, change, { removedBreaks: !now.paramsOpen });
  compareFields(now, 'result', old.result, now.result, change, { removedBreaks: true });
}

export function versionBump(changes: readonly Change[]): 'major' | 'minor' | 'patch' | 'none' {
  if (!changes.length) return 'none';
  if (changes.some((c) => c.class === 'breaking')) return 'major';
  if (changes.some((c) => c.class === 'addition')) return 'minor';
  return 'patch';
}
