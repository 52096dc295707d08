// Copied by im-openapi from templates/runtime/callbacks/headers.ts. Do not edit here: edit the template and run `npm run generate`.
import type { HeadersLike } from './types.js';

/**
 * Reads one header, case-insensitively, from a Web `Headers`, Node's `IncomingHttpHeaders`
 * (string | string[]), a Map-like object or a plain record. Repeated values are joined with
 * ", " like Node and `Headers` do. Returns undefined when absent.
 */
export function readHeader(headers: HeadersLike | HeaderIndex | null | undefined, name: string): string | undefined {
  if (headers == null || typeof headers !== 'object') return undefined;
  const lower = name.toLowerCase();
  if (headers instanceof HeaderIndex) return headers.get(lower);
  if (typeof Headers !== 'undefined' && headers instanceof Headers) {
    return headers.get(lower) ?? undefined;
  }
  const h = headers as { get?: unknown; entries?: unknown };
  if (typeof h.get === 'function' && typeof h.entries === 'function') {
    // Map-like (a Map, or a Headers polyfill): match the key case-insensitively.
    const found: string[] = [];
    for (const entry of (h.entries as () => Iterable<[unknown, unknown]>).call(headers)) {
      if (String(entry[0]).toLowerCase() === lower) pushValue(found, entry[1]);
    }
    return found.length > 0 ? found.join(', ') : undefined;
  }
  const found: string[] = [];
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() === lower) {
      pushValue(found, (headers as Record<string, unknown>)[key]);
    }
  }
  return found.length > 0 ? found.join(', ') : undefined;
}

function pushValue(out: string[], value: unknown): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) {
    for (const v of value) if (v !== undefined && v !== null) out.push(String(v));
  } else {
    out.push(String(value));
  }
}

/**
 * Every header of a request under its lower-case name, built in one pass, for code that reads
 * several headers (verification reads seven): one scan instead of one per header.
 */
export class HeaderIndex {
  readonly #values = new Map<string, string>();

  private constructor() {}

  static of(headers: HeadersLike | null | undefined): HeaderIndex {
    const index = new HeaderIndex();
    if (headers == null || typeof headers !== 'object') return index;
    const values = index.#values;
    const add = (key: unknown, value: unknown) => {
      let text: string;
      if (typeof value === 'string') text = value;
      else {
        const parts: string[] = [];
        pushValue(parts, value);
        if (parts.length === 0) return;
        text = parts.join(', ');
      }
      const lower = typeof key === 'string' ? key.toLowerCase() : String(key).toLowerCase();
      const before = values.get(lower);
      values.set(lower, before === undefined ? text : `${before}, ${text}`);
    };
    if (typeof Headers !== 'undefined' && headers instanceof Headers) {
      headers.forEach((value, key) => add(key, value));
      return index;
    }
    const h = headers as { get?: unknown; entries?: unknown };
    if (typeof h.get === 'function' && typeof h.entries === 'function') {
      for (const entry of (h.entries as () => Iterable<[unknown, unknown]>).call(headers)) add(entry[0], entry[1]);
      return index;
    }
    const record = headers as Record<string, unknown>;
    for (const key in record) if (Object.hasOwn(record, key)) add(key, record[key]);
    return index;
  }

  /** The value of a header given by its lower-case name. */
  get(lowerName: string): string | undefined {
    return this.#values.get(lowerName);
  }
}
