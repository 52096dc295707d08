/**
 * The body of a callback request whose signature held: parsed as UTF-8 JSON (only now), reconciled
 * with the X-IM-* headers (the signed body is authoritative; a difference is reported), and checked
 * against the addresses this receiver serves.
 */
import { refuse as fail } from './errors.js';
import { CALLBACK_HEADER_NAMES } from './headers.js';
import type { CallbackHeaderField, CallbackHeaders } from './headers.js';
import type { SignatureCheck } from './signature-scheme.js';
import type { CallbackRequest, CallbackRequestBase } from './types.js';

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
  /** The request's replay key: X-IM-Nonce with the default scheme, `webhook-id.webhook-timestamp` with Standard Webhooks (compared ignoring case). */
  nonce: string;
  /** Index in `secrets` of the secret that matched (useful to finish a rotation). */
  secretIndex: number;
  /** Headers whose value differs from the body's; the body value was used. */
  disagreements: HeaderDisagreement[];
}

/** One decoder for every call (constructing one costs about a microsecond); fatal: bad UTF-8 throws. */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Parses the (now trusted) body and reconciles it with the headers; refuses another address's request when `expectedEndpoint` is given. */
export function readVerifiedBody<R extends CallbackRequestBase>(
  pre: { headers: CallbackHeaders; bytes: Uint8Array },
  check: SignatureCheck,
  time: { timestamp: number; skewSeconds: number },
  expectedEndpoint: string | readonly string[] | undefined,
): VerifiedCallback<R> {
  const { headers } = pre;
  const { secretIndex, replayKey: nonce } = check;
  const record = parseBody(pre.bytes);
  const disagreements: HeaderDisagreement[] = [];
  const kind = pick(disagreements, headers.kind, 'kind', record, 'kind');
  if (!kind) {
    fail(
      'malformed_body',
      'Neither the body nor X-IM-Kind says the kind',
      'A callback body carries kind = event, hook or verify.',
    );
  }
  const requestId = pick(disagreements, headers.requestId, 'requestId', record, 'request_id');
  const endpointId = pick(disagreements, headers.endpointId, 'endpointId', record, 'endpoint_id');
  checkEndpoint(endpointId, expectedEndpoint);
  const hook = kind === 'hook' ? pick(disagreements, headers.hook, 'hook', record, 'hook') : undefined;

  const result: VerifiedCallback<R> = {
    kind: kind as R['kind'],
    body: record as R,
    timestamp: time.timestamp,
    skewSeconds: time.skewSeconds,
    requestId,
    endpointId,
    nonce,
    secretIndex,
    disagreements,
  };
  if (hook !== undefined) result.hook = hook;
  return result;
}

/** The signed bytes as a JSON object whose `kind`, if any, is a string. */
function parseBody(bytes: Uint8Array): Record<string, unknown> {
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
    fail(
      'malformed_body',
      'The signed body is not a JSON object',
      'A callback body is a JSON object with a `kind` field.',
    );
  }
  const record = body as Record<string, unknown>;

  if (record.kind !== undefined && typeof record.kind !== 'string') {
    fail(
      'malformed_body',
      'The body field `kind` is not a string',
      'A callback body carries kind = event, hook or verify.',
    );
  }
  return record;
}

/** A receiver that serves given addresses refuses a request for another one, or for none. */
function checkEndpoint(endpointId: string | undefined, expectedEndpoint: string | readonly string[] | undefined): void {
  if (
    expectedEndpoint !== undefined &&
    !(
      endpointId !== undefined &&
      (typeof expectedEndpoint === 'string' ? endpointId === expectedEndpoint : expectedEndpoint.includes(endpointId))
    )
  ) {
    fail(
      'endpoint_mismatch',
      endpointId === undefined
        ? 'The request names no address (endpoint_id)'
        : 'The request is for another address (endpoint_id differs from endpointId)',
      'This receiver serves only the address(es) in its endpointId option: a request signed for another address is not for it. Check the URL configured for each address in the console, and endpointId.',
    );
  }
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
    const text =
      typeof bodyValue === 'string'
        ? bodyValue
        : typeof bodyValue === 'object'
          ? JSON.stringify(bodyValue)
          : String(bodyValue);
    if (headerValue !== undefined && headerValue !== text) {
      disagreements.push({ header: CALLBACK_HEADER_NAMES[header], headerValue, bodyField: field, bodyValue });
    }
    return text;
  }
  return headerValue || undefined;
}
