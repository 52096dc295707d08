/**
 * The words of validation issues (validation-issues.ts): pointers as field labels, values quoted
 * only when short and never under a secret-looking name, type names with their article, and the
 * messages of the size and range rules.
 */
import { isSecretLookingName } from './secret-names.js';

const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;
const MAX_QUOTED = 40;

/** One pointer segment escaped (RFC 6901: `~` → `~0`, `/` → `~1`). */
export function escapePointerSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function segmentsOf(pointer: string): string[] {
  return pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** `/users/3/username` → `users[3].username`; '' → `params`. */
export function fieldLabel(pointer: string): string {
  const segs = segmentsOf(pointer);
  if (!segs.length) return 'params';
  return segs.map((s, i) => (/^\d+$/.test(s) && i > 0 ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

export function isSecretPointer(pointer: string): boolean {
  return segmentsOf(pointer).some((s) => isSecretLookingName(s));
}

export function valueAt(root: unknown, pointer: string): unknown {
  let v: unknown = root;
  for (const s of segmentsOf(pointer)) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[s];
  }
  return v;
}

export function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : Number.isFinite(v) ? 'number' : String(v);
  return typeof v;
}

export function article(type: string): string {
  return type === 'null' ? 'null' : `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
}

export function show(v: unknown): string {
  if (v === undefined) return 'undefined';
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

/** ` (got "x")` for short, non-secret primitive values; '' otherwise. */
export function got(pointer: string, value: unknown): string {
  if (isSecretPointer(pointer)) return '';
  if (value !== null && typeof value === 'object') return ` (got ${typeName(value)})`;
  const text = show(value);
  return text.length <= MAX_QUOTED ? ` (got ${text})` : ` (got ${typeName(value)})`;
}

export function typesOf(param: unknown): string[] {
  if (Array.isArray(param)) return param.map(String);
  return String(param).split(',');
}

export function listTypes(types: string[]): string {
  const names = types.map(article);
  return names.length <= 1 ? (names[0] ?? 'valid') : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
}

/** Why a path parameter value would not be one path segment. */
export function pathParamProblem(value: unknown): string {
  if (typeof value !== 'string') return 'must be a usable path segment';
  if (value === '.' || value === '..') return 'must not be "." or ".." (it would change the path)';
  if (value.includes('/')) return 'must not contain "/" (it would change the path)';
  if (CONTROL_CHARS.test(value)) return 'must not contain control characters';
  return 'must be a usable path segment';
}

/** The message of a size or range rule (lengths, item and entry counts, bounds, multiples); undefined for other rules. */
export function limitMessage(
  keyword: string,
  subject: string,
  p: Record<string, any>,
  pointer: string,
  value: unknown,
): string | undefined {
  switch (keyword) {
    case 'minLength':
      return p.limit === 1 ? `${subject} must not be empty` : `${subject} must be at least ${p.limit} characters long`;
    case 'maxLength':
      return `${subject} must be at most ${p.limit} characters long`;
    case 'minItems':
      return `${subject} must have at least ${p.limit} item${p.limit === 1 ? '' : 's'}${Array.isArray(value) ? ` (got ${value.length})` : ''}`;
    case 'maxItems':
      return `${subject} must have at most ${p.limit} items${Array.isArray(value) ? ` (got ${value.length}); split the list into several calls` : ''}`;
    case 'minProperties':
      return `${subject} must have at least ${p.limit} entr${p.limit === 1 ? 'y' : 'ies'}`;
    case 'maxProperties':
      return `${subject} must have at most ${p.limit} entries`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `${subject} must be ${p.comparison} ${p.limit}${got(pointer, value)}`;
    case 'multipleOf':
      return `${subject} must be a multiple of ${p.multipleOf}${got(pointer, value)}`;
    default:
      return undefined;
  }
}
