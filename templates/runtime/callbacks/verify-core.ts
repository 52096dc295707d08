/**
 * Callback verification, platform-neutral (no Node built-in, no `Buffer`): the signature check is
 * the `CallbackSignatureScheme` given as `signature` (default: the entry's `imSignatureV1`, bound
 * to node:crypto in `verify.ts`, to WebCrypto in `edge.ts`); this module adds what every scheme
 * shares: the raw-body rule, the timestamp tolerance, the body parse (never before the signature
 * holds), the address check and the replay check.
 */
import { refuse as fail } from './errors.js';
import { headerReader, readCallbackHeaders } from './headers.js';
import type { CallbackHeaders } from './headers.js';
import { isThenable } from './signature-scheme.js';
import type { CallbackSignatureScheme, SignatureCheck } from './signature-scheme.js';
import type { NonceStore } from '../stores/dedupe-store.js';
import type { CallbackRequest, CallbackRequestBase, HeadersLike, RawBody } from './types.js';
import { readVerifiedBody, type VerifiedCallback } from './verified-body.js';

export type { HeaderDisagreement, VerifiedCallback } from './verified-body.js';

export const DEFAULT_TOLERANCE_SECONDS = 300;

export interface VerifyCallbackOptions {
  /** Request headers: Web `Headers`, Node `IncomingHttpHeaders` or a plain record, any case. */
  headers: HeadersLike;
  /** The body bytes exactly as received. Never a parsed or re-serialised body. */
  rawBody: RawBody;
  /** The address's signing secret, or several during a rotation (any one may match). */
  secrets: string | readonly string[];
  /**
   * How requests are signed. Default `imSignatureV1`: HMAC-SHA256 over `timestamp.nonce.body` in
   * X-IM-Signature, ASSUMED (seed 001 §5 does not show the algorithm); `standardWebhooksSignature`
   * ships too, or pass your own `{ name, headers, sign, verify }`.
   */
  signature?: CallbackSignatureScheme;
  /** Largest allowed distance between X-IM-Timestamp and `now`, both directions. Default 300. */
  toleranceSeconds?: number;
  /** The receiver's clock in milliseconds since the epoch (default `Date.now()`). */
  now?: number | Date | (() => number);
  /** Optional replay protection: refuses a request whose nonce (the scheme's replay key) was claimed within the tolerance window. */
  nonceStore?: NonceStore;
  /**
   * The address id(s) this receiver serves (`X-IM-Endpoint-Id`, body `endpoint_id`, the body
   * authoritative): a signed request for another address, or naming none, is refused
   * (`endpoint_mismatch`, 403). Default: any address.
   */
  endpointId?: string | readonly string[];
}

/** Framework-neutral: the README has a recipe per framework (Express, Fastify, Koa, Hono, Next.js, NestJS). */
export const RAW_HINT =
  'Pass the request body bytes exactly as received (Buffer/Uint8Array), before any JSON parsing: ' +
  "a JSON body parser in front of the callback route (express.json(), Fastify's or Koa's JSON parser, NestJS without rawBody: true) " +
  'has already replaced them; with fetch-style requests (Hono, Next.js route handlers, Workers) use new Uint8Array(await request.arrayBuffer()). ' +
  'See "Callbacks" in the README for the recipe of each framework.';

/** Turns the accepted rawBody forms into bytes; refuses anything that is not raw. */
export function toRawBytes(rawBody: unknown): { bytes: Uint8Array; wasString: boolean } {
  if (typeof rawBody === 'string') {
    return { bytes: new TextEncoder().encode(rawBody), wasString: true };
  }
  if (rawBody instanceof Uint8Array) return { bytes: rawBody, wasString: false };
  if (rawBody instanceof ArrayBuffer) return { bytes: new Uint8Array(rawBody), wasString: false };
  if (ArrayBuffer.isView(rawBody)) {
    return {
      bytes: new Uint8Array(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength),
      wasString: false,
    };
  }
  if (rawBody === undefined || rawBody === null) {
    fail('body_not_raw', 'rawBody is missing', RAW_HINT);
  }
  fail(
    'body_not_raw',
    `rawBody is ${Array.isArray(rawBody) ? 'an array' : `of type ${typeof rawBody}`}, not bytes`,
    `Did you pass a parsed/re-serialised body? The signature covers the raw bytes, so a parsed object cannot be verified. ${RAW_HINT}`,
  );
}

export function normaliseSecrets(secrets: string | readonly string[] | undefined): string[] {
  if (typeof secrets === 'string' && secrets.length > 0) return [secrets]; // the common case, no copy + filter
  const list = typeof secrets === 'string' ? [secrets] : Array.isArray(secrets) ? [...secrets] : [];
  const usable = list.filter((s): s is string => typeof s === 'string' && s.length > 0);
  if (usable.length === 0) {
    fail(
      'no_secret_configured',
      'No signing secret is configured',
      'Pass the address signing secret shown once at creation (or both secrets during a rotation) as `secrets`; an empty secret is never accepted.',
    );
  }
  return usable;
}

function nowMs(now: VerifyCallbackOptions['now']): number {
  if (now === undefined) return Date.now();
  if (typeof now === 'function') return now();
  if (now instanceof Date) return now.getTime();
  return now;
}

/** What every scheme's check needs, read once: headers, raw bytes, secrets, tolerance. */
interface Prepared {
  headers: CallbackHeaders;
  header: (name: string) => string | undefined;
  bytes: Uint8Array;
  wasString: boolean;
  secrets: string[];
  tolerance: number;
  scheme: CallbackSignatureScheme;
}

function prepare(options: VerifyCallbackOptions, defaultScheme: CallbackSignatureScheme): Prepared {
  const headers = readCallbackHeaders(options.headers);
  const { bytes, wasString } = toRawBytes(options.rawBody); // a Buffer/Uint8Array (what servers hand over) as is, not copied
  const secrets = normaliseSecrets(options.secrets);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (!(tolerance >= 0)) throw new TypeError('toleranceSeconds must be a number >= 0');
  const scheme = options.signature ?? defaultScheme;
  if (options.signature !== undefined) checkScheme(options.signature);
  return { headers, header: headerReader(options.headers, headers), bytes, wasString, secrets, tolerance, scheme };
}

/** A `signature` option that is not a scheme is refused, naming what it lacks. */
export function checkScheme(scheme: unknown): asserts scheme is CallbackSignatureScheme {
  const s = scheme as Partial<CallbackSignatureScheme> | null;
  if (
    s === null ||
    typeof s !== 'object' ||
    typeof s.sign !== 'function' ||
    typeof s.verify !== 'function' ||
    typeof s.name !== 'string'
  ) {
    throw new TypeError(
      'signature must be a signature scheme { name, headers, sign(input), verify(input) }: imSignatureV1 (the default), standardWebhooksSignature, or your own',
    );
  }
}

/** The scheme's answer, checked (a custom scheme's too): the matched secret, then the timestamp tolerance. */
function checkSignatureAndTime(
  pre: Prepared,
  check: SignatureCheck,
  now: VerifyCallbackOptions['now'],
): { timestamp: number; skewSeconds: number } {
  const { secretIndex, timestamp, replayKey } = check ?? ({} as SignatureCheck);
  if (
    !(Number.isInteger(secretIndex) && secretIndex >= -1 && secretIndex < pre.secrets.length) ||
    !Number.isFinite(timestamp) ||
    typeof replayKey !== 'string' ||
    replayKey === ''
  ) {
    throw new TypeError(
      `signature scheme ${pre.scheme.name} answered verify() with no { secretIndex (-1 to ${pre.secrets.length - 1}), timestamp (Unix seconds), replayKey (non-empty) }`,
    );
  }
  if (secretIndex < 0) {
    fail(
      'signature_mismatch',
      `No signature matches the configured secret(s) (scheme ${pre.scheme.name})`,
      pre.wasString
        ? `rawBody was a string: did you pass a parsed/re-serialised body? Even one changed byte (whitespace, key order, escaping) breaks the signature. ${RAW_HINT}`
        : `Check that the secret is the one of this address (during a rotation configure both), that the service signs with this scheme (${pre.scheme.name}; the default is an assumption: see the \`signature\` option), and that nothing between the service and this code changed the body bytes. Did you pass a parsed/re-serialised body?`,
    );
  }
  const skewSeconds = nowMs(now) / 1000 - timestamp;
  if (!(Math.abs(skewSeconds) <= pre.tolerance)) {
    fail(
      'timestamp_out_of_tolerance',
      `The signed timestamp is ${Math.round(Math.abs(skewSeconds))} s ${skewSeconds >= 0 ? 'in the past' : 'in the future'}, beyond the tolerance of ${pre.tolerance} s`,
      "Synchronise this server's clock (NTP), or this is a replayed request. Raise toleranceSeconds only if the clock cannot be fixed.",
    );
  }
  return { timestamp, skewSeconds };
}

/**
 * Verifies a callback request (seed 001 section 5, with the scheme of `options.signature`) and
 * returns the parsed body. Order: the scheme reads and checks its headers (constant time, over the
 * raw bytes) → timestamp tolerance → body parsed (never before the signature holds, whatever the
 * bytes hold) → endpoint id → nonce replay. Throws `CallbackVerificationError`.
 */
export async function verifyCallbackWith<R extends CallbackRequestBase = CallbackRequest>(
  options: VerifyCallbackOptions,
  defaultScheme: CallbackSignatureScheme,
): Promise<VerifiedCallback<R>> {
  const verified = await verifySignedWith<R>(options, defaultScheme);
  if (options.nonceStore) await claimNonce(options.nonceStore, verified.nonce, options.toleranceSeconds);
  return verified;
}

/**
 * Every check of `verifyCallbackWith` but the nonce store's (the handler claims the nonce within
 * its own budget): synchronous when the scheme answers synchronously (node:crypto), else a promise.
 */
export function verifySignedWith<R extends CallbackRequestBase = CallbackRequest>(
  options: VerifyCallbackOptions,
  defaultScheme: CallbackSignatureScheme,
): VerifiedCallback<R> | Promise<VerifiedCallback<R>> {
  const pre = prepare(options, defaultScheme);
  const checked = pre.scheme.verify({ body: pre.bytes, secrets: pre.secrets, header: pre.header });
  const after = (check: SignatureCheck): VerifiedCallback<R> => {
    const { timestamp, skewSeconds } = checkSignatureAndTime(pre, check, options.now);
    return readVerifiedBody<R>(pre, check, { timestamp, skewSeconds }, options.endpointId);
  };
  return isThenable(checked) ? checked.then(after) : after(checked);
}

/** Claims a verified request's replay key for twice the tolerance window; one seen before is refused (`replayed_nonce`). */
export async function claimNonce(
  store: NonceStore,
  nonce: string,
  toleranceSeconds = DEFAULT_TOLERANCE_SECONDS,
): Promise<void> {
  const ttlMs = Math.ceil(2 * (Number.isFinite(toleranceSeconds) ? toleranceSeconds : 86_400) * 1000) + 1000;
  const fresh = await store.claim(`nonce:${nonce.toLowerCase()}`, ttlMs); // hex nonces in either case are one nonce
  if (!fresh) {
    fail(
      'replayed_nonce',
      "The request's nonce was already seen within the tolerance window",
      'The service sends a fresh nonce on every send, including retries: this request is a replay.',
    );
  }
}

/**
 * The same checks synchronously, for a synchronous scheme (node:crypto). A nonce store is
 * asynchronous, so it is refused here: use the async verify for replay protection.
 */
export function verifyCallbackSyncWith<R extends CallbackRequestBase = CallbackRequest>(
  options: VerifyCallbackOptions,
  defaultScheme: CallbackSignatureScheme,
): VerifiedCallback<R> {
  if (options.nonceStore) {
    throw new TypeError('verifyCallbackSync takes no nonceStore (a store answers asynchronously): use verifyCallback');
  }
  const verified = verifySignedWith<R>(options, defaultScheme);
  if (isThenable(verified)) {
    verified.catch(() => undefined);
    throw new TypeError(
      `verifyCallbackSync needs a synchronous signature scheme; ${options.signature?.name ?? 'this one'} answers with a promise: use verifyCallback`,
    );
  }
  return verified;
}
