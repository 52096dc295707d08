/**
 * Field rules of the change report, judged in the direction a caller meets each side: params are
 * what it sends (a change breaks when something it sent may now be refused or no longer compiles:
 * narrowed), the result is what it reads (a change breaks when it may now read something it did
 * not expect: widened). So a params field that becomes nullable is safe and a result field that
 * does is breaking; a result field that stops being nullable is safe.
 *
 * | change | params (caller sends) | result (caller reads) |
 * |---|---|---|
 * | field added | required: breaking; optional: addition | addition |
 * | field removed | breaking (closed params) / non-breaking (open params) | breaking |
 * | made required / made optional | breaking / non-breaking | non-breaking / breaking |
 * | JSON types widened (a `null`, another type added; integer → number) | non-breaking | breaking |
 * | JSON types narrowed: only `null` dropped / another type dropped | breaking | non-breaking / breaking (a comparison with it no longer compiles) |
 * | JSON types changed | breaking | breaking |
 * | enum value removed / added | breaking / addition | breaking (a `case` or `===` with it no longer compiles) / breaking (an exhaustive switch); open enum: addition both |
 * | became an enum / stopped being one | breaking / non-breaking | breaking (closed) / breaking |
 * | `const` changed; added; removed | breaking; breaking; non-breaking | breaking; breaking; breaking |
 * | oneOf/anyOf branch removed / added | breaking / addition | breaking / breaking |
 * | discriminator value removed / added / mapped to another branch | breaking / addition / breaking | breaking / breaking / breaking |
 * | constraint tightened (minLength up, maximum down, pattern or checked format added or changed, …) / loosened | breaking / non-breaking | not compared (the service's business) |
 * | `default` changed / added or removed | breaking (a call that leaves it out gets another value) / non-breaking | — |
 * | deprecated; moved (query → header) | non-breaking; non-breaking (the SDK follows it) | non-breaking |
 *
 * A result's values are judged both ways (as the type check does): a value the caller may have
 * compared with or switched over must not disappear either. Only `null` may: comparing with
 * null always compiles, so a result that stops being nullable is safe.
 */
import type { Change, ChangeClass, FieldSurface, OperationSurface } from './types.js';

type Side = 'param' | 'result';
type FieldChange = (c: Omit<Change, 'operation' | 'call'>) => void;

/** Is every JSON type of `a` one of `b`'s (an integer is a number; undefined is any value)? */
export function typesWithin(a: string[] | undefined, b: string[] | undefined): boolean {
  if (!b) return true;
  if (!a) return false;
  return a.every((t) => b.includes(t) || (t === 'integer' && b.includes('number')));
}

const LOWER = new Set(['minLength', 'minimum', 'exclusiveMinimum', 'minItems']);
const UPPER = new Set(['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems']);

export function compareFields(
  op: OperationSurface,
  side: Side,
  old: Map<string, FieldSurface>,
  now: Map<string, FieldSurface>,
  change: FieldChange,
  opts: { removedBreaks: boolean },
): void {
  const name = (path: string) => typeNameOf(op, side, path);
  const at = (f: FieldSurface) => ({ field: f.path, typeName: name(f.path) });
  // A nested field under a removed or added parent (or branch) is reported by its parent only.
  const under = (path: string, set: string[]) =>
    set.some(
      (p) =>
        p !== path && p !== '' && (path.startsWith(`${p}.`) || path.startsWith(`${p}[]`) || path.startsWith(`${p}<`)),
    );
  const gone = [...old.keys()].filter((k) => !now.has(k));
  const fresh = [...now.keys()].filter((k) => !old.has(k));
  for (const path of gone) {
    if (under(path, gone) || /<[^>]*>$/.test(path)) continue;
    const f = old.get(path)!;
    if (path === '') {
      // a top-level oneOf/anyOf body became one object: what still compiles is the type check's call
      change({
        class: 'non-breaking',
        kind: 'param-union-removed',
        ...at(f),
        before: f.type,
        message: `${op.call}: ${op.paramsType} is no longer a union of body shapes (${f.type})`,
      });
      continue;
    }
    const breaking = side === 'result' || opts.removedBreaks;
    change({
      class: breaking ? 'breaking' : 'non-breaking',
      kind: `${side}-removed`,
      ...at(f),
      before: f.type,
      message: `${op.call}: ${name(path)} (${f.type}) was removed${side === 'param' && !breaking ? ' (the params stay open: passing it still compiles)' : ''}`,
      ...(breaking
        ? { migration: side === 'param' ? `stop passing ${path} to ${op.call}` : `stop reading ${name(path)}` }
        : {}),
    });
  }
  for (const path of fresh) {
    if (under(path, fresh) || /<[^>]*>$/.test(path)) continue;
    const f = now.get(path)!;
    if (path === '') {
      change({
        class: 'non-breaking',
        kind: 'param-union-added',
        ...at(f),
        after: f.type,
        message: `${op.call}: ${op.paramsType} is now a union of body shapes (${f.type})`,
      });
      continue;
    }
    if (side === 'param' && f.required)
      change({
        class: 'breaking',
        kind: 'param-added-required',
        ...at(f),
        after: f.type,
        message: `${op.call}: required ${name(path)} (${f.type}) was added: every call must now pass it`,
        migration: `pass ${path} (${f.type}) in every call of ${op.call}`,
      });
    else
      change({
        class: 'addition',
        kind: `${side}-added${side === 'param' ? '-optional' : ''}`,
        ...at(f),
        after: f.type,
        message: `${op.call}: ${side === 'param' ? 'optional ' : ''}${name(path)} (${f.type}) was added`,
      });
  }
  for (const [path, a] of old) {
    const b = now.get(path);
    if (b) compareField(op, side, a, b, (c) => change({ ...at(b), ...c }));
  }
}

function compareField(op: OperationSurface, side: Side, a: FieldSurface, b: FieldSurface, change: FieldChange): void {
  const n = typeNameOf(op, side, b.path);
  const sends = side === 'param';
  const cls = (breaksCaller: boolean, otherwise: ChangeClass = 'non-breaking'): ChangeClass =>
    breaksCaller ? 'breaking' : otherwise;
  // the same TypeScript text (integer → number, a named type whose values changed): say what changed
  const [ta, tb] = a.type === b.type ? [shown(a), shown(b)] : [a.type, b.type];
  const types = { before: ta, after: tb };
  const widened = typesWithin(a.types, b.types);
  const narrowed = typesWithin(b.types, a.types);
  if (!(widened && narrowed)) {
    // a result may drop null safely, not another type (a comparison with it would not compile)
    const lostNonNull =
      narrowed &&
      !typesWithin(
        a.types?.filter((t) => t !== 'null'),
        b.types,
      );
    const breaking = sends ? !widened : !narrowed || lostNonNull;
    const how = widened ? 'widened' : narrowed ? 'narrowed' : 'changed';
    change({
      class: cls(breaking),
      kind: `${side}-type-${how}`,
      ...types,
      message: `${op.call}: ${n} ${how} ${ta} → ${tb}`,
      ...(breaking ? { migration: sends ? `pass ${b.path} as ${tb}` : `handle ${n} as ${tb}` } : {}),
    });
  }
  if (a.required !== b.required) {
    const breaking = sends ? b.required : !b.required;
    change({
      class: cls(breaking),
      kind: `${side}-${b.required ? 'made-required' : 'made-optional'}`,
      ...types,
      message: `${op.call}: ${n} was made ${b.required ? 'required' : 'optional'}`,
      ...(breaking
        ? { migration: sends ? `pass ${b.path} in every call of ${op.call}` : `handle a missing ${n}` }
        : {}),
    });
  }
  compareValues(op, side, a, b, n, change);
  if (a.branches && b.branches) compareBranches(op, side, a, b, n, change);
  if (sends) {
    compareConstraints(op, b.path, n, a.constraints ?? {}, b.constraints ?? {}, change);
    if (a.default !== b.default) {
      const changed = a.default !== undefined && b.default !== undefined;
      change({
        class: cls(changed),
        kind: `param-default-${changed ? 'changed' : a.default === undefined ? 'added' : 'removed'}`,
        before: a.default ?? 'none',
        after: b.default ?? 'none',
        message: `${op.call}: the default of ${n} ${a.default ?? 'none'} → ${b.default ?? 'none'}${changed ? ' (a call that leaves it out now gets another value)' : ' (documentation)'}`,
        ...(changed ? { migration: `pass ${b.path}: ${a.default} to ${op.call} to keep the old behaviour` } : {}),
      });
    }
    if (a.in && b.in && a.in !== b.in)
      change({
        class: 'non-breaking',
        kind: 'param-moved',
        message: `${op.call}: ${n} now travels in the ${b.in}, was ${a.in} (the SDK follows it)`,
      });
  }
  if (!a.deprecated && b.deprecated)
    change({ class: 'non-breaking', kind: `${side}-deprecated`, message: `${op.call}: ${n} is now deprecated` });
}

/** enum values and const, by direction. */
function compareValues(
  op: OperationSurface,
  side: Side,
  x: FieldSurface,
  y: FieldSurface,
  n: string,
  change: FieldChange,
): void {
  const sends = side === 'param';
  const [a, b] =
    x.type === y.type
      ? [
          { ...x, type: shown(x) },
          { ...y, type: shown(y) },
        ]
      : [x, y];
  const list = (values: string[]) => values.join(', ');
  if (a.enum && b.enum) {
    const removed = a.enum.filter((v) => !b.enum!.includes(v));
    const added = b.enum.filter((v) => !a.enum!.includes(v));
    if (removed.length) {
      const breaking = sends || !b.openEnum;
      change({
        class: breaking ? 'breaking' : 'non-breaking',
        kind: `${side}-enum-value-removed`,
        before: a.type,
        after: b.type,
        message: `${op.call}: ${n} no longer ${sends ? 'accepts' : 'answers'} ${list(removed)} (${a.type} → ${b.type})${!sends && breaking ? ': a `case` or `===` with it no longer compiles' : ''}`,
        ...(breaking
          ? {
              migration: sends
                ? `stop passing ${list(removed)} as ${n}`
                : `drop the cases for ${list(removed)} where you read ${n}`,
            }
          : {}),
      });
    }
    if (added.length) {
      const breaking = !sends && !b.openEnum;
      change({
        class: breaking ? 'breaking' : 'addition',
        kind: `${side}-enum-value-added`,
        before: a.type,
        after: b.type,
        message: `${op.call}: ${n} gained ${list(added)} (${a.type} → ${b.type})${breaking ? ': a closed enum, an exhaustive switch over it no longer compiles' : ''}`,
        ...(breaking ? { migration: `handle ${list(added)} where you switch over ${n}` } : {}),
      });
    }
  } else if (a.enum || b.enum) {
    const became = !!b.enum;
    const breaking = sends ? became : !became || !b.openEnum;
    change({
      class: breaking ? 'breaking' : 'non-breaking',
      kind: `${side}-${became ? 'became-enum' : 'enum-removed'}`,
      before: a.type,
      after: b.type,
      message: `${op.call}: ${n} ${became ? 'is now an enum' : 'is no longer an enum'} (${a.type} → ${b.type})`,
      ...(breaking ? { migration: sends ? `pass only ${b.type} as ${n}` : `handle any ${b.type} in ${n}` } : {}),
    });
  }
  if (a.const !== b.const) {
    const kind = a.const === undefined ? 'added' : b.const === undefined ? 'removed' : 'changed';
    const breaking = !sends || kind !== 'removed';
    change({
      class: breaking ? 'breaking' : 'non-breaking',
      kind: `${side}-const-${kind}`,
      before: a.type,
      after: b.type,
      message: `${op.call}: ${n} const ${a.const ?? 'none'} → ${b.const ?? 'none'}`,
      ...(breaking ? { migration: sends ? `pass ${b.const ?? b.type} as ${n}` : `expect ${b.type} in ${n}` } : {}),
    });
  }
}

function compareBranches(
  op: OperationSurface,
  side: Side,
  a: FieldSurface,
  b: FieldSurface,
  n: string,
  change: FieldChange,
): void {
  const sends = side === 'param';
  const removed = a.branches!.filter((k) => !b.branches!.includes(k));
  const added = b.branches!.filter((k) => !a.branches!.includes(k));
  const shapes = (keys: string[]) => keys.map((k) => `<${k}>`).join(', ');
  if (removed.length)
    change({
      class: 'breaking',
      kind: `${side}-branch-removed`,
      before: a.type,
      after: b.type,
      message: `${op.call}: ${n} lost the oneOf/anyOf branch(es) ${shapes(removed)} (${a.type} → ${b.type})`,
      migration: sends
        ? `stop sending the ${shapes(removed)} shape of ${n}`
        : `drop the code for the ${shapes(removed)} shape of ${n}`,
    });
  if (added.length)
    change({
      class: sends ? 'addition' : 'breaking',
      kind: `${side}-branch-added`,
      before: a.type,
      after: b.type,
      message: `${op.call}: ${n} gained the oneOf/anyOf branch(es) ${shapes(added)} (${a.type} → ${b.type})`,
      ...(!sends ? { migration: `handle the ${shapes(added)} shape where you read ${n}` } : {}),
    });
  const ma = a.mapping ?? {};
  const mb = b.mapping ?? {};
  for (const value of new Set([...Object.keys(ma), ...Object.keys(mb)])) {
    const [x, y] = [ma[value], mb[value]];
    if (x === y) continue;
    // a value that comes or goes with its own branch is told by the branch
    if ((x === undefined && added.includes(y!)) || (y === undefined && removed.includes(x!))) continue;
    const kind = x === undefined ? 'added' : y === undefined ? 'removed' : 'remapped';
    const breaking = !sends || kind !== 'added';
    change({
      class: breaking ? 'breaking' : 'addition',
      kind: `${side}-discriminator-value-${kind}`,
      before: x ?? 'none',
      after: y ?? 'none',
      message: `${op.call}: discriminator value "${value}" of ${n} ${kind === 'added' ? `now selects <${y}>` : kind === 'removed' ? `no longer selects <${x}>` : `selects <${y}>, was <${x}>`}`,
      ...(breaking
        ? {
            migration: sends
              ? y === undefined
                ? `stop sending "${value}" as the discriminator of ${n}`
                : `send "${value}" only with the <${y}> shape of ${n}`
              : y === undefined
                ? `drop the code for "${value}" where you read ${n}`
                : `handle "${value}" as <${y}> where you read ${n}`,
          }
        : {}),
    });
  }
}

function compareConstraints(
  op: OperationSurface,
  path: string,
  n: string,
  a: Record<string, number | string>,
  b: Record<string, number | string>,
  change: FieldChange,
): void {
  const tightened: string[] = [];
  const loosened: string[] = [];
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const [x, y] = [a[k], b[k]];
    if (x === y) continue;
    const words = `${k} ${x ?? 'none'} → ${y ?? 'none'}`;
    if (x === undefined) tightened.push(words);
    else if (y === undefined) loosened.push(words);
    else if (LOWER.has(k)) (Number(y) > Number(x) ? tightened : loosened).push(words);
    else if (UPPER.has(k)) (Number(y) < Number(x) ? tightened : loosened).push(words);
    else tightened.push(words); // a changed pattern, format or multipleOf may refuse what passed
  }
  if (tightened.length)
    change({
      class: 'breaking',
      kind: 'param-constraint-tightened',
      before: tightened.map((w) => w.split(' → ')[0]).join(', '),
      after: tightened.map((w) => `${w.split(' ')[0]} ${w.split(' → ')[1]}`).join(', '),
      message: `${op.call}: ${n} is stricter (${tightened.join(', ')}): the client now refuses, before sending, values it sent before`,
      migration: `check that the ${path} you pass to ${op.call} meets ${tightened.map((w) => `${w.split(' ')[0]} ${w.split(' → ')[1]}`).join(', ')}`,
    });
  if (loosened.length)
    change({
      class: 'non-breaking',
      kind: 'param-constraint-loosened',
      message: `${op.call}: ${n} accepts more (${loosened.join(', ')})`,
    });
}

/** A field's values or JSON types, where its TypeScript text says nothing (`CallKind`, `number`). */
function shown(f: FieldSurface): string {
  if (f.enum) return `${f.enum.join(' | ')}${f.openEnum ? ' | (string & {})' : ''}`;
  if (f.const !== undefined) return f.const;
  return f.types ? f.types.join(' | ') : f.type;
}

/** `CallsStatsParams.granularity`, `CallsListItem.id` (a list's item fields by the item type). */
export function typeNameOf(op: OperationSurface, side: Side, path: string): string {
  if (side === 'param') return path ? `${op.paramsType}.${path}` : op.paramsType;
  const items = /(?:^|, )itemsField=([^,]+)/.exec(op.pagingFields ?? '')?.[1];
  if (
    items &&
    op.itemType &&
    (path === `${items}[]` || path.startsWith(`${items}[].`) || path.startsWith(`${items}[]<`))
  ) {
    const rest = path.slice(items.length + 2);
    return `${op.itemType}${rest.startsWith('.') ? rest : rest ? rest : ''}`;
  }
  return path ? `${op.resultType}.${path}` : op.resultType;
}
