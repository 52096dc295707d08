/**
 * The secret mapping of the suite's Standard Webhooks scheme (see suite-signature.ts); no import
 * of signature-node.js, so that signature-setup.ts can use it inside its vi.mock factories.
 */
import type { CallbackSignatureScheme } from '../../templates/runtime/callbacks/signature-scheme.js';
import { standardWebhooksKey, toBase64 } from '../../templates/runtime/callbacks/standard-webhooks.js';

/** `secret` as a Standard Webhooks secret: itself when it is one, else whsec_ + base64 of its bytes. */
export function asStandardSecret(secret: string): string {
  return standardWebhooksKey(secret) ? secret : `whsec_${toBase64(new TextEncoder().encode(secret))}`;
}

/** `base` (a Standard Webhooks scheme) taking the suite's secrets. */
export function suiteScheme(base: CallbackSignatureScheme): CallbackSignatureScheme {
  return {
    name: base.name,
    headers: base.headers,
    sign: (input) => base.sign({ ...input, secrets: input.secrets.map(asStandardSecret) }),
    verify: (input) => base.verify({ ...input, secrets: input.secrets.map(asStandardSecret) }),
    checkSecret: (secret) => base.checkSecret?.(asStandardSecret(secret)),
  };
}
