import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeSignature, matchSignature } from './signature-node.js';
import { binarySignatureEquals, formatSignatureHeader, parseSignatureHeader } from './signature-scheme.js';

/** The header parsing as first written (split, trim, regex, parseInt per byte), for comparison. */
function reference(value: string): ReturnType<typeof parseSignatureHeader> {
  const parts = value
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  if (parts.length === 0) return { ok: false, problem: 'the header is empty' };
  if (parts.length > 8) return { ok: false, problem: 'more than 8 comma-separated values' };
  const candidates: Uint8Array[] = [];
  for (const part of parts) {
    const eq = part.indexOf('=');
    if (eq <= 0) return { ok: false, problem: 'a value is not of the form <scheme>=<hex>' };
    const tag = part.slice(0, eq).trim().toLowerCase();
    const hex = part.slice(eq + 1).trim();
    if (tag !== 'v1') continue;
    if (hex.length === 0 || hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex))
      return { ok: false, problem: 'a v1 value is not hexadecimal' };
    const bytes = new Uint8Array(hex.length / 2);
    for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
    candidates.push(bytes);
  }
  if (candidates.length === 0) return { ok: false, problem: 'no v1= value' };
  return { ok: true, candidates };
}

const hexish = fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEFgG \u00e9\u0660\uff10'), maxLength: 70 });
const headerValue = fc.oneof(
  hexish.map((h) => `v1=${h}`),
  fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => `v1=${Buffer.from(b).toString('hex')}`),
  fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => `V1=${Buffer.from(b).toString('hex').toUpperCase()}`),
  fc
    .array(
      fc.oneof(
        hexish.map((h) => `v1=${h}`),
        hexish.map((h) => `v2=${h}`),
        hexish,
      ),
      { maxLength: 10 },
    )
    .map((xs) => xs.join(',')),
  fc.string({ maxLength: 20 }),
);

describe('parseSignatureHeader', () => {
  it('property: agrees with the first implementation on every header (decoded bytes, problems)', () => {
    fc.assert(
      fc.property(headerValue, (value) => {
        expect(parseSignatureHeader(value)).toEqual(reference(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('decodes upper and lower case alike; refuses non-ASCII digits (Arabic-Indic, full-width)', () => {
    const bytes = Uint8Array.from({ length: 32 }, (_, i) => i * 8);
    const hex = Buffer.from(bytes).toString('hex');
    expect(parseSignatureHeader(`v1=${hex}`)).toEqual({ ok: true, candidates: [bytes] });
    expect(parseSignatureHeader(`v1=${hex.toUpperCase()}`)).toEqual({ ok: true, candidates: [bytes] });
    expect(parseSignatureHeader(`v1=${'\u0660'.repeat(64)}`)).toMatchObject({ ok: false });
    expect(parseSignatureHeader(`v1=${'\uff10'.repeat(64)}`)).toMatchObject({ ok: false });
  });
});

describe('node:crypto signature', () => {
  it('binarySignatureEquals: equal bytes only, a length mismatch is false', () => {
    const a = Uint8Array.from({ length: 32 }, (_, i) => 255 - i);
    const text = String.fromCharCode(...a);
    expect(binarySignatureEquals(text, a)).toBe(true);
    for (const i of [0, 17, 31]) {
      const b = a.slice();
      b[i] = b[i]! ^ 1;
      expect(binarySignatureEquals(text, b)).toBe(false);
    }
    expect(binarySignatureEquals(text, a.subarray(0, 31))).toBe(false);
    expect(binarySignatureEquals(text.slice(1), a)).toBe(false);
  });

  it('the per-secret key cache gives the plain HMAC for every secret, past its 16 entries and for UTF-8 secrets', () => {
    const body = Buffer.from('{"kind":"event"}');
    const secrets = Array.from({ length: 40 }, (_, i) => `whsec_${i}_${'é'.repeat(i % 3)}`);
    for (let round = 0; round < 2; round++) {
      for (const secret of secrets) {
        const plain = createHmac('sha256', secret)
          .update('1767225600.0123456789abcdef0123456789abcdef.')
          .update(body)
          .digest();
        expect(computeSignature(secret, '1767225600', '0123456789abcdef0123456789abcdef', body)).toEqual(plain);
        const header = parseSignatureHeader(formatSignatureHeader([plain]));
        if (!header.ok) throw new Error('unreachable');
        expect(
          matchSignature(['wrong', secret], '1767225600', '0123456789abcdef0123456789abcdef', body, header.candidates),
        ).toBe(1);
        expect(
          matchSignature(['wrong'], '1767225600', '0123456789abcdef0123456789abcdef', body, header.candidates),
        ).toBe(-1);
      }
    }
  });
});
