/**
 * Builds the HTTP request of one call from the operation table entry and the flat params
 * (internal, unstable). Safety is built in: every path parameter is percent-encoded and `.`,
 * `..`, empty values and control characters are refused before anything is sent.
 */
import type { OperationSpec, ValidationIssue, WireCodec } from '../operation.js';
import { ImError, ValidationError } from '../core/errors.js';
import { jsonStringifyLossless } from './lossless-json.js';
import { operationNames } from './operation-names.js';
import type { RequestBodyInit } from './http-attempt.js';

const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;
/** Either a control character or any surrogate: a value without one needs neither detailed check (the common case, one scan). */
const MAYBE_BAD = /[\u0000-\u001f\u007f\uD800-\uDFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Returns the issue that makes `value` unusable as a path segment, or null. */
export function pathSegmentIssue(name: string, value: unknown): ValidationIssue | null {
  const pointer = `/${name}`;
  if (value === undefined || value === null) {
    return { pointer, rule: 'required', message: `path parameter \`${name}\` is required` };
  }
  if (typeof value === 'number') {
    return Number.isFinite(value)
      ? null
      : { pointer, rule: 'type', message: `path parameter \`${name}\` must be a finite number or a string` };
  }
  if (typeof value !== 'string') {
    return { pointer, rule: 'type', message: `path parameter \`${name}\` must be a string (got ${typeof value})` };
  }
  if (value === '') return { pointer, rule: 'minLength', message: `path parameter \`${name}\` must not be empty` };
  if (value === '.' || value === '..') {
    return {
      pointer,
      rule: 'pathSegment',
      message: `path parameter \`${name}\` must not be "." or ".." (it would change the path)`,
    };
  }
  if (!MAYBE_BAD.test(value)) return null;
  if (CONTROL_CHARS.test(value)) {
    return { pointer, rule: 'pattern', message: `path parameter \`${name}\` must not contain control characters` };
  }
  if (LONE_SURROGATE.test(value)) {
    return {
      pointer,
      rule: 'wellFormed',
      message: `path parameter \`${name}\` is not well-formed Unicode (lone surrogate)`,
    };
  }
  return null;
}

/** Percent-encodes one path segment after the checks of `pathSegmentIssue`. */
export function encodePathSegment(operationId: string, name: string, value: unknown): string {
  const issue = pathSegmentIssue(name, value);
  if (issue) throw new ValidationError(operationId, [issue]);
  return encodeURIComponent(String(value));
}

/**
 * Fills `{name}` placeholders of a path template with encoded values (openai-node's `path`
 * helper): `path('users.get', '/users/{username}', { username: 'a/b' })` → `/users/a%2Fb`.
 */
export function path(operationId: string, template: string, values: Record<string, unknown>): string {
  return fillPath(operationId, splitTemplate(template), values);
}

/** A path template split once: literal pieces around the placeholder names (pieces.length = names.length + 1). */
interface CompiledTemplate {
  pieces: string[];
  names: string[];
}

function splitTemplate(template: string): CompiledTemplate {
  const pieces: string[] = [];
  const names: string[] = [];
  let at = 0;
  for (const m of template.matchAll(/\{([^}]+)\}/g)) {
    pieces.push(template.slice(at, m.index));
    names.push(m[1]!);
    at = m.index! + m[0].length;
  }
  pieces.push(template.slice(at));
  return { pieces, names };
}

function fillPath(operationId: string, t: CompiledTemplate, values: Record<string, unknown>): string {
  let out = t.pieces[0]!;
  let issues: ValidationIssue[] | undefined;
  for (let i = 0; i < t.names.length; i++) {
    const name = t.names[i]!;
    const value = values[name];
    const issue = pathSegmentIssue(name, value);
    if (issue) (issues ??= []).push(issue);
    else out += encodeURIComponent(String(value));
    out += t.pieces[i + 1]!;
  }
  if (issues) throw new ValidationError(operationId, issues);
  return out;
}

export type QueryScalar = string | number | boolean;

export function queryValue(op: OperationSpec, name: string, v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'bigint') return v.toString();
  throw new ValidationError(op.id, [
    {
      pointer: `/${name}`,
      rule: 'type',
      message: `query parameter \`${name}\` must be a string, a finite number, a boolean or an array of those`,
    },
  ]);
}

/**
 * Query string (with the leading `?`, or '') from `op.queryParams`: undefined/null skipped;
 * style form + explode (the default): arrays repeated (objects only when the spec says object: `queryStyles`); other styles as
 * wire-params.ts says. An empty string is sent as `name=` only for a parameter with
 * `allowEmptyValue` (op.allowEmpty); elsewhere it is refused, never silently dropped.
 */
export function buildQuery(op: OperationSpec, params: Record<string, unknown>): string {
  if (op.queryStyles) return wireOf(op).query(op, params);
  if (op.queryParams.length === 0) return '';
  const search = new URLSearchParams();
  for (const name of op.queryParams) {
    const v = params[name];
    if (v === undefined || v === null) continue;
    if (v === '' && !op.allowEmpty?.includes(name)) throw emptyValueError(op, name);
    const list = Array.isArray(v) ? (v as QueryScalar[]) : [v];
    for (const item of list) search.append(name, queryValue(op, name, item));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

export function emptyValueError(op: OperationSpec, name: string): ValidationError {
  return new ValidationError(op.id, [
    {
      pointer: `/${name}`,
      rule: 'allowEmptyValue',
      message: `query parameter \`${name}\` must not be empty (no allowEmptyValue); omit it`,
    },
  ]);
}

/** The wire codec of an entry that needs one (the generator writes it; a stale table lacks it). */
export function wireOf(op: OperationSpec): WireCodec {
  if (op.wire) return op.wire;
  throw new ImError(`${op.id}: no wire codec in its table entry (regenerate the package).`);
}

/**
 * JSON body object: every param that is neither path nor query and not undefined. Null values
 * are kept (tri-state fields: omitted = unchanged, null = clear, value = set).
 */
export function buildBody(op: OperationSpec, params: Record<string, unknown>): Record<string, unknown> | undefined {
  const taken = operationNames(op).nonBody;
  const body: Record<string, unknown> = {};
  const extra: string[] = [];
  for (const [name, value] of Object.entries(params)) {
    if (taken.has(name) || value === undefined) continue;
    if (op.body === 'none') extra.push(name);
    else body[name] = value;
  }
  if (extra.length) {
    throw new ValidationError(
      op.id,
      extra.map((name) => ({
        pointer: `/${name}`,
        rule: 'additionalProperties',
        message: `\`${name}\` is not a parameter of ${op.id} (it sends no body)`,
      })),
    );
  }
  return op.body === 'object' ? body : undefined;
}

export interface BuiltRequest {
  method: OperationSpec['method'];
  /** Full URL. */
  url: string;
  /** Path and query as sent (for logs: mask it with `maskUrlQuery`). */
  pathAndQuery: string;
  /** JSON text, or (for other media types) what fetch sends. */
  body: RequestBodyInit | undefined;
  /** Content type of a non-JSON body (a JSON body is `application/json`). */
  contentType?: string;
  /** Headers from header and cookie parameters. */
  headers?: Record<string, string> | undefined;
  /** The body is a stream: it can be sent once only, so the call is never resent. */
  oneShot?: boolean;
}

export interface Prefix {
  baseUrl: string;
  orgName: string;
  appName: string;
}

/**
 * URL = baseUrl + `/{org}/{app}` + op.path (placeholders filled) + query; body as JSON text.
 * A path that itself starts with `/{org_name}/{app_name}` (the token exchange may be written
 * so) gets those two filled from the client instead of the prefix being added again.
 */
export function buildRequest(
  op: OperationSpec,
  params: Record<string, unknown>,
  prefix: Prefix,
  contentType?: string,
): BuiltRequest {
  const path = fillPath(op.id, ownPathOf(op), params);
  const query = buildQuery(op, params);
  // a path with a fixed query (`/responses?beta=true`, as some documents write it) keeps it first
  const pathAndQuery = `${encodedPrefix(op.id, prefix)}${path}${path.includes('?') && query ? `&${query.slice(1)}` : query}`;
  const built: BuiltRequest = {
    method: op.method,
    url: `${prefix.baseUrl}${pathAndQuery}`,
    pathAndQuery,
    body: undefined,
  };
  if (op.headerParams || op.cookieParams) built.headers = wireOf(op).headers(op, params);
  if (op.requestBodies) {
    const object = buildBody(op, params);
    const encoded = object && wireOf(op).body(op, op.requestBodies, object, contentType);
    if (encoded) Object.assign(built, encoded);
    return built;
  }
  if (contentType !== undefined && contentType !== 'application/json') {
    throw new ValidationError(op.id, [
      { pointer: '', rule: 'contentType', message: `${op.id} sends no ${contentType} body` },
    ]);
  }
  const body = buildBody(op, params);
  built.body = body === undefined ? undefined : toJson(op.id, body);
  return built;
}

/** `/{org}/{app}` encoded, kept per prefix object while its names stay the same (checked each call: a string compare). */
const prefixes = new WeakMap<Prefix, { orgName: string; appName: string; encoded: string }>();

function encodedPrefix(operationId: string, prefix: Prefix): string {
  const known = prefixes.get(prefix);
  if (known && known.orgName === prefix.orgName && known.appName === prefix.appName) return known.encoded;
  // checked and encoded here, so a bad org/app name is refused (naming the operation) before anything is cached
  const encoded = `/${encodePathSegment(operationId, 'org_name', prefix.orgName)}/${encodePathSegment(operationId, 'app_name', prefix.appName)}`;
  prefixes.set(prefix, { orgName: prefix.orgName, appName: prefix.appName, encoded });
  return encoded;
}

const FULL_PREFIX = '/{org_name}/{app_name}';

/** The operation's own path (after `/{org}/{app}`), split and checked against pathParams once per entry. */
const ownPaths = new WeakMap<OperationSpec, { path: string; compiled: CompiledTemplate }>();

function ownPathOf(op: OperationSpec): CompiledTemplate {
  const known = ownPaths.get(op);
  if (known && known.path === op.path) return known.compiled;
  const ownPath = op.path.startsWith(FULL_PREFIX) ? op.path.slice(FULL_PREFIX.length) : op.path;
  const compiled = splitTemplate(ownPath);
  for (const name of compiled.names) {
    if (!op.pathParams.includes(name)) {
      throw new ImError(
        `Operation table entry ${op.id} is inconsistent: {${name}} is not in pathParams (regenerate the package).`,
      );
    }
  }
  ownPaths.set(op, { path: op.path, compiled });
  return compiled;
}

export function toJson(operationId: string, body: unknown): string {
  try {
    return JSON.stringify(body);
  } catch (err) {
    // int64 fields above 2^53 are bigints (lossless-json.ts): written as their digits. Tried only
    // after plain JSON.stringify refuses them, so a body without bigints pays nothing.
    if (err instanceof TypeError && /bigint/i.test(err.message)) {
      const text = jsonStringifyLossless(body);
      if (text !== undefined) return text;
    }
    const why = err instanceof Error ? err.message.split('\n')[0] : 'not serialisable';
    throw new ValidationError(operationId, [
      { pointer: '', rule: 'json', message: `the params cannot be sent as JSON (${why})` },
    ]);
  }
}

/** Checks that the params argument is a plain object (or absent). */
export function asParams(operationId: string, params: unknown): Record<string, unknown> {
  if (params === undefined || params === null) return {};
  if (typeof params !== 'object' || Array.isArray(params)) {
    throw new ValidationError(operationId, [
      { pointer: '', rule: 'type', message: 'params must be an object of named fields' },
    ]);
  }
  return params as Record<string, unknown>;
}
