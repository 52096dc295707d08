// Copied by im-openapi from templates/runtime/internal/wire-codec.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The wire codec (internal, unstable): query styles, header/cookie parameters, non-JSON request
 * bodies and non-JSON answers. Generated table entries of operations that use any of these carry
 * `wire: wireCodec`; nothing else imports this module, so JSON-only apps do not bundle it.
 */
import type { WireCodec } from '../operation.js';
import { BinaryResponse } from '../core/binary-response.js';
import { ResponseTooLargeError } from '../core/errors.js';
import { declaredLength } from './http-attempt.js';
import { encodeBodyFor } from './request-body.js';
import { paramHeaders, styledQuery } from './wire-params.js';

export const wireCodec: WireCodec = {
  query: styledQuery,
  headers: paramHeaders,
  body: encodeBodyFor,
  responseData(kind, answer) {
    if (kind === 'text') return answer.bodyText;
    if (kind === 'empty') return undefined;
    const length = declaredLength(answer.headers);
    if (length !== undefined && length > answer.limitBytes) {
      // the size is known up front: refuse before reading a byte (never resent: the answer came)
      void answer.stream?.cancel().catch(() => undefined);
      throw new ResponseTooLargeError({
        operationId: answer.operationId,
        status: answer.status,
        limitBytes: answer.limitBytes,
        attempts: answer.attempts,
      });
    }
    return new BinaryResponse({
      stream: answer.stream,
      headers: answer.headers,
      limitBytes: answer.limitBytes,
      operationId: answer.operationId,
      status: answer.status,
    });
  },
  // A stream body is read while it is sent: a second attempt would have nothing to send.
  notReplayable(error) {
    error.message +=
      ' Not resent: the request body is a stream, which can be sent once; pass a Uint8Array, ArrayBuffer or Blob to let the client resend it, or call again with a new stream.';
    return error;
  },
};
