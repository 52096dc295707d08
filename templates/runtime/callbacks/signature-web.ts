/**
 * The two ready signature schemes (see `signature-scheme.ts`) with WebCrypto (`crypto.subtle`): for runtimes without
 * node:crypto (Cloudflare Workers, Vercel Edge, Deno, Bun, browsers). WebCrypto signs only
 * asynchronously, so everything built on it returns a promise; a synchronous verify exists only
 * on Node (`verifyCallbackSync`, node:crypto).
 */
import { createImSignatureV1 } from './im-signature.js';
import { firstMatch, signaturesEqual, signedPrefix } from './signature-scheme.js';
import type { CallbackSignatureScheme, SignatureMatcher } from './signature-scheme.js';
import { createStandardWebhooksSignature } from './standard-webhooks.js';

const UTF8 = new TextEncoder();

/** The runtime's WebCrypto, or a clear error naming what is missing. */
function subtle(): SubtleCrypto {
  const s = (globalThis as { crypto?: { subtle?: SubtleCrypto } }).crypto?.subtle;
  if (!s)
    throw new Error(
      'WebCrypto (globalThis.crypto.subtle) is not available in this runtime; use the node entry im-server-sdk/callbacks',
    );
  return s;
}

/**
 * Imported keys by secret: importKey costs about as much as the HMAC itself. At most a few
 * entries (one secret, two during a rotation); cleared past 16 so a caller cycling through
 * secrets cannot grow it.
 */
const keys = new Map<string, Promise<CryptoKey>>();

function hmacKey(
  secret: string,
  bytes: () => Uint8Array = () => UTF8.encode(secret),
  cache = keys,
): Promise<CryptoKey> {
  let key = cache.get(secret);
  if (!key) {
    if (cache.size >= 16) cache.clear();
    key = subtle().importKey('raw', bytes() as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
    ]);
    cache.set(secret, key);
    key.catch(() => cache.delete(secret));
  }
  return key;
}

/** Imported Standard Webhooks keys by secret (their bytes are the decoded base64, not the UTF-8 text). */
const standardKeys = new Map<string, Promise<CryptoKey>>();

/** HMAC-SHA256 of `timestamp.nonce.body` with `secret` (UTF-8), with WebCrypto. */
export async function computeSignatureWeb(
  secret: string,
  timestamp: string,
  nonce: string,
  body: Uint8Array,
): Promise<Uint8Array> {
  const prefix = signedPrefix(timestamp, nonce);
  const message = new Uint8Array(prefix.byteLength + body.byteLength);
  message.set(prefix, 0);
  message.set(body, prefix.byteLength);
  return new Uint8Array(await subtle().sign('HMAC', await hmacKey(secret), message));
}

/** Async `SignatureMatcher` over WebCrypto. */
export const matchSignatureWeb = (async (secrets, timestamp, nonce, body, candidates) =>
  firstMatch(
    await Promise.all(secrets.map((s) => computeSignatureWeb(s, timestamp, nonce, body))),
    candidates,
    signaturesEqual,
  )) satisfies SignatureMatcher;

/** `imSignatureV1` (the default, ASSUMED scheme) with WebCrypto. */
export const imSignatureV1Web: CallbackSignatureScheme = createImSignatureV1({
  match: matchSignatureWeb,
  compute: computeSignatureWeb,
});

/** `standardWebhooksSignature` with WebCrypto. */
export const standardWebhooksSignatureWeb: CallbackSignatureScheme = createStandardWebhooksSignature({
  hmac: async (key, prefix, body) => {
    const head = UTF8.encode(prefix);
    const message = new Uint8Array(head.byteLength + body.byteLength);
    message.set(head, 0);
    message.set(body, head.byteLength);
    return new Uint8Array(
      await subtle().sign('HMAC', await hmacKey(key.secret, () => key.bytes, standardKeys), message),
    );
  },
});
