// Copied by im-openapi from templates/runtime/callbacks/headers.ts. Do not edit here: edit the template and run `npm run generate`.
import type { HeadersLike } from './types.js';

/**
 * Reads one header, case-insensitively, from a Web `Headers`, Node's `IncomingHttpHeaders`
 * (string | string[]), a Map-like object or a plain record. Repeated values are joined with
 * ", " like Node and `Headers` do. Returns undefined when absent.
 */
export function readHeader(
  headers: HeadersLike | null | undefined,
  name: string,
): string | undefined {
  if (headers == null || typeof headers !== 'object') return undefined;
  const lower = name.toLowerCase();
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
