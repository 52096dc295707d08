/** Why a callback request was refused. */
export type CallbackVerificationReason =
  /** A required header (X-IM-Signature, X-IM-Timestamp, X-IM-Nonce) is absent or empty. */
  | 'missing_header'
  /** X-IM-Signature is not `v1=<hex>[,v1=<hex>]`. */
  | 'malformed_signature'
  /** No v1 value matches any of the receiver's secrets. */
  | 'signature_mismatch'
  /** X-IM-Timestamp is not a decimal Unix time in seconds. */
  | 'malformed_timestamp'
  /** X-IM-Timestamp is further from the receiver's clock than the tolerance (either direction). */
  | 'timestamp_out_of_tolerance'
  /** X-IM-Nonce is not 32 hexadecimal characters. */
  | 'malformed_nonce'
  /** The nonce store has seen this nonce within the tolerance window. */
  | 'replayed_nonce'
  /** rawBody is not bytes or a string (e.g. an already parsed object). */
  | 'body_not_raw'
  /** The signed body is not UTF-8 JSON of a callback request. */
  | 'malformed_body'
  /** The receiver has no usable secret configured. */
  | 'no_secret_configured'
  /** The signed request is for another address than the receiver's `endpointId` (or names none). */
  | 'endpoint_mismatch';

/**
 * A refused callback request. `reason` is machine-readable, `hint` names the likely cause and
 * the fix. Neither ever contains a secret or an expected signature.
 */
export class CallbackVerificationError extends Error {
  override readonly name = 'CallbackVerificationError';
  readonly reason: CallbackVerificationReason;
  readonly hint: string;
  /** The HTTP status a receiver should answer with (401 for authentication, 400 for a bad body, 403 for another address's request). */
  readonly status: number;

  constructor(reason: CallbackVerificationReason, message: string, hint: string) {
    super(`${message} (${reason}). ${hint}`);
    this.reason = reason;
    this.hint = hint;
    this.status =
      reason === 'malformed_body'
        ? 400
        : reason === 'no_secret_configured'
          ? 500
          : reason === 'endpoint_mismatch'
            ? 403
            : 401;
  }

  toJSON(): { name: string; reason: CallbackVerificationReason; message: string; hint: string } {
    return { name: this.name, reason: this.reason, message: this.message, hint: this.hint };
  }
}

/** An error as one line for a log field (`Name: message`), whatever was thrown. */
export function errorText(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

/** Throws the refusal: for signature schemes and the verifier alike. */
export function refuse(reason: CallbackVerificationReason, message: string, hint: string): never {
  throw new CallbackVerificationError(reason, message, hint);
}

/** A signature header's value, trimmed; `missing_header` when it is absent or empty. */
export function requiredHeader(value: string | undefined, name: string, hint: string): string {
  const text = value?.trim();
  if (!text) refuse('missing_header', `Header ${name} is missing`, hint);
  return text;
}
