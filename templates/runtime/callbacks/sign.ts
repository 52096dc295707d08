/**
 * Signing for tests (yours and ours), the CLI and the simulator: a request as the service would
 * send it, signed with the scheme of `signature` (default `imSignatureV1`, ASSUMED: seed 001 §5
 * does not show the algorithm; `standardWebhooksSignature` or your own scheme to switch).
 */
import { randomBytes } from 'node:crypto';
import { imSignatureV1 } from './signature-node.js';
import { isThenable } from './signature-scheme.js';
import type { CallbackSignatureScheme } from './signature-scheme.js';
import type { CallbackKind } from './types.js';
import { checkScheme } from './verify-core.js';

export interface SignCallbackOptions {
  /**
   * The body. Bytes and strings are signed as they are; an object is serialised once with
   * `JSON.stringify` (use `signCallbackRequest` to get those exact bytes back).
   */
  body: Uint8Array | string | object;
  /** One secret … */
  secret?: string;
  /** … or several: one signature each, comma-separated (what the service sends during a rotation). */
  secrets?: string | readonly string[];
  /** Unix seconds; default now. */
  timestamp?: number | string;
  /** The request's one-time id (X-IM-Nonce: 32 hex characters; webhook-id with Standard Webhooks); default a fresh one. */
  nonce?: string;
  /**
   * The signature scheme. Default `imSignatureV1` (ASSUMED); `standardWebhooksSignature` or your
   * own. `signCallbackRequest` needs one that signs synchronously (both ready ones do, on Node).
   */
  signature?: CallbackSignatureScheme;
  /** Default: the body's `kind`. */
  kind?: CallbackKind | string;
  /** Default: the body's `hook` (written only when kind = hook). */
  hook?: string;
  /** Default: the body's `request_id`, else random. */
  requestId?: string;
  /** Default: the body's `endpoint_id`, else "ep_test". */
  endpointId?: string;
}

/** Headers of seed 2.3 with canonical names. */
export type SignedCallbackHeaders = Record<string, string>;

/**
 * Builds a signed request: the exact body to send (bytes stay bytes; a string or an object
 * becomes the string that was signed) and all headers of seed 2.3 (the signature headers as the
 * scheme writes them). Default scheme `imSignatureV1`, ASSUMED (seed 001 §5 does not show the
 * algorithm); `signature: standardWebhooksSignature` or your own scheme to sign as your receiver verifies.
 */
export function signCallbackRequest(options: SignCallbackOptions & { body: Uint8Array }): {
  headers: SignedCallbackHeaders;
  body: Uint8Array;
};
export function signCallbackRequest(options: SignCallbackOptions & { body: string | object }): {
  headers: SignedCallbackHeaders;
  body: string;
};
export function signCallbackRequest(options: SignCallbackOptions): {
  headers: SignedCallbackHeaders;
  body: string | Uint8Array;
};
export function signCallbackRequest(options: SignCallbackOptions): {
  headers: SignedCallbackHeaders;
  body: string | Uint8Array;
} {
  const signed = signCallbackRequestWith(options);
  if (isThenable(signed)) {
    signed.catch(() => undefined);
    throw new TypeError(
      `signCallbackRequest needs a scheme that signs synchronously; ${options.signature?.name ?? 'this one'} answers with a promise (the simulator and the CLI accept either)`,
    );
  }
  return signed;
}

/** `signCallbackRequest` with a scheme that may sign asynchronously (the simulator's and the CLI's path). */
export function signCallbackRequestWith(
  options: SignCallbackOptions,
):
  | { headers: SignedCallbackHeaders; body: string | Uint8Array }
  | Promise<{ headers: SignedCallbackHeaders; body: string | Uint8Array }> {
  const body =
    typeof options.body === 'string' || options.body instanceof Uint8Array
      ? options.body
      : JSON.stringify(options.body);
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const fields = bodyFields(options.body, body);

  const secrets: string[] = [];
  if (options.secret !== undefined) secrets.push(options.secret);
  if (typeof options.secrets === 'string') secrets.push(options.secrets);
  else if (options.secrets) secrets.push(...options.secrets);
  if (secrets.length === 0 || secrets.some((s) => typeof s !== 'string' || s.length === 0)) {
    throw new TypeError('signCallback needs a non-empty `secret` or `secrets`');
  }
  if (options.signature !== undefined) checkScheme(options.signature);
  const scheme = options.signature ?? imSignatureV1;

  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const kind = options.kind ?? fields.kind;
  if (!kind) throw new TypeError('signCallback needs `kind` (or a body with a `kind` field)');
  const hook = options.hook ?? fields.hook;

  const headers: SignedCallbackHeaders = {
    'Content-Type': 'application/json; charset=utf-8',
    'User-Agent': 'IM-Callback/1',
    'X-IM-Kind': kind,
  };
  if (kind === 'hook' && hook) headers['X-IM-Hook'] = hook;
  headers['X-IM-Request-Id'] = options.requestId ?? fields.request_id ?? `req_${randomBytes(8).toString('hex')}`;
  headers['X-IM-Endpoint-Id'] = options.endpointId ?? fields.endpoint_id ?? 'ep_test';
  const signatureHeaders = scheme.sign({ body: bytes, secrets, timestamp, id: options.nonce });
  const done = (sig: Record<string, string>): { headers: SignedCallbackHeaders; body: string | Uint8Array } => ({
    headers: { ...headers, ...sig },
    body,
  });
  return isThenable(signatureHeaders) ? signatureHeaders.then(done) : done(signatureHeaders);
}

/** The headers (seed 2.3) that sign `body` — for tests and for users' own tests. Default scheme `imSignatureV1` (ASSUMED); `signature: standardWebhooksSignature` or your own switches it. */
export function signCallback(options: SignCallbackOptions): SignedCallbackHeaders {
  return signCallbackRequest(options).headers;
}

function bodyFields(original: unknown, serialised: string | Uint8Array): Record<string, string | undefined> {
  let obj: unknown = original;
  if (typeof original === 'string' || original instanceof Uint8Array) {
    try {
      obj = JSON.parse(typeof serialised === 'string' ? serialised : Buffer.from(serialised).toString('utf8'));
    } catch {
      obj = undefined;
    }
  }
  const out: Record<string, string | undefined> = {};
  if (obj && typeof obj === 'object') {
    for (const key of ['kind', 'hook', 'request_id', 'endpoint_id']) {
      const v = (obj as Record<string, unknown>)[key];
      if (typeof v === 'string') out[key] = v;
    }
  }
  return out;
}
