// Copied by im-openapi from templates/runtime/callbacks/signature-scheme.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The callback signature scheme is a replaceable part (issue 29): `CallbackSignatureScheme` is
 * what the verifier, every handler and framework adapter, the signing helpers, the CLI and the
 * simulator use, through their `signature` option. Two ship: `imSignatureV1` (the default) and
 * `standardWebhooksSignature` (`standard-webhooks.ts`); each for node:crypto
 * (`signature-node.ts`, synchronous) and WebCrypto (`signature-web.ts`, async). This file holds
 * the interface and, platform-neutral (no Node built-in, no `Buffer`), the wire format of the
 * default scheme's X-IM-Signature header.
 *
 * ASSUMED (x-assumed): seed 001 section 5 says "The signature algorithm (what is signed and how
 * the value is computed): not shown". It fixes only the header form: `X-IM-Signature: v1=` and
 * 64 hexadecimal characters; during a secret rotation two comma-separated values.
 * The project chose, as the default scheme `imSignatureV1`:
 *
 *   v1 = lowercase hex( HMAC-SHA256( key     = secret as UTF-8,
 *                                    message = X-IM-Timestamp + "." + X-IM-Nonce + "." + raw body bytes ) )
 *
 * X-IM-Timestamp is signed exactly as the decimal string that travels in the header.
 */

/** What a scheme's `sign` gets. */
export interface SignatureSignInput {
  /** The body bytes exactly as they will be sent. */
  body: Uint8Array;
  /** One signature per secret, in this order (during a rotation: the new one, then the old). */
  secrets: readonly string[];
  /** Unix seconds as the decimal text that travels in the timestamp header. */
  timestamp: string;
  /** The request's one-time id (X-IM-Nonce, webhook-id …); undefined = the scheme makes a fresh one. */
  id: string | undefined;
}

/** What a scheme's `verify` gets: the raw body, the receiver's secrets and the request's headers. */
export interface SignatureVerifyInput {
  /** The body bytes exactly as received. */
  body: Uint8Array;
  /** The receiver's secrets (two during a rotation); at least one, none empty. */
  secrets: readonly string[];
  /** A request header by name, any case (a repeated header's values joined by ", "), or undefined. */
  header(name: string): string | undefined;
}

/** What a scheme's `verify` found. */
export interface SignatureCheck {
  /** Index in `secrets` of the secret whose signature the request carries; -1 when none matches. */
  secretIndex: number;
  /** The signed send time, Unix seconds (the verifier checks it against `toleranceSeconds`). */
  timestamp: number;
  /** What makes this request unique, for the nonce store's replay check (X-IM-Nonce; webhook-id.timestamp). */
  replayKey: string;
}

/**
 * A callback signature scheme: how a request's signature headers are made from the raw body and
 * the secrets, and checked. `verify` throws a `CallbackVerificationError` (`missing_header`,
 * `malformed_signature`, `malformed_timestamp`, `malformed_nonce`) for headers it cannot read and
 * answers `secretIndex: -1` when no signature matches; the verifier then checks the timestamp,
 * parses the body and claims the replay key. Either method may answer synchronously (node:crypto)
 * or with a promise (WebCrypto, a key service); `verifyCallbackSync` and `signCallbackRequest`
 * need the synchronous form.
 */
export interface CallbackSignatureScheme {
  /** How errors, logs and the CLI name it, e.g. `im-v1` or `standard-webhooks`. */
  readonly name: string;
  /** The headers that carry the signature, as the scheme writes them (for hints and docs). */
  readonly headers: readonly string[];
  /** The signature headers of a request (name → value), for one or more secrets. */
  sign(input: SignatureSignInput): Record<string, string> | Promise<Record<string, string>>;
  /** Reads and checks the signature headers against the raw body. */
  verify(input: SignatureVerifyInput): SignatureCheck | Promise<SignatureCheck>;
  /** Why `secret` cannot work with this scheme (a Standard Webhooks secret that is not base64), checked when a handler is made; undefined when it can. */
  checkSecret?(secret: string): string | undefined;
}

/** `bytes` random bytes as lowercase hex, from the runtime's WebCrypto (Node 20+, edge runtimes). */
export function randomHex(bytes: number): string {
  const out = new Uint8Array(bytes);
  (globalThis as unknown as { crypto: { getRandomValues(a: Uint8Array): Uint8Array } }).crypto.getRandomValues(out);
  return toHex(out);
}

/** True for a promise (or any thenable): a scheme answered asynchronously. */
export function isThenable<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

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

/** Value of each hex digit by char code, -1 for any other character (one lookup per digit). */
const HEX_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) {
  HEX_VALUE[HEX_DIGITS.charCodeAt(i)] = i;
  HEX_VALUE[HEX_DIGITS.toUpperCase().charCodeAt(i)] = i;
}

/**
 * Bytes of hex digits `hex[start..end)`, or undefined if one is not a hex digit or their count
 * is odd or zero. Checks and decodes in one pass (a parseInt per byte cost ~1 µs per signature).
 */
function fromHex(hex: string, start: number, end: number): Uint8Array | undefined {
  const length = end - start;
  if (length <= 0 || (length & 1) !== 0) return undefined;
  const out = new Uint8Array(length >> 1);
  let bad = 0;
  for (let i = 0, j = start; i < out.length; i++, j += 2) {
    const a = hex.charCodeAt(j);
    const b = hex.charCodeAt(j + 1);
    const hi = a < 128 ? HEX_VALUE[a]! : -1;
    const lo = b < 128 ? HEX_VALUE[b]! : -1;
    bad |= hi | lo; // -1 sets the sign bit
    out[i] = (hi << 4) | lo;
  }
  return bad < 0 ? undefined : out;
}

/** `v1=<hex>` for one signature. */
export function formatSignatureValue(signature: Uint8Array): string {
  return `${SIGNATURE_VERSION}=${toHex(signature)}`;
}

/** The header value for one or more signatures (rotation: the new and the old secret). */
export function formatSignatureHeader(signatures: readonly Uint8Array[]): string {
  return signatures.map(formatSignatureValue).join(',');
}

export type ParsedSignatureHeader = { ok: true; candidates: Uint8Array[] } | { ok: false; problem: string };

/** `v1=` as it starts the header in the common case. */
const V1_PREFIX = `${SIGNATURE_VERSION}=`;

/**
 * Splits the header into the v1 candidates, hex-decoded. Values of other (future) scheme tags
 * are skipped; at least one v1 value must be present. A v1 value that is not even-length hex
 * makes the header malformed; a value of the wrong length decodes and simply never matches.
 */
export function parseSignatureHeader(value: string): ParsedSignatureHeader {
  // The common case, one value "v1=<hex>": decoded in place, no split, no regex.
  if (value.startsWith(V1_PREFIX) && !value.includes(',')) {
    const one = fromHex(value, V1_PREFIX.length, value.length);
    if (one) return { ok: true, candidates: [one] };
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
    if (tag !== SIGNATURE_VERSION) continue;
    const hex = part.slice(eq + 1).trim();
    const bytes = fromHex(hex, 0, hex.length);
    if (!bytes) return { ok: false, problem: `a ${SIGNATURE_VERSION} value is not hexadecimal` };
    candidates.push(bytes);
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
 * Constant-time comparison of a signature held as a binary string (one char per byte, as
 * node:crypto's `digest('binary')` returns it, without allocating a Buffer) with candidate bytes.
 */
export function binarySignatureEquals(expected: string, candidate: Uint8Array): boolean {
  if (expected.length !== candidate.byteLength) return false;
  let diff = 0;
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ candidate[i]!;
  return diff === 0;
}

/**
 * Index of the first secret whose expected signature matches one of the candidates, or -1.
 * Every secret × candidate pair is compared (no early exit on a byte, none on a pair either).
 * `equal` compares one expected signature (bytes, or a binary string) with one candidate.
 */
export function firstMatch<E>(
  expectedPerSecret: readonly E[],
  candidates: readonly Uint8Array[],
  equal: (expected: E, candidate: Uint8Array) => boolean,
): number {
  let matched = -1;
  for (let i = 0; i < expectedPerSecret.length; i++) {
    for (let c = 0; c < candidates.length; c++) {
      if (equal(expectedPerSecret[i]!, candidates[c]!) && matched === -1) matched = i;
    }
  }
  return matched;
}
