// Copied by im-openapi from templates/runtime/callbacks/signature-node.ts. Do not edit here: edit the template and run `npm run generate`.
/** The v1 HMAC (see `signature-scheme.ts`) with node:crypto: synchronous and the fastest on Node. */
import { createHmac } from 'node:crypto';
import { firstMatch } from './signature-scheme.js';
import type { SignatureMatcher } from './signature-scheme.js';

/** HMAC-SHA256 of `timestamp.nonce.body` with `secret` (UTF-8). Returns the 32 raw bytes. */
export function computeSignature(secret: string, timestamp: string, nonce: string, body: Uint8Array): Buffer {
  // timestamp "." nonce "." as one update: both are ASCII (checked before), so latin1 = their bytes.
  return createHmac('sha256', secret).update(`${timestamp}.${nonce}.`, 'latin1').update(body).digest();
}

/** Synchronous `SignatureMatcher` over node:crypto. */
export const matchSignature = ((secrets, timestamp, nonce, body, candidates) =>
  firstMatch(secrets.map((s) => computeSignature(s, timestamp, nonce, body)), candidates)) satisfies SignatureMatcher;
