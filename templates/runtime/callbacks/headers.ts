import type { HeadersLike } from './types.js';

/**
 * The seven X-IM-* headers a callback carries (seed 001 section 2.3), read in one pass over the
 * request's headers into fixed fields. Verification reads all of them; one scan that skips every
 * other header without lower-casing it is cheaper than an index of every header (a Map and a
 * lower-cased copy of each name per request) or a case-insensitive scan per header.
 */
export class CallbackHeaders {
  signature: string | undefined = undefined;
  timestamp: string | undefined = undefined;
  nonce: string | undefined = undefined;
  kind: string | undefined = undefined;
  hook: string | undefined = undefined;
  requestId: string | undefined = undefined;
  endpointId: string | undefined = undefined;
}

export type CallbackHeaderField = keyof CallbackHeaders;

/** The wire name of each field, as errors and disagreement reports name it. */
export const CALLBACK_HEADER_NAMES: Readonly<Record<CallbackHeaderField, string>> = {
  signature: 'X-IM-Signature',
  timestamp: 'X-IM-Timestamp',
  nonce: 'X-IM-Nonce',
  kind: 'X-IM-Kind',
  hook: 'X-IM-Hook',
  requestId: 'X-IM-Request-Id',
  endpointId: 'X-IM-Endpoint-Id',
};

/**
 * `name` equals `lower` (lower-case ASCII) ignoring the case of ASCII letters. toLowerCase folds
 * one more character into ASCII at the same length: the Kelvin sign (U+212A) into "k"; an HTTP
 * header name is ASCII, so a name holding it is not one of ours.
 */
function sameName(name: string, lower: string): boolean {
  if (name === lower) return true; // Node and Headers give lower-case names
  return name.toLowerCase() === lower && !name.includes('\u212a');
}

/**
 * The field for a header name in any case, or undefined for every other header. Picked by
 * length first, so most other headers are refused after one comparison, un-lowered.
 */
function fieldOf(name: string): CallbackHeaderField | undefined {
  switch (name.length) {
    case 9:
      return sameName(name, 'x-im-kind') ? 'kind' : sameName(name, 'x-im-hook') ? 'hook' : undefined;
    case 10:
      return sameName(name, 'x-im-nonce') ? 'nonce' : undefined;
    case 14:
      return sameName(name, 'x-im-signature')
        ? 'signature'
        : sameName(name, 'x-im-timestamp')
          ? 'timestamp'
          : undefined;
    case 15:
      return sameName(name, 'x-im-request-id') ? 'requestId' : undefined;
    case 16:
      return sameName(name, 'x-im-endpoint-id') ? 'endpointId' : undefined;
    default:
      return undefined;
  }
}

/**
 * fieldOf by header name, remembered: a request's header names are the same strings request
 * after request, and a lookup by a string (its hash is kept in it) costs a third of lower-casing
 * and comparing it. Cleared when full, so that names sent at random cannot grow it.
 */
const fieldsByName = new Map<string, CallbackHeaderField | null>();

function knownFieldOf(name: string): CallbackHeaderField | undefined {
  let field = fieldsByName.get(name);
  if (field === undefined) {
    field = fieldOf(name) ?? null;
    if (fieldsByName.size >= 256) fieldsByName.clear();
    fieldsByName.set(name, field);
  }
  return field ?? undefined;
}

function pushValue(out: string[], value: unknown): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) {
    for (const v of value) if (v !== undefined && v !== null) out.push(String(v));
  } else {
    out.push(String(value));
  }
}

/** `before, text` for a repeated header, like Node and `Headers` join them. */
const joined = (before: string | undefined, text: string): string =>
  before === undefined ? text : `${before}, ${text}`;

/** Adds one header; a name repeated (in any case) joins its values with ", ". */
function add(into: CallbackHeaders, key: unknown, value: unknown): void {
  const field = knownFieldOf(typeof key === 'string' ? key : String(key));
  if (field === undefined) return;
  let text: string;
  if (typeof value === 'string') text = value;
  else {
    const parts: string[] = [];
    pushValue(parts, value);
    if (parts.length === 0) return;
    text = parts.join(', ');
  }
  // One named store per field: a store under a computed name costs a generic lookup per header.
  switch (field) {
    case 'signature':
      into.signature = joined(into.signature, text);
      break;
    case 'timestamp':
      into.timestamp = joined(into.timestamp, text);
      break;
    case 'nonce':
      into.nonce = joined(into.nonce, text);
      break;
    case 'kind':
      into.kind = joined(into.kind, text);
      break;
    case 'hook':
      into.hook = joined(into.hook, text);
      break;
    case 'requestId':
      into.requestId = joined(into.requestId, text);
      break;
    case 'endpointId':
      into.endpointId = joined(into.endpointId, text);
      break;
  }
}

/**
 * Reads the X-IM-* headers, case-insensitively, from a Web `Headers`, Node's
 * `IncomingHttpHeaders` (string | string[]), a Map-like object (`get` + `entries`) or a plain record.
 */
export function readCallbackHeaders(headers: HeadersLike | null | undefined): CallbackHeaders {
  const out = new CallbackHeaders();
  if (headers == null || typeof headers !== 'object') return out;
  if (typeof Headers !== 'undefined' && headers instanceof Headers) {
    headers.forEach((value, key) => add(out, key, value));
    return out;
  }
  const h = headers as { get?: unknown; entries?: unknown };
  if (typeof h.get === 'function' && typeof h.entries === 'function') {
    for (const entry of (h.entries as () => Iterable<[unknown, unknown]>).call(headers)) add(out, entry[0], entry[1]);
    return out;
  }
  const record = headers as Record<string, unknown>;
  // Own enumerable keys, like for-in + hasOwn, at a quarter of the cost.
  const keys = Object.keys(record);
  for (let i = 0; i < keys.length; i++) add(out, keys[i], record[keys[i]!]);
  return out;
}

/** Every header by lower-cased name (a repeated one joined with ", "), for names other than the X-IM-* ones. */
function allHeaders(headers: HeadersLike | null | undefined): Map<string, string> {
  const out = new Map<string, string>();
  const put = (key: unknown, value: unknown): void => {
    const parts: string[] = [];
    pushValue(parts, value);
    if (parts.length === 0) return;
    const name = String(key).toLowerCase();
    out.set(name, joined(out.get(name), parts.join(', ')));
  };
  if (headers == null || typeof headers !== 'object') return out;
  if (typeof Headers !== 'undefined' && headers instanceof Headers) {
    headers.forEach((value, key) => put(key, value));
    return out;
  }
  const h = headers as { get?: unknown; entries?: unknown };
  if (typeof h.get === 'function' && typeof h.entries === 'function') {
    for (const entry of (h.entries as () => Iterable<[unknown, unknown]>).call(headers)) put(entry[0], entry[1]);
    return out;
  }
  for (const [key, value] of Object.entries(headers as Record<string, unknown>)) put(key, value);
  return out;
}

/**
 * A signature scheme's view of the request headers: `header(name)`, any case. The X-IM-* headers
 * come from `known` (read once, in one pass); any other name from one more pass, made on first use.
 */
export function headerReader(
  headers: HeadersLike | null | undefined,
  known: CallbackHeaders,
): (name: string) => string | undefined {
  let others: Map<string, string> | undefined;
  return (name) => {
    const field = knownFieldOf(name);
    if (field !== undefined) return known[field];
    others ??= allHeaders(headers);
    return others.get(name.toLowerCase());
  };
}
