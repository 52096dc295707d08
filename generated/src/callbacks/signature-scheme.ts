// Copied by im-openapi from templates/runtime/callbacks/signature-scheme.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The callback signature scheme, in one place so that it can be swapped. Platform-neutral: no
 * Node built-in, no `Buffer` (the edge entry uses it); the HMAC itself is computed by
 * `signature-node.ts` (node:crypto, synchronous) or `signature-web.ts` (WebCrypto, async).
 *
 * ASSUMED (x-assumed): seed 001 section 5 says "The signature algorithm (what is signed and how
 * the value is computed): not shown". It fixes only the header form: `X-IM-Signature: v1=` and
 * 64 hexadecimal characters; during a secret rotation two comma-separated values.
 * The project chose:
 *
 *   v1 = lowercase hex( HMAC-SHA256( key     = secret as UTF-8,
 *                                    message = X-IM-Timestamp + "." + X-IM-Nonce + "." + raw body bytes ) )
 *
 * X-IM-Timestamp is signed exactly as the decimal string that travels in the header.
 */

/** Scheme tag written before `=` in X-IM-Signature. */
export const SIGNATURE_VERSION = 'v1';
/** Length in bytes of one v1 signature (SHA-256). */
export const SIGNATURE_BYTES = 32;
/** Most comma-separated values accepted in one header (the service sends one or two). */
export const MAX_SIGNATURE_VALUES = 8;

/**
 * Index of the first secret whose signature matches one of the candidates, or -1: synchronous
 * with node:crypto, a promise with WebCrypto (whose HMAC is async only).
 */
export type SignatureMatcher = (
  secrets: readonly string[],
  timestamp: string,
  nonce: string,
  body: Uint8Array,
  candidates: readonly Uint8Array[],
) => number | Promise<number>;

/** The bytes signed before the body: `timestamp.nonce.` (both ASCII, checked before). */
export function signedPrefix(timestamp: string, nonce: string): Uint8Array {
  const text = `${timestamp}.${nonce}.`;
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) & 0xff;
  return out;
}

const HEX_DIGITS = '0123456789abcdef';

/** Lowercase hex of `bytes`. */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += HEX_DIGITS[bytes[i]! >> 4]! + HEX_DIGITS[bytes[i]! & 15]!;
  return out;
}

/** Bytes of an even-length hex string already checked against HEX. */
function fromHex(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** `v1=<hex>` for one signature. */
export function formatSignatureValue(signature: Uint8Array): string {
  return `${SIGNATURE_VERSION}=${toHex(signature)}`;
}

/** The header value for one or more signatures (rotation: the new and the old secret). */
export function formatSignatureHeader(signatures: readonly Uint8Array[]): string {
  return signatures.map(formatSignatureValue).join(',');
}

export type ParsedSignatureHeader =
  | { ok: true; candidates: Uint8Array[] }
  | { ok: false; problem: string };

const HEX = /^[0-9a-fA-F]*$/;

/**
 * Splits the header into the v1 candidates, hex-decoded. Values of other (future) scheme tags
 * are skipped; at least one v1 value must be present. A v1 value that is not even-length hex
 * makes the header malformed; a value of the wrong length decodes and simply never matches.
 */
export function parseSignatureHeader(value: string): ParsedSignatureHeader {
  // The common case, one value: no split into arrays.
  if (!value.includes(',') && value.startsWith(`${SIGNATURE_VERSION}=`)) {
    const hex = value.slice(SIGNATURE_VERSION.length + 1).trim();
    if (hex.length > 0 && hex.length % 2 === 0 && HEX.test(hex)) return { ok: true, candidates: [fromHex(hex)] };
  }
  const parts = value
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  if (parts.length === 0) return { ok: false, problem: 'the header is empty' };
  if (parts.length > MAX_SIGNATURE_VALUES) {
    return { ok: false, problem: `more than ${MAX_SIGNATURE_VALUES} comma-separated values` };
  }
  const candidates: Uint8Array[] = [];
  for (const part of parts) {
    const eq = part.indexOf('=');
    if (eq <= 0) return { ok: false, problem: 'a value is not of the form <scheme>=<hex>' };
    const tag = part.slice(0, eq).trim().toLowerCase();
    const hex = part.slice(eq + 1).trim();
    if (tag !== SIGNATURE_VERSION) continue;
    if (hex.length === 0 || hex.length % 2 !== 0 || !HEX.test(hex)) {
      return { ok: false, problem: `a ${SIGNATURE_VERSION} value is not hexadecimal` };
    }
    candidates.push(fromHex(hex));
  }
  if (candidates.length === 0) {
    return { ok: false, problem: `no ${SIGNATURE_VERSION}= value` };
  }
  return { ok: true, candidates };
}

/**
 * Constant-time byte comparison, by hand so that it runs where node:crypto's timingSafeEqual
 * does not: every byte is visited, no early exit. A length mismatch is `false`, never a throw
 * (the length of a signature is public).
 */
export function signaturesEqual(expected: Uint8Array, candidate: Uint8Array): boolean {
  if (expected.byteLength !== candidate.byteLength) return false;
  let diff = 0;
  for (let i = 0; i < expected.byteLength; i++) diff |= expected[i]! ^ candidate[i]!;
  return diff === 0;
}

/**
 * Index of the first secret whose expected signature matches one of the candidates, or -1.
 * Every secret × candidate pair is compared (no early exit on a byte, none on a pair either).
 */
export function firstMatch(expectedPerSecret: readonly Uint8Array[], candidates: readonly Uint8Array[]): number {
  let matched = -1;
  for (let i = 0; i < expectedPerSecret.length; i++) {
    for (const candidate of candidates) {
      if (signaturesEqual(expectedPerSecret[i]!, candidate) && matched === -1) matched = i;
    }
  }
  return matched;
}
