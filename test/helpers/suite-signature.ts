/**
 * The scheme the callbacks suite runs under in the vitest project `signature-standard-webhooks`
 * (vitest.config.ts): the Standard Webhooks wire format — webhook-id / webhook-timestamp /
 * webhook-signature `v1,<base64>` over `id.timestamp.body` — made by the kit's own
 * `standardWebhooksSignature`. The suite's secrets were written for the default scheme (any
 * string, e.g. `whsec_sim_N4r8Kq2W`); a Standard Webhooks secret is base64 after `whsec_`, so each
 * one that is not is used as `whsec_` + base64 of its UTF-8 bytes (the same mapping in every
 * process). The decoding of real `whsec_` secrets has its own tests (signature-option.test.ts).
 *
 * Its default export is what child processes load: the CLI through IM_CALLBACK_SIGNATURE, the
 * receiver fixtures through `signatureUnderTest()`.
 */
import { standardWebhooksSignature } from '../../templates/runtime/callbacks/signature-node.js';
import type { CallbackSignatureScheme } from '../../templates/runtime/callbacks/signature-scheme.js';
import { suiteScheme } from './suite-scheme-wrap.js';

export default suiteScheme(standardWebhooksSignature);

/** The `signature` option a receiver fixture (a child process) passes: the suite's scheme when the project runs under one. */
export async function signatureUnderTest(): Promise<{ signature?: CallbackSignatureScheme }> {
  if (process.env.IM_TEST_SIGNATURE !== 'standard-webhooks') return {};
  return { signature: (await import('./suite-signature.js')).default };
}
