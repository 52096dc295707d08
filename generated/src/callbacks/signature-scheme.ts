// Copied by im-openapi from templates/runtime/callbacks/signature-scheme.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The callback signature scheme, in one place so that it can be swapped.
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
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Scheme tag written before `=` in X-IM-Signature. */
export const SIGNATURE_VERSION = 'v1';
/** Length in bytes of one v1 signature (SHA-256). */
export const SIGNATURE_BYTES = 32;
/** Most comma-separated values accepted in one header (the service sends one or two). */
export const MAX_SIGNATURE_VALUES = 8;


/** HMAC-SHA256 of `timestamp.nonce.body` with `secret` (UTF-8). Returns the 32 raw bytes. */
export function computeSignature(
  secret: string,
  timestamp: string,
  nonce: string,
  body: Uint8Array,
): Buffer {
  // timestamp "." nonce "." as one update: both are ASCII (checked before), so latin1 = their bytes.
  return createHmac('sha256', secret).update(`${timestamp}.${nonce}.`, 'latin1').update(body).digest();
}

/** `v1=<hex>` for one signature. */
export function formatSignatureValue(signature: Uint8Array): string {
  return `${SIGNATURE_VERSION}=${Buffer.from(signature).toString('hex')}`;
}

/** The header value for one or more signatures (rotation: the new and the old secret). */
export function formatSignatureHeader(signatures: readonly Uint8Array[]): string {
  return signatures.map(formatSignatureValue).join(',');
}

export type ParsedSignatureHeader =
  | { ok: true; candidates: Buffer[] }
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
    if (hex.length > 0 && hex.length % 2 === 0 && HEX.test(hex)) return { ok: true, candidates: [Buffer.from(hex, 'hex')] };
  }
  const parts = value
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  if (parts.length === 0) return { ok: false, problem: 'the header is empty' };
  if (parts.length > MAX_SIGNATURE_VALUES) {
    return { ok: false, problem: `more than ${MAX_SIGNATURE_VALUES} comma-separated values` };
  }
  const candidates: Buffer[] = [];
  for (const part of parts) {
    const eq = part.indexOf('=');
    if (eq <= 0) return { ok: false, problem: 'a value is not of the form <scheme>=<hex>' };
    const tag = part.slice(0, eq).trim().toLowerCase();
    const hex = part.slice(eq + 1).trim();
    if (tag !== SIGNATURE_VERSION) continue;
    if (hex.length === 0 || hex.length % 2 !== 0 || !HEX.test(hex)) {
      return { ok: false, problem: `a ${SIGNATURE_VERSION} value is not hexadecimal` };
    }
    candidates.push(Buffer.from(hex, 'hex'));
  }
  if (candidates.length === 0) {
    return { ok: false, problem: `no ${SIGNATURE_VERSION}= value` };
  }
  return { ok: true, candidates };
}

/** Constant-time byte comparison; a length mismatch is `false`, never a throw. */
export function signaturesEqual(expected: Uint8Array, candidate: Uint8Array): boolean {
  if (expected.byteLength !== candidate.byteLength) return false;
  return timingSafeEqual(expected, candidate);
}

/**
 * Index of the first secret whose signature matches one of the candidates, or -1.
 * Every secret × candidate pair is compared (no early exit on a byte, none on a pair either).
 */
export function matchSignature(
  secrets: readonly string[],
  timestamp: string,
  nonce: string,
  body: Uint8Array,
  candidates: readonly Uint8Array[],
): number {
  let matched = -1;
  for (let i = 0; i < secrets.length; i++) {
    const expected = computeSignature(secrets[i]!, timestamp, nonce, body);
    for (const candidate of candidates) {
      if (signaturesEqual(expected, candidate) && matched === -1) matched = i;
    }
  }
  return matched;
}
