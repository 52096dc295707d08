// Copied by im-openapi from templates/runtime/internal/redact.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * Redaction helpers: the one place that decides what may be shown of a URL, a header map,
 * a text or a value. Internal and unstable, except `maskUrlQuery` (re-exported by `core/`).
 *
 * Rule: the App Token, the client secret and any Authorization header value never appear in
 * an error, a log line or a printed object.
 */
import { isSecretLookingName } from './secret-names.js';
import type { ResponseHeaders } from './http-attempt.js';

export const REDACTED = '***';

/** Levels of nesting copied by `SecretRedactor.value`; deeper subtrees become `TOO_DEEP`. */
export const MAX_VALUE_DEPTH = 32;
export const TOO_DEEP = '[nested too deeply: not shown]';
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Header names whose values are never shown. */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key']);

/** Field names that look like they hold a secret (their values are never echoed): see secret-names.ts. */
export { isSecretLookingName };

/**
 * Replaces every query value of a URL with `***` (the service's own display rule), keeping
 * the keys: `https://h/o/a/users?cursor=abc&limit=5` → `https://h/o/a/users?cursor=***&limit=***`.
 * Accepts absolute URLs and paths; anything unparsable has everything after `?` masked.
 * Userinfo (`user:pass@`) is masked too.
 */
export function maskUrlQuery(url: string): string {
  const hashAt = url.indexOf('#');
  const withoutHash = hashAt >= 0 ? url.slice(0, hashAt) : url;
  const q = withoutHash.indexOf('?');
  let head = q >= 0 ? withoutHash.slice(0, q) : withoutHash;
  head = head.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, `$1${REDACTED}@`);
  if (q < 0) return head;
  const query = withoutHash.slice(q + 1);
  if (query === '') return `${head}?`;
  const masked = query
    .split('&')
    .map((pair) => {
      if (pair === '') return pair;
      const eq = pair.indexOf('=');
      const key = eq >= 0 ? pair.slice(0, eq) : pair;
      return `${key}=${REDACTED}`;
    })
    .join('&');
  return `${head}?${masked}`;
}

/** Lower-cased copy of a header map with secret header values replaced by `***`. */
export function redactHeaders(headers: ResponseHeaders | Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  const put = (name: string, value: unknown): void => {
    const key = name.toLowerCase();
    out[key] = SECRET_HEADERS.has(key) ? REDACTED : String(value);
  };
  if (
    typeof (headers as ResponseHeaders).forEach === 'function' &&
    typeof (headers as ResponseHeaders).get === 'function'
  ) {
    // straight from the view: no list of pairs in between (this runs once per answer); its names
    // are lower-case already (WHATWG Headers and the node transport's view alike)
    (headers as ResponseHeaders).forEach((value, name) => {
      out[name] = SECRET_HEADERS.has(name) ? REDACTED : value;
    });
  } else {
    for (const [name, value] of Object.entries(headers as Record<string, string>)) put(name, value);
  }
  return out;
}

/**
 * Knows the secret values of one client (its client secret, its recent App Tokens) and
 * removes them from any text or value. Bounded: keeps the most recent `max` values.
 */
export class SecretRedactor {
  readonly #values: string[] = [];
  readonly #max: number;

  constructor(max = 16) {
    this.#max = max;
  }

  /** Remembers a secret value (ignored when shorter than 4 characters: too many false hits). */
  add(value: string | undefined | null): void {
    if (typeof value !== 'string' || value.length < 4 || this.#values.includes(value)) return;
    this.#values.push(value);
    if (this.#values.length > this.#max) this.#values.shift();
  }

  text(input: string): string {
    let out = input;
    for (const secret of this.#values) {
      if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    }
    // Bearer values that we did not know about (e.g. echoed by a proxy).
    return out.replace(/(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/g, `$1${REDACTED}`);
  }

  /**
   * Deep copy of a JSON-like value with secret-looking fields and known secrets masked, at any
   * depth: a subtree deeper than `MAX_VALUE_DEPTH` is replaced by a marker, never returned as it
   * came (it could hold the App Token). Keys that would reach an object's prototype
   * (`__proto__`, `constructor`, `prototype`) are dropped, so that an answer cannot give
   * `err.details` a prototype of its choosing.
   */
  value(input: unknown, depth = 0): unknown {
    if (typeof input === 'string') return this.text(input);
    if (input === null || typeof input !== 'object') return input;
    if (depth >= MAX_VALUE_DEPTH) return TOO_DEEP;
    if (Array.isArray(input)) return input.map((v) => this.value(v, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(input as Record<string, unknown>)) {
      if (PROTOTYPE_KEYS.has(k)) continue;
      out[k] = isSecretLookingName(k) && v !== null && v !== undefined ? REDACTED : this.value(v, depth + 1);
    }
    return out;
  }
}
