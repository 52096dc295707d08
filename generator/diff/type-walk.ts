/**
 * Compares two TypeScript types in the direction a caller needs and names what breaks, field by
 * field: `in` (the caller builds the value: old must be assignable to new, and every field it
 * may write must still exist) or `out` (the caller receives it: new must be assignable to old,
 * and every field it may read must still exist). Value unions (enums, literals, nullability)
 * are told by the members gained or lost.
 */
import ts from 'typescript';
import type { Change } from './compare.js';
import { oneLine } from './surface.js';

export type Direction = 'in' | 'out';
type Finding = Omit<Change, 'operation' | 'call'>;

const MAX_DEPTH = 10;
const VALUE_FLAGS =
  ts.TypeFlags.StringLike |
  ts.TypeFlags.NumberLike |
  ts.TypeFlags.BooleanLike |
  ts.TypeFlags.BigIntLike |
  ts.TypeFlags.Null |
  ts.TypeFlags.Undefined |
  ts.TypeFlags.Void |
  ts.TypeFlags.Unknown |
  ts.TypeFlags.Any |
  ts.TypeFlags.Never;

/** `items[]` + `id` → `items[].id`. */
export function joinPath(a: string, b: string): string {
  if (!a) return b;
  if (!b) return a;
  return b.startsWith('[') || b.startsWith('<') ? `${a}${b}` : `${a}.${b}`;
}

export class TypeWalk {
  private readonly seen = new Set<string>();

  constructor(
    private readonly checker: ts.TypeChecker,
    /** The SDK call or exported type the findings are about, for messages. */
    private readonly subject: string,
    private readonly report: (f: Finding) => void,
  ) {}

  /** `label`: the type as the caller names it (`CallsStatsParams`); `prefix`: the spec's field path of its root. */
  compare(old: ts.Type, now: ts.Type, dir: Direction, label: string, prefix: string, rel = '', depth = 0): void {
    if (old === now || depth > MAX_DEPTH) return;
    const key = `${(old as { id?: number }).id}:${(now as { id?: number }).id}:${dir}:${rel}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    const c = this.checker;
    const ok = dir === 'in' ? c.isTypeAssignableTo(old, now) : c.isTypeAssignableTo(now, old);
    const before = this.findings;
    if (this.isValueType(old) && this.isValueType(now)) {
      // a received value is judged both ways: one that may now come, or one that no longer can
      // (a `case`/`===` with it stops compiling), except null, which any code may compare with
      if (!ok || dir === 'out') this.valueChange(old, now, dir, label, prefix, rel);
      return;
    }
    if (c.isArrayType(old) && c.isArrayType(now)) {
      this.compare(
        c.getTypeArguments(old as ts.TypeReference)[0]!,
        c.getTypeArguments(now as ts.TypeReference)[0]!,
        dir,
        label,
        prefix,
        `${rel}[]`,
        depth + 1,
      );
    } else if (this.isObject(old) && this.isObject(now)) {
      this.compareProperties(old, now, dir, label, prefix, rel, depth);
    }
    if (!ok && this.findings === before) this.whole(old, now, dir, label, prefix, rel);
  }

  private findings = 0;

  private emit(f: Finding): void {
    this.findings += 1;
    this.report(f);
  }

  private name(label: string, rel: string): string {
    return joinPath(label, rel);
  }

  private str(t: ts.Type): string {
    return oneLine(
      this.checker.typeToString(
        t,
        undefined,
        ts.TypeFormatFlags.NoTruncation |
          ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope |
          ts.TypeFormatFlags.InTypeAlias,
      ),
    );
  }

  private members(t: ts.Type): ts.Type[] {
    return t.isUnion() ? t.types : [t];
  }

  /** Literals, primitives and the open-enum `string & {}`: compared by the values gained or lost. */
  private isValueType(t: ts.Type): boolean {
    return this.members(t).every(
      (m) => m.flags & VALUE_FLAGS || (m.isIntersection() && m.types.some((p) => p.flags & ts.TypeFlags.StringLike)),
    );
  }

  private isObject(t: ts.Type): boolean {
    if (t.isUnion()) return false;
    if (t.isIntersection()) return t.types.every((p) => this.isObject(p));
    return (
      !!(t.flags & ts.TypeFlags.Object) &&
      !this.checker.isArrayType(t) &&
      !this.checker.isTupleType(t) &&
      t.getCallSignatures().length === 0
    );
  }

  private valueChange(old: ts.Type, now: ts.Type, dir: Direction, label: string, prefix: string, rel: string): void {
    const c = this.checker;
    // undefined is an optional field's optionality, told by the property's own finding
    const defined = (m: ts.Type) => !(m.flags & ts.TypeFlags.Undefined);
    const lost = this.members(old).filter(
      (m) => defined(m) && !(dir === 'out' && m.flags & ts.TypeFlags.Null) && !c.isTypeAssignableTo(m, now),
    );
    const gained = dir === 'out' ? this.members(now).filter((m) => defined(m) && !c.isTypeAssignableTo(m, old)) : [];
    if (!lost.length && !gained.length) return;
    const name = this.name(label, rel);
    const [b, a] = [this.str(old), this.str(now)];
    const list = (ms: ts.Type[]) => {
      const names = ms.map((m) => this.str(m));
      return (
        names.includes('true') && names.includes('false')
          ? [...names.filter((n) => n !== 'true' && n !== 'false'), 'boolean']
          : names
      ).join(' | ');
    };
    const words =
      dir === 'in'
        ? `no longer accepts ${list(lost)}: a call that passes it no longer compiles`
        : [
            gained.length
              ? `may now be ${list(gained)} (an exhaustive switch or an assignment of it no longer compiles)`
              : '',
            lost.length ? `can no longer be ${list(lost)} (a \`case\` or \`===\` with it no longer compiles)` : '',
          ]
            .filter(Boolean)
            .join('; ');
    this.emit({
      class: 'breaking',
      kind: dir === 'in' ? 'type-param-narrowed' : gained.length ? 'type-result-widened' : 'type-result-narrowed',
      field: joinPath(prefix, rel),
      typeName: name,
      before: b,
      after: a,
      message: `${this.subject}: ${name} ${words} (${b} → ${a})`,
      migration: dir === 'in' ? `pass ${name} as ${a}` : `handle ${name} as ${a}`,
    });
  }

  private whole(old: ts.Type, now: ts.Type, dir: Direction, label: string, prefix: string, rel: string): void {
    const name = this.name(label, rel);
    const [b, a] = [this.str(old), this.str(now)];
    this.emit({
      class: 'breaking',
      kind: dir === 'in' ? 'type-param-changed' : 'type-result-changed',
      field: joinPath(prefix, rel),
      typeName: name,
      before: b,
      after: a,
      message: `${this.subject}: ${name} ${b} → ${a}: ${dir === 'in' ? 'what a caller passed' : 'what it returns'} no longer ${dir === 'in' ? 'fits the new type' : 'fits the old type a caller kept'}`,
      migration: dir === 'in' ? `pass ${name} as ${a}` : `handle ${name} as ${a}`,
    });
  }

  /** Something the caller named that is gone as a whole (a request media type of a method). */
  gone(name: string, why: string, migration: string): void {
    this.emit({
      class: 'breaking',
      kind: 'type-param-removed',
      typeName: name,
      before: name,
      after: 'none',
      message: `${this.subject}: ${name} is gone: ${why}`,
      migration,
    });
  }

  private propertyType(p: ts.Symbol): ts.Type {
    const t = this.checker.getTypeOfSymbol(p);
    if (!(p.flags & ts.SymbolFlags.Optional) || !t.isUnion()) return t;
    // the undefined an optional property adds is its optionality, compared on its own
    const rest = t.types.filter((m) => !(m.flags & ts.TypeFlags.Undefined));
    if (rest.length === 1) return rest[0]!;
    return rest.some((m) => m.flags & ts.TypeFlags.Null) ? t : this.checker.getNonNullableType(t);
  }

  private compareProperties(
    old: ts.Type,
    now: ts.Type,
    dir: Direction,
    label: string,
    prefix: string,
    rel: string,
    depth: number,
  ): void {
    const c = this.checker;
    const stringIndex = c.getIndexInfoOfType(now, ts.IndexKind.String);
    const optional = (p: ts.Symbol) => !!(p.flags & ts.SymbolFlags.Optional);
    // by escaped name: getPropertyOfType cannot find a unique-symbol key (a brand)
    const oldProps = new Map(c.getPropertiesOfType(old).map((p) => [p.escapedName, p]));
    const newProps = new Map(c.getPropertiesOfType(now).map((p) => [p.escapedName, p]));
    for (const p of oldProps.values()) {
      const q = newProps.get(p.escapedName);
      const childRel = joinPath(rel, p.name);
      const name = this.name(label, childRel);
      const field = joinPath(prefix, childRel);
      if (!q) {
        // a caller that writes it is fine when an index signature takes the value; one that reads it is not
        if (dir === 'in' && stringIndex && c.isTypeAssignableTo(this.propertyType(p), stringIndex.type)) continue;
        this.emit({
          class: 'breaking',
          kind: dir === 'in' ? 'type-param-removed' : 'type-result-removed',
          field,
          typeName: name,
          before: this.str(this.propertyType(p)),
          after: 'none',
          message: `${this.subject}: ${name} no longer exists: a strict caller's code that ${dir === 'in' ? 'passes it (an object literal)' : 'reads it'} no longer compiles`,
          migration: dir === 'in' ? `stop passing ${childRel}` : `stop reading ${name}`,
        });
        continue;
      }
      if (dir === 'in' && optional(p) && !optional(q)) {
        this.emit({
          class: 'breaking',
          kind: 'type-param-made-required',
          field,
          typeName: name,
          before: `${this.str(this.propertyType(p))} (optional)`,
          after: this.str(this.propertyType(q)),
          message: `${this.subject}: ${name} is now required: a call that leaves it out no longer compiles`,
          migration: `pass ${childRel} in every call`,
        });
      }
      if (dir === 'out' && !optional(p) && optional(q)) {
        this.emit({
          class: 'breaking',
          kind: 'type-result-made-optional',
          field,
          typeName: name,
          before: this.str(this.propertyType(p)),
          after: `${this.str(this.propertyType(q))} (optional)`,
          message: `${this.subject}: ${name} may now be missing: code that reads it as always there no longer compiles`,
          migration: `handle a missing ${name}`,
        });
      }
      this.compare(this.propertyType(p), this.propertyType(q), dir, label, prefix, childRel, depth + 1);
    }
    if (dir !== 'in') return;
    const oldIndex = c.getIndexInfoOfType(old, ts.IndexKind.String);
    for (const q of newProps.values()) {
      if (optional(q) || oldProps.has(q.escapedName)) continue;
      const childRel = joinPath(rel, q.name);
      const name = this.name(label, childRel);
      this.emit({
        class: 'breaking',
        kind: 'type-param-added-required',
        field: joinPath(prefix, childRel),
        typeName: name,
        before: oldIndex ? 'any field (open object)' : 'none',
        after: this.str(this.propertyType(q)),
        message: `${this.subject}: ${name} (${this.str(this.propertyType(q))}) is new and required: a call without it no longer compiles`,
        migration: `pass ${childRel} in every call`,
      });
    }
  }
}
