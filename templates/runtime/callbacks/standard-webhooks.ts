/**
 * The Standard Webhooks signature scheme (https://www.standardwebhooks.com/, symmetric `v1`), the
 * second ready scheme: `webhook-id`, `webhook-timestamp` (Unix seconds) and `webhook-signature`
 * (`v1,<base64>` entries, space-delimited: one per secret during a rotation) over
 * `<webhook-id>.<webhook-timestamp>.<raw body>`, HMAC-SHA256 keyed by the secret's bytes: the
 * base64 after `whsec_` (the spec's serialisation; the prefix is optional, as in its reference
 * libraries). The replay key is `webhook-id.webhook-timestamp`: the spec keeps the id across a
 * message's retries, each of which is a new attempt with its own timestamp. Platform-neutral: the
 * HMAC comes in (node:crypto in `signature-node.ts`, WebCrypto in `signature-web.ts`).
 */
import { refuse as fail, requiredHeader } from './errors.js';
import { isTimestamp } from './im-signature.js';
import { firstMatch, isThenable, randomHex, signaturesEqual } from './signature-scheme.js';
import type { CallbackSignatureScheme, SignatureCheck } from './signature-scheme.js';

export interface StandardWebhooksCrypto {
  /** HMAC-SHA256 of `prefix` (UTF-8) followed by `body`, keyed by `key` (the decoded secret; `secret` names it for a key cache). */
  hmac(key: { secret: string; bytes: Uint8Array }, prefix: string, body: Uint8Array): Uint8Array | Promise<Uint8Array>;
}

export const STANDARD_WEBHOOKS_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

/** Most space-separated entries read from webhook-signature. */
const MAX_ENTRIES = 8;

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < 64; i++) B64_VALUE[B64.charCodeAt(i)] = i;

/** Standard base64 (padding optional) → bytes, or undefined when it is not base64. */
export function fromBase64(text: string): Uint8Array | undefined {
  let end = text.length;
  while (end > 0 && text[end - 1] === '=') end--;
  if (text.length - end > 2 || end % 4 === 1) return undefined;
  const out = new Uint8Array(Math.floor((end * 3) / 4));
  let bits = 0;
  let acc = 0;
  let o = 0;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? B64_VALUE[c]! : -1;
    if (v < 0) return undefined;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

/** Bytes → standard base64 with padding. */
export function toBase64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out +=
      B64[(n >> 18) & 63]! +
      B64[(n >> 12) & 63]! +
      (i + 1 < bytes.length ? B64[(n >> 6) & 63]! : '=') +
      (i + 2 < bytes.length ? B64[n & 63]! : '=');
  }
  return out;
}

/** Decoded keys by secret (a few: one, two during a rotation; cleared past 16). */
const keys = new Map<string, Uint8Array | null>();

/** The HMAC key of a Standard Webhooks secret: the base64 after `whsec_`, decoded; undefined when it is not base64 or empty. */
export function standardWebhooksKey(secret: string): Uint8Array | undefined {
  let key = keys.get(secret);
  if (key === undefined) {
    const decoded = fromBase64(secret.startsWith('whsec_') ? secret.slice(6) : secret);
    key = decoded && decoded.length > 0 ? decoded : null;
    if (keys.size >= 16) keys.clear();
    keys.set(secret, key);
  }
  return key ?? undefined;
}

const MISSING_HINT =
  'A Standard Webhooks request carries webhook-id, webhook-timestamp and webhook-signature; a proxy may have dropped one, or the sender signs with another scheme (see the `signature` option).';

const required = (value: string | undefined, name: string): string => requiredHeader(value, name, MISSING_HINT);

/** 1 to 256 printable ASCII characters (the spec's ids look like msg_2KWPBgLlAfxdpx2AI54pPJ85f4W). */
function isMessageId(text: string): boolean {
  if (text.length < 1 || text.length > 256) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x21 || c > 0x7e) return false;
  }
  return true;
}

/** The v1 signatures of a webhook-signature header (other versions, such as v1a, are skipped). */
function candidatesOf(header: string): Uint8Array[] {
  const entries = header.split(' ').filter((e) => e.length > 0);
  if (entries.length > MAX_ENTRIES)
    fail(
      'malformed_signature',
      `webhook-signature holds more than ${MAX_ENTRIES} signatures`,
      'The header is one or more "v1,<base64>" entries separated by spaces.',
    );
  const out: Uint8Array[] = [];
  for (const entry of entries) {
    const comma = entry.indexOf(',');
    if (comma <= 0)
      fail(
        'malformed_signature',
        'webhook-signature is malformed: an entry is not of the form <version>,<signature>',
        'The header is one or more "v1,<base64>" entries separated by spaces.',
      );
    if (entry.slice(0, comma) !== 'v1') continue;
    const bytes = fromBase64(entry.slice(comma + 1));
    if (bytes) out.push(bytes);
  }
  return out;
}

/** The Standard Webhooks scheme over the given HMAC. */
export function createStandardWebhooksSignature(crypto: StandardWebhooksCrypto): CallbackSignatureScheme {
  const keyOf = (secret: string): { secret: string; bytes: Uint8Array } => {
    const bytes = standardWebhooksKey(secret);
    if (!bytes)
      fail(
        'no_secret_configured',
        'A secret is not a Standard Webhooks secret (base64 after whsec_)',
        'Pass the signing secret as shown by the sender: whsec_ followed by base64 (e.g. whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw).',
      );
    return { secret, bytes };
  };
  return {
    name: 'standard-webhooks',
    headers: STANDARD_WEBHOOKS_HEADERS,
    checkSecret: (secret) =>
      standardWebhooksKey(secret)
        ? undefined
        : 'a Standard Webhooks secret is whsec_ followed by base64 (this one does not decode)',
    sign({ body, secrets, timestamp, id }) {
      const messageId = id ?? `msg_${randomHex(16)}`;
      const prefix = `${messageId}.${timestamp}.`;
      const signatures = secrets.map((secret) => crypto.hmac(keyOf(secret), prefix, body));
      const headers = (list: readonly Uint8Array[]): Record<string, string> => ({
        'webhook-id': messageId,
        'webhook-timestamp': timestamp,
        'webhook-signature': list.map((s) => `v1,${toBase64(s)}`).join(' '),
      });
      return signatures.some(isThenable) ? Promise.all(signatures).then(headers) : headers(signatures as Uint8Array[]);
    },
    verify({ body, secrets, header }) {
      const id = required(header('webhook-id'), 'webhook-id');
      const timestamp = required(header('webhook-timestamp'), 'webhook-timestamp');
      const signature = required(header('webhook-signature'), 'webhook-signature');
      if (!isMessageId(id))
        fail(
          'malformed_nonce',
          'webhook-id is not 1 to 256 printable ASCII characters',
          'The sender gives every message a unique id (e.g. msg_2KWPBgLlAfxdpx2AI54pPJ85f4W); the request was altered or did not come from it.',
        );
      if (!isTimestamp(timestamp))
        fail(
          'malformed_timestamp',
          'webhook-timestamp is not a decimal Unix time in seconds',
          'The header carries whole seconds since the epoch (e.g. 1767225600), not milliseconds or a date.',
        );
      const candidates = candidatesOf(signature);
      const prefix = `${id}.${timestamp}.`;
      const expected = secrets.map((secret) => crypto.hmac(keyOf(secret), prefix, body));
      const check = (list: readonly Uint8Array[]): SignatureCheck => ({
        secretIndex: firstMatch(list, candidates, signaturesEqual),
        timestamp: Number(timestamp),
        replayKey: `${id}.${timestamp}`,
      });
      return expected.some(isThenable) ? Promise.all(expected).then(check) : check(expected as Uint8Array[]);
    },
  };
}
