// Copied by im-openapi from templates/runtime/testing/routes.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * From method and path to the operation of the catalog, and from the request to the flat params
 * object the client takes (path, query and body fields under their wire names); what
 * `fake.calls` keeps of it, with secrets masked.
 */
import { isSecretLookingName, REDACTED, redactHeaders } from '../internal/redact.js';
import type { OperationSpec } from '../operation.js';

interface Route {
  op: OperationSpec;
  regex: RegExp;
  names: string[];
  literals: number;
}

export interface RouteMatch {
  op: OperationSpec;
  org: string;
  app: string;
  pathParams: Record<string, string>;
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Routes of every operation under `/{org}/{app}`; literal segments win over parameters (`/users/batch` before `/users/{username}`). */
export function buildRoutes(operations: readonly OperationSpec[]): Route[] {
  const routes = operations.map((op) => {
    const names: string[] = [];
    const pattern = op.path
      .split('/')
      .map((seg) => {
        const m = /^\{(.+)\}$/.exec(seg);
        if (!m) return escapeRegExp(seg);
        names.push(m[1]!);
        return '([^/]+)';
      })
      .join('/');
    return {
      op,
      regex: new RegExp(`^/([^/]+)/([^/]+)${pattern}$`),
      names,
      literals: op.path.split('/').filter((s) => s && !s.startsWith('{')).length,
    };
  });
  return routes.sort((a, b) => b.literals - a.literals);
}

export function matchRoute(routes: readonly Route[], method: string, path: string): RouteMatch | undefined {
  for (const route of routes) {
    if (route.op.method !== method) continue;
    const m = route.regex.exec(path);
    if (!m) continue;
    try {
      const pathParams = Object.fromEntries(route.names.map((n, i) => [n, decodeURIComponent(m[i + 3]!)]));
      return { op: route.op, org: decodeURIComponent(m[1]!), app: decodeURIComponent(m[2]!), pathParams };
    } catch {
      return undefined; // a malformed percent-escape names no operation
    }
  }
  return undefined;
}

/** Query parameters as strings (a repeated name as a list). */
export function queryObject(query: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(query.keys())) {
    const all = query.getAll(key);
    out[key] = all.length === 1 ? all[0]! : all;
  }
  return out;
}

/** Query values the validators can read: whole numbers and true/false as such, a declared list as a list. */
export function typedQuery(query: Record<string, string | string[]>): Record<string, unknown> {
  const typed = (v: string): unknown =>
    /^-?\d+$/.test(v) && Number.isSafeInteger(Number(v)) ? Number(v) : v === 'true' ? true : v === 'false' ? false : v;
  return Object.fromEntries(Object.entries(query).map(([k, v]) => [k, Array.isArray(v) ? v.map(typed) : typed(v)]));
}

/** Path params, query params and body fields in one object, as the client's params object holds them. */
export function flatParams(
  pathParams: Record<string, string>,
  query: Record<string, unknown>,
  body: unknown,
): Record<string, unknown> {
  const fields = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  return { ...fields, ...query, ...pathParams };
}

/** A copy with the values of secret-looking fields replaced by `***`, at any depth. */
export function maskSecrets(value: unknown, depth = 0): unknown {
  if (depth > 32 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => maskSecrets(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>))
    out[k] = isSecretLookingName(k) && v !== null && v !== undefined ? REDACTED : maskSecrets(v, depth + 1);
  return out;
}

/** Request headers as `fake.calls` shows them: lower-case names, Authorization and cookies masked. */
export function maskedHeaders(
  headers: Readonly<Record<string, string | string[] | undefined>>,
): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
  return redactHeaders(flat);
}
