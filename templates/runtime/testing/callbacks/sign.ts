/**
 * The one place where the fake signs what it sends to a receiver. It signs with the callbacks
 * kit's own helper (`signCallbackRequest`: seed 001 §2.3 headers, the kit's signature scheme),
 * unless the address brings its own `sign`; a change of the kit's scheme reaches the fake here.
 */
import { signCallbackRequest } from '../../callbacks/sign.js';
import type { CallbackSigner } from './types.js';

export interface SigningAddress {
  secrets: readonly string[];
  endpointId: string;
  sign?: CallbackSigner | undefined;
}

/** The exact body text and the headers that sign it. */
export function signForDelivery(
  address: SigningAddress,
  body: Record<string, unknown>,
  kind: 'verify' | 'event',
): { headers: Record<string, string>; body: string } {
  const text = JSON.stringify(body);
  const requestId = String(body.request_id);
  if (address.sign) {
    return {
      headers: address.sign({ body: text, secrets: address.secrets, kind, requestId, endpointId: address.endpointId }),
      body: text,
    };
  }
  const signed = signCallbackRequest({
    body: text,
    secrets: address.secrets,
    kind,
    requestId,
    endpointId: address.endpointId,
  });
  return { headers: signed.headers, body: signed.body };
}
