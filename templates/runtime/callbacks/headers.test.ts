import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CALLBACK_HEADER_NAMES, readCallbackHeaders } from './headers.js';
import type { CallbackHeaderField } from './headers.js';

const FIELDS = Object.keys(CALLBACK_HEADER_NAMES) as CallbackHeaderField[];

/** HTTP header names are ASCII: only A-Z fold (not the Kelvin sign, which toLowerCase turns into "k"). */
const asciiLower = (name: string) => name.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** The obvious reading, for comparison: lower-case every name, join repeated values with ", ". */
function reference(entries: Array<[string, unknown]>): Record<CallbackHeaderField, string | undefined> {
  const out = {} as Record<CallbackHeaderField, string | undefined>;
  for (const field of FIELDS) {
    const values: string[] = [];
    for (const [name, value] of entries) {
      if (asciiLower(name) !== asciiLower(CALLBACK_HEADER_NAMES[field])) continue;
      for (const v of Array.isArray(value) ? value : [value]) if (v !== undefined && v !== null) values.push(String(v));
    }
    out[field] = values.length > 0 ? values.join(', ') : undefined;
  }
  return out;
}

function fields(h: ReturnType<typeof readCallbackHeaders>): Record<CallbackHeaderField, string | undefined> {
  return Object.fromEntries(FIELDS.map((f) => [f, h[f]])) as Record<CallbackHeaderField, string | undefined>;
}

/** A name of one of the seven in random letter case, or a near miss of the same length. */
const headerName = fc.oneof(
  fc
    .tuple(
      fc.constantFrom(...Object.values(CALLBACK_HEADER_NAMES)),
      fc.array(fc.boolean(), { minLength: 16, maxLength: 16 }),
    )
    .map(([name, upper]) => [...name].map((ch, i) => (upper[i] ? ch.toUpperCase() : ch.toLowerCase())).join('')),
  // near misses: one character replaced (incl. characters that equal a letter once 0x20 is or-ed in)
  fc
    .tuple(
      fc.constantFrom(...Object.values(CALLBACK_HEADER_NAMES)),
      fc.nat(15),
      fc.constantFrom('\r', '\u000d', '@', '[', '_', 'i', 'I', '\u0130', '\u212a', '-'),
    )
    .map(([name, at, ch]) => name.slice(0, at % name.length) + ch + name.slice((at % name.length) + 1)),
  fc.constantFrom('content-type', 'user-agent', 'x-im-kinds', 'x-im-kin', 'X-IM-KIND ', 'host'),
);
const headerValue = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }),
  fc.constant(undefined),
  fc.integer(),
);

describe('readCallbackHeaders', () => {
  it('property: a plain record in any letter case reads like lower-casing every name and joining repeats', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(headerName, headerValue), { maxLength: 12 }), (entries) => {
        const record: Record<string, unknown> = {};
        for (const [k, v] of entries) record[k] = v; // a record keeps one value per exact name
        expect(fields(readCallbackHeaders(record as never))).toEqual(reference(Object.entries(record)));
      }),
      { numRuns: 300 },
    );
  });

  it('property: a Map (get + entries) reads the same way, repeats joined in order', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(headerName, headerValue), { maxLength: 12 }), (entries) => {
        const map = new Map(entries);
        expect(fields(readCallbackHeaders(map as never))).toEqual(reference([...map.entries()]));
      }),
      { numRuns: 200 },
    );
  });

  it('Web Headers, Node string[] values, and what is not a header object', () => {
    const web = new Headers({ 'X-IM-Nonce': 'ab', 'x-im-kind': 'event', 'Content-Type': 'application/json' });
    web.append('X-IM-Signature', 'v1=aa');
    web.append('x-im-signature', 'v1=bb');
    expect(fields(readCallbackHeaders(web))).toMatchObject({
      nonce: 'ab',
      kind: 'event',
      signature: 'v1=aa, v1=bb',
      timestamp: undefined,
    });
    expect(readCallbackHeaders({ 'x-im-hook': ['a', 'b'], 'x-im-request-id': [] }).hook).toBe('a, b');
    expect(readCallbackHeaders({ 'x-im-request-id': [] }).requestId).toBeUndefined();
    expect(fields(readCallbackHeaders(undefined))).toEqual(reference([]));
    expect(fields(readCallbackHeaders('x-im-kind: event' as never))).toEqual(reference([]));
  });

  it('past the 256 names it remembers, every name still reads right (the memory is cleared, not trusted)', () => {
    for (let i = 0; i < 600; i++)
      expect(readCallbackHeaders({ [`x-other-${i}`]: 'a', 'X-IM-Nonce': `n${i}` }).nonce).toBe(`n${i}`);
    for (let i = 0; i < 600; i++) expect(readCallbackHeaders({ [`x-im-nonce-${i}`]: 'a' }).nonce).toBeUndefined();
  });

  it('a name that differs only in a non-letter is not the header (no case folding of "-" or control characters)', () => {
    expect(
      readCallbackHeaders({ 'x\rim-kind': 'event', 'x-im\rkind': 'event', 'X-IM_KIND': 'event' }).kind,
    ).toBeUndefined();
    expect(readCallbackHeaders({ 'X\u0130M-KIND': 'event' }).kind).toBeUndefined();
    expect(readCallbackHeaders({ 'x-im-\u212aind': 'event' }).kind).toBeUndefined(); // Kelvin sign: "k" only to toLowerCase
  });
});
