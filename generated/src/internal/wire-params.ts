// Copied by im-openapi from templates/runtime/internal/wire-params.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * Query styles, header and cookie parameters (internal, unstable), as OpenAPI 3.1 section
 * 4.8.12.4 ("Style Examples") spells them. Values are percent-encoded (RFC 3986); the style's own
 * delimiters (`,` `|` `%20` `[` `]`) stay literal, so a delimiter inside a value is encoded and the
 * service can split unambiguously. Only operations that use these constructs come here: the
 * default query style (form, explode) stays on the URLSearchParams path of request-builder.ts.
 */
import type { OperationSpec, QueryStyle, ValidationIssue } from '../operation.js';
import { ValidationError } from '../core/errors.js';
import { emptyValueError, queryValue } from './request-builder.js';

const enc = encodeURIComponent;

function scalarText(op: OperationSpec, where: string, name: string, v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'bigint') return v.toString();
  throw new ValidationError(op.id, [
    {
      pointer: `/${name}`,
      rule: 'type',
      message: `${where} parameter \`${name}\` must hold strings, finite numbers or booleans (got ${v === null ? 'null' : typeof v})`,
    },
  ]);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Defined entries of an object value, in insertion order. */
function entriesOf(v: Record<string, unknown>): [string, unknown][] {
  return Object.entries(v).filter(([, x]) => x !== undefined && x !== null);
}

/**
 * `name=value` pairs (already encoded) of one query parameter in a non-default style.
 * `value` is not undefined/null (the caller skips those).
 */
export function styledQueryPairs(op: OperationSpec, name: string, style: QueryStyle, value: unknown): string[] {
  const text = (v: unknown) => enc(scalarText(op, 'query', name, v));
  if (style === 'deepObject') {
    if (!isPlainObject(value)) {
      throw new ValidationError(op.id, [
        {
          pointer: `/${name}`,
          rule: 'type',
          message: `query parameter \`${name}\` (style deepObject) must be an object`,
        },
      ]);
    }
    return entriesOf(value).map(([k, v]) => `${enc(name)}[${enc(k)}]=${text(v)}`);
  }
  if (style === 'form') {
    // explode true: arrays repeat the name, objects spread their properties (`R=100&G=200`)
    if (Array.isArray(value)) return value.map((v) => `${enc(name)}=${text(v)}`);
    if (isPlainObject(value)) return entriesOf(value).map(([k, v]) => `${enc(k)}=${text(v)}`);
    return [`${enc(name)}=${text(value)}`];
  }
  const delimiter = style === 'formNoExplode' ? ',' : style === 'spaceDelimited' ? '%20' : '|';
  let parts: string[];
  if (Array.isArray(value)) parts = value.map(text);
  else if (isPlainObject(value)) parts = entriesOf(value).flatMap(([k, v]) => [enc(k), text(v)]);
  else parts = [text(value)];
  return [`${enc(name)}=${parts.join(delimiter)}`];
}

/** Default-style pairs of one parameter, encoded as URLSearchParams encodes them. */
function formPairs(op: OperationSpec, name: string, v: unknown): string[] {
  const search = new URLSearchParams();
  for (const item of Array.isArray(v) ? v : [v]) search.append(name, queryValue(op, name, item));
  return [search.toString()];
}

/** The query string of an operation with styled parameters: every parameter's pairs in the spec's order. */
export function styledQuery(op: OperationSpec, params: Record<string, unknown>): string {
  const pairs: string[] = [];
  for (const name of op.queryParams) {
    const v = params[name];
    if (v === undefined || v === null) continue;
    if (v === '' && !op.allowEmpty?.includes(name)) throw emptyValueError(op, name);
    const style = op.queryStyles?.[name];
    pairs.push(...(style === undefined ? formPairs(op, name, v) : styledQueryPairs(op, name, style, v)));
  }
  const text = pairs.filter((p) => p !== '').join('&');
  return text === '' ? '' : `?${text}`;
}

const BAD_HEADER_VALUE = /[\r\n\0]/;

/** Style simple (headers): `a,b,c`; objects `k,v,k,v` or, exploded, `k=v,k=v`. */
function simpleText(op: OperationSpec, where: string, name: string, value: unknown, explode: boolean): string {
  if (Array.isArray(value)) return value.map((v) => scalarText(op, where, name, v)).join(',');
  if (isPlainObject(value)) {
    return entriesOf(value)
      .map(([k, v]) => (explode ? `${k}=${scalarText(op, where, name, v)}` : `${k},${scalarText(op, where, name, v)}`))
      .join(',');
  }
  return scalarText(op, where, name, value);
}

/**
 * Header and cookie parameters → request headers (names lower-cased; cookies joined into one
 * `cookie` header as `name=value; name=value`). A value with CR, LF or NUL is refused (it would
 * split the header); an empty header value is refused too (HTTP drops it silently).
 */
export function paramHeaders(op: OperationSpec, params: Record<string, unknown>): Record<string, string> | undefined {
  let headers: Record<string, string> | undefined;
  const issues: ValidationIssue[] = [];
  for (const name of op.headerParams ?? []) {
    const v = params[name];
    if (v === undefined || v === null) continue;
    const text = simpleText(op, 'header', name, v, op.explodeHeaders?.includes(name) ?? false);
    if (BAD_HEADER_VALUE.test(text))
      issues.push({
        pointer: `/${name}`,
        rule: 'headerValue',
        message: `header parameter \`${name}\` must not contain CR, LF or NUL`,
      });
    else if (text === '')
      issues.push({
        pointer: `/${name}`,
        rule: 'minLength',
        message: `header parameter \`${name}\` must not be empty (HTTP would drop it)`,
      });
    else (headers ??= {})[name.toLowerCase()] = text;
  }
  const cookies: string[] = [];
  for (const name of op.cookieParams ?? []) {
    const v = params[name];
    if (v === undefined || v === null) continue;
    // form style, explode false (the only cookie form that fits one header): a,b / k,v,k,v
    const raw = Array.isArray(v)
      ? v.map((x) => enc(scalarText(op, 'cookie', name, x))).join(',')
      : isPlainObject(v)
        ? entriesOf(v)
            .map(([k, x]) => `${enc(k)},${enc(scalarText(op, 'cookie', name, x))}`)
            .join(',')
        : enc(scalarText(op, 'cookie', name, v));
    cookies.push(`${enc(name)}=${raw}`);
  }
  if (issues.length) throw new ValidationError(op.id, issues);
  if (cookies.length) (headers ??= {}).cookie = cookies.join('; ');
  return headers;
}
