// Copied by im-openapi from templates/runtime/callbacks/im-signature.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The default signature scheme, `im-v1`: what the kit ASSUMES the service does (seed 001 §5 shows
 * only the header form; see `signature-scheme.ts` and `x-signature` in the callbacks spec).
 * X-IM-Signature `v1=<hex>` (two, comma-separated, during a rotation) over X-IM-Timestamp "."
 * X-IM-Nonce "." raw body, HMAC-SHA256 keyed by the secret's UTF-8 bytes. Platform-neutral: the
 * HMAC comes in (node:crypto in `signature-node.ts`, WebCrypto in `signature-web.ts`).
 */
import { refuse as fail, requiredHeader } from './errors.js';
import { formatSignatureHeader, isThenable, parseSignatureHeader, randomHex } from './signature-scheme.js';
import type { CallbackSignatureScheme, SignatureCheck, SignatureMatcher } from './signature-scheme.js';

export interface ImSignatureCrypto {
  /** Index of the first secret whose signature is among the candidates, or -1. */
  match: SignatureMatcher;
  /** The 32 HMAC bytes of `timestamp.nonce.body` with `secret`. */
  compute(secret: string, timestamp: string, nonce: string, body: Uint8Array): Uint8Array | Promise<Uint8Array>;
}

/** The three headers of the scheme, as the service writes them (seed 001 §2.3). */
export const IM_SIGNATURE_HEADERS = ['X-IM-Signature', 'X-IM-Timestamp', 'X-IM-Nonce'] as const;

/** 1 to 15 decimal digits (whole seconds; 15 digits stay exact in a double). A loop: a regex test cost more. */
export function isTimestamp(text: string): boolean {
  if (text.length < 1 || text.length > 15) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

/** Exactly 32 hexadecimal digits, either case. */
function isNonce(text: string): boolean {
  if (text.length !== 32) return false;
  for (let i = 0; i < 32; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) continue;
    const lower = c | 0x20; // A-F → a-f (only they and a-f land there)
    if (lower < 0x61 || lower > 0x66) return false;
  }
  return true;
}

const MISSING_HINT =
  'Every callback carries X-IM-Signature, X-IM-Timestamp and X-IM-Nonce; a proxy may have dropped it, or the request did not come from the service (or the service signs with another scheme: see the `signature` option).';

const required = (value: string | undefined, name: string): string => requiredHeader(value, name, MISSING_HINT);

/** The `im-v1` scheme over the given HMAC. */
export function createImSignatureV1(crypto: ImSignatureCrypto): CallbackSignatureScheme {
  return {
    name: 'im-v1',
    headers: IM_SIGNATURE_HEADERS,
    sign({ body, secrets, timestamp, id }) {
      const nonce = id ?? randomHex(16);
      const signatures = secrets.map((secret) => crypto.compute(secret, timestamp, nonce, body));
      const headers = (list: readonly Uint8Array[]): Record<string, string> => ({
        'X-IM-Timestamp': timestamp,
        'X-IM-Nonce': nonce,
        'X-IM-Signature': formatSignatureHeader(list),
      });
      return signatures.some(isThenable) ? Promise.all(signatures).then(headers) : headers(signatures as Uint8Array[]);
    },
    verify({ body, secrets, header }) {
      const signature = required(header('x-im-signature'), 'X-IM-Signature');
      const timestamp = required(header('x-im-timestamp'), 'X-IM-Timestamp');
      const nonce = required(header('x-im-nonce'), 'X-IM-Nonce');
      const parsed = parseSignatureHeader(signature);
      if (!parsed.ok) {
        fail(
          'malformed_signature',
          `X-IM-Signature is malformed: ${parsed.problem}`,
          'The header is "v1=" and 64 hexadecimal characters, two such values separated by a comma during a secret rotation.',
        );
      }
      if (!isTimestamp(timestamp)) {
        fail(
          'malformed_timestamp',
          'X-IM-Timestamp is not a decimal Unix time in seconds',
          'The header carries whole seconds since the epoch (e.g. 1767225600), not milliseconds or a date.',
        );
      }
      if (!isNonce(nonce)) {
        fail(
          'malformed_nonce',
          'X-IM-Nonce is not 32 hexadecimal characters',
          'The service sends a fresh 32-hex-character nonce on every send; the request did not come from it or was altered.',
        );
      }
      const matched = crypto.match(secrets, timestamp, nonce, body, parsed.candidates);
      const check = (secretIndex: number): SignatureCheck => ({
        secretIndex,
        timestamp: Number(timestamp),
        replayKey: nonce,
      });
      // node:crypto answers synchronously: no promise (a microtask turn) for a plain number
      return typeof matched === 'number' ? check(matched) : matched.then(check);
    },
  };
}
