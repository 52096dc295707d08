// Copied by im-openapi from templates/runtime/callbacks/verify-core.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * Callback verification, platform-neutral (no Node built-in, no `Buffer`): the HMAC comes in as a
 * `SignatureMatcher`. `verify.ts` binds it to node:crypto (also synchronously), `edge.ts` to
 * WebCrypto.
 */
import { CallbackVerificationError } from './errors.js';
import type { CallbackVerificationReason } from './errors.js';
import { CALLBACK_HEADER_NAMES, readCallbackHeaders } from './headers.js';
import type { CallbackHeaderField, CallbackHeaders } from './headers.js';
import { parseSignatureHeader } from './signature-scheme.js';
import type { SignatureMatcher } from './signature-scheme.js';
import type { NonceStore } from '../stores/dedupe-store.js';
import type {
  CallbackRequest,
  CallbackRequestBase,
  HeadersLike,
  RawBody,
} from './types.js';

export const DEFAULT_TOLERANCE_SECONDS = 300;

export interface VerifyCallbackOptions {
  /** Request headers: Web `Headers`, Node `IncomingHttpHeaders` or a plain record, any case. */
  headers: HeadersLike;
  /** The body bytes exactly as received. Never a parsed or re-serialised body. */
  rawBody: RawBody;
  /** The address's signing secret, or several during a rotation (any one may match). */
  secrets: string | readonly string[];
  /** Largest allowed distance between X-IM-Timestamp and `now`, both directions. Default 300. */
  toleranceSeconds?: number;
  /** The receiver's clock in milliseconds since the epoch (default `Date.now()`). */
  now?: number | Date | (() => number);
  /** Optional replay protection: refuses a nonce already claimed within the tolerance window. */
  nonceStore?: NonceStore;
  /**
   * The address id(s) this receiver serves (`X-IM-Endpoint-Id`, body `endpoint_id`, the body
   * authoritative): a signed request for another address, or naming none, is refused
   * (`endpoint_mismatch`, 403). Default: any address.
   */
  endpointId?: string | readonly string[];
}

/** A header that disagrees with the (authoritative, signed) body. Reported, never fatal. */
export interface HeaderDisagreement {
  header: string;
  headerValue: string;
  bodyField: string;
  bodyValue: unknown;
}

export interface VerifiedCallback<R extends CallbackRequestBase = CallbackRequest> {
  /** From the body (authoritative); from X-IM-Kind only when the body has no `kind`. */
  kind: R['kind'];
  /** The parsed body; parsed only after the signature held. */
  body: R;
  /** X-IM-Timestamp, Unix seconds. */
  timestamp: number;
  /** Receiver clock minus X-IM-Timestamp, in seconds (positive: the request looks that old). */
  skewSeconds: number;
  requestId: string | undefined;
  endpointId: string | undefined;
  /** Hook type (kind = hook): body `hook`, else X-IM-Hook. */
  hook?: string;
  nonce: string;
  /** Index in `secrets` of the secret that matched (useful to finish a rotation). */
  secretIndex: number;
  /** Headers whose value differs from the body's; the body value was used. */
  disagreements: HeaderDisagreement[];
}

/** 1 to 15 decimal digits (whole seconds; 15 digits stay exact in a double). A loop: a regex test cost more. */
function isTimestamp(text: string): boolean {
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

/** Framework-neutral: the README has a recipe per framework (Express, Fastify, Koa, Hono, Next.js, NestJS). */
export const RAW_HINT =
  'Pass the request body bytes exactly as received (Buffer/Uint8Array), before any JSON parsing: ' +
  'a JSON body parser in front of the callback route (express.json(), Fastify\'s or Koa\'s JSON parser, NestJS without rawBody: true) ' +
  'has already replaced them; with fetch-style requests (Hono, Next.js route handlers, Workers) use new Uint8Array(await request.arrayBuffer()). ' +
  'See "Callbacks" in the README for the recipe of each framework.';

function fail(reason: CallbackVerificationReason, message: string, hint: string): never {
  throw new CallbackVerificationError(reason, message, hint);
}

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

/** One decoder for every call (constructing one costs about a microsecond); fatal: bad UTF-8 throws. */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

function nowMs(now: VerifyCallbackOptions['now']): number {
  if (now === undefined) return Date.now();
  if (typeof now === 'function') return now();
  if (now instanceof Date) return now.getTime();
  return now;
}

function required(given: string | undefined, field: CallbackHeaderField): string {
  const value = given?.trim();
  if (!value) {
    fail(
      'missing_header',
      `Header ${CALLBACK_HEADER_NAMES[field]} is missing`,
      'Every callback carries X-IM-Signature, X-IM-Timestamp and X-IM-Nonce; a proxy may have dropped it, or the request did not come from the service.',
    );
  }
  return value;
}

/** What the checks before the signature found; carried into the checks after it. */
interface Prechecked {
  headers: CallbackHeaders;
  bytes: Uint8Array;
  wasString: boolean;
  secrets: string[];
  tolerance: number;
  timestampHeader: string;
  nonce: string;
  candidates: Uint8Array[];
}

/** Headers well-formed, secrets configured, body raw: everything before the HMAC. */
function precheck(options: VerifyCallbackOptions): Prechecked {
  const headers = readCallbackHeaders(options.headers);
  const { bytes, wasString } = toRawBytes(options.rawBody); // a Buffer/Uint8Array (what servers hand over) as is, not copied
  const secrets = normaliseSecrets(options.secrets);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (!(tolerance >= 0)) throw new TypeError('toleranceSeconds must be a number >= 0');

  const signatureHeader = required(headers.signature, 'signature');
  const timestampHeader = required(headers.timestamp, 'timestamp');
  const nonce = required(headers.nonce, 'nonce');

  const parsed = parseSignatureHeader(signatureHeader);
  if (!parsed.ok) {
    fail(
      'malformed_signature',
      `X-IM-Signature is malformed: ${parsed.problem}`,
      'The header is "v1=" and 64 hexadecimal characters, two such values separated by a comma during a secret rotation.',
    );
  }
  if (!isTimestamp(timestampHeader)) {
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
  return { headers, bytes, wasString, secrets, tolerance, timestampHeader, nonce, candidates: parsed.candidates };
}

/** Signature matched? Then the timestamp tolerance. Returns the timestamp and skew. */
function checkSignatureAndTime(pre: Prechecked, secretIndex: number, now: VerifyCallbackOptions['now']): { timestamp: number; skewSeconds: number } {
  if (secretIndex < 0) {
    fail(
      'signature_mismatch',
      'No X-IM-Signature value matches the configured secret(s)',
      pre.wasString
        ? `rawBody was a string: did you pass a parsed/re-serialised body? Even one changed byte (whitespace, key order, escaping) breaks the signature. ${RAW_HINT}`
        : 'Check that the secret is the one of this address (during a rotation configure both), and that nothing between the service and this code changed the body bytes. Did you pass a parsed/re-serialised body?',
    );
  }
  const timestamp = Number(pre.timestampHeader);
  const skewSeconds = nowMs(now) / 1000 - timestamp;
  if (!(Math.abs(skewSeconds) <= pre.tolerance)) {
    fail(
      'timestamp_out_of_tolerance',
      `X-IM-Timestamp is ${Math.round(Math.abs(skewSeconds))} s ${skewSeconds >= 0 ? 'in the past' : 'in the future'}, beyond the tolerance of ${pre.tolerance} s`,
      "Synchronise this server's clock (NTP), or this is a replayed request. Raise toleranceSeconds only if the clock cannot be fixed.",
    );
  }
  return { timestamp, skewSeconds };
}

/**
 * Verifies a callback request (seed 001 section 5 and the scheme in `signature-scheme.ts`) and
 * returns the parsed body. Order: headers well-formed → signature (constant time, over the raw
 * bytes) → timestamp tolerance → body parsed (never before the signature holds, whatever the
 * bytes hold) → endpoint id → nonce replay. Throws `CallbackVerificationError`.
 * `match` computes the HMAC (node:crypto or WebCrypto).
 */
export async function verifyCallbackWith<R extends CallbackRequestBase = CallbackRequest>(
  options: VerifyCallbackOptions,
  match: SignatureMatcher,
): Promise<VerifiedCallback<R>> {
  const verified = await verifySignedWith<R>(options, match);
  if (options.nonceStore) await claimNonce(options.nonceStore, verified.nonce, options.toleranceSeconds);
  return verified;
}

/** Every check of `verifyCallbackWith` but the nonce store's (the handler claims the nonce within its own budget). */
export async function verifySignedWith<R extends CallbackRequestBase = CallbackRequest>(
  options: VerifyCallbackOptions,
  match: SignatureMatcher,
): Promise<VerifiedCallback<R>> {
  const pre = precheck(options);
  const matched = match(pre.secrets, pre.timestampHeader, pre.nonce, pre.bytes, pre.candidates);
  // node:crypto answers synchronously: no await (a microtask turn) for a plain number.
  const secretIndex = typeof matched === 'number' ? matched : await matched;
  const { timestamp, skewSeconds } = checkSignatureAndTime(pre, secretIndex, options.now);
  return finish<R>(pre, secretIndex, timestamp, skewSeconds, options.endpointId);
}

/** Claims a verified request's nonce for twice the tolerance window; a nonce seen before is refused (`replayed_nonce`). */
export async function claimNonce(store: NonceStore, nonce: string, toleranceSeconds = DEFAULT_TOLERANCE_SECONDS): Promise<void> {
  const ttlMs = Math.ceil(2 * (Number.isFinite(toleranceSeconds) ? toleranceSeconds : 86_400) * 1000) + 1000;
  const fresh = await store.claim(`nonce:${nonce.toLowerCase()}`, ttlMs);
  if (!fresh) {
    fail(
      'replayed_nonce',
      'X-IM-Nonce was already seen within the tolerance window',
      'The service sends a fresh nonce on every send, including retries: this request is a replay.',
    );
  }
}

/**
 * The same checks synchronously, for a synchronous `match` (node:crypto). A nonce store is
 * asynchronous, so it is refused here: use the async verify for replay protection.
 */
export function verifyCallbackSyncWith<R extends CallbackRequestBase = CallbackRequest>(
  options: VerifyCallbackOptions,
  match: (...args: Parameters<SignatureMatcher>) => number,
): VerifiedCallback<R> {
  if (options.nonceStore) {
    throw new TypeError('verifyCallbackSync takes no nonceStore (a store answers asynchronously): use verifyCallback');
  }
  const pre = precheck(options);
  const secretIndex = match(pre.secrets, pre.timestampHeader, pre.nonce, pre.bytes, pre.candidates);
  const { timestamp, skewSeconds } = checkSignatureAndTime(pre, secretIndex, options.now);
  return finish<R>(pre, secretIndex, timestamp, skewSeconds, options.endpointId);
}

/** Parses the (now trusted) body and reconciles it with the headers; refuses another address's request when `expectedEndpoint` is given. */
function finish<R extends CallbackRequestBase>(pre: Prechecked, secretIndex: number, timestamp: number, skewSeconds: number, expectedEndpoint: string | readonly string[] | undefined): VerifiedCallback<R> {
  const { headers, bytes, nonce } = pre;
  let body: unknown;
  try {
    const text = STRICT_UTF8.decode(bytes);
    body = JSON.parse(text);
  } catch {
    fail(
      'malformed_body',
      'The signed body is not valid UTF-8 JSON',
      'The signature holds, so the service sent this body as is; report it with the X-IM-Request-Id.',
    );
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    fail('malformed_body', 'The signed body is not a JSON object', 'A callback body is a JSON object with a `kind` field.');
  }
  const record = body as Record<string, unknown>;

  if (record.kind !== undefined && typeof record.kind !== 'string') {
    fail('malformed_body', 'The body field `kind` is not a string', 'A callback body carries kind = event, hook or verify.');
  }
  const disagreements: HeaderDisagreement[] = [];
  const kind = pick(disagreements, headers.kind, 'kind', record, 'kind');
  if (!kind) {
    fail('malformed_body', 'Neither the body nor X-IM-Kind says the kind', 'A callback body carries kind = event, hook or verify.');
  }
  const requestId = pick(disagreements, headers.requestId, 'requestId', record, 'request_id');
  const endpointId = pick(disagreements, headers.endpointId, 'endpointId', record, 'endpoint_id');
  if (expectedEndpoint !== undefined && !(endpointId !== undefined && (typeof expectedEndpoint === 'string' ? endpointId === expectedEndpoint : expectedEndpoint.includes(endpointId)))) {
    fail(
      'endpoint_mismatch',
      endpointId === undefined ? 'The request names no address (endpoint_id)' : 'The request is for another address (endpoint_id differs from endpointId)',
      'This receiver serves only the address(es) in its endpointId option: a request signed for another address is not for it. Check the URL configured for each address in the console, and endpointId.',
    );
  }
  const hook = kind === 'hook' ? pick(disagreements, headers.hook, 'hook', record, 'hook') : undefined;

  const result: VerifiedCallback<R> = {
    kind: kind as R['kind'],
    body: record as R,
    timestamp,
    skewSeconds,
    requestId,
    endpointId,
    nonce,
    secretIndex,
    disagreements,
  };
  if (hook !== undefined) result.hook = hook;
  return result;
}

/** The body's value of `field` as text (the body is authoritative), else the header's; a difference is recorded. */
function pick(
  disagreements: HeaderDisagreement[],
  given: string | undefined,
  header: CallbackHeaderField,
  record: Record<string, unknown>,
  field: string,
): string | undefined {
  const headerValue = given?.trim();
  const bodyValue = record[field];
  if (bodyValue !== undefined && bodyValue !== null) {
    // JSON text for objects: String() throws on a parsed object like {"toString": 0}.
    const text = typeof bodyValue === 'string' ? bodyValue : typeof bodyValue === 'object' ? JSON.stringify(bodyValue) : String(bodyValue);
    if (headerValue !== undefined && headerValue !== text) {
      disagreements.push({ header: CALLBACK_HEADER_NAMES[header], headerValue, bodyField: field, bodyValue });
    }
    return text;
  }
  return headerValue || undefined;
}
