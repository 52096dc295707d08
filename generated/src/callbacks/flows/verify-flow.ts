// Copied by im-openapi from templates/runtime/callbacks/flows/verify-flow.ts. Do not edit here: edit the template and run `npm run generate`.
/** The URL verification flow (seed 001): `onVerify` observes it, then the challenge is echoed. */
import { errorText } from '../errors.js';
import type { CallbackEvent, HookCallbackRequest, VerifyCallbackRequest } from '../types.js';
import type { VerifiedCallback } from '../verify-core.js';
import { type CallbackCoreResult, type FlowSettings, json } from './flow-kit.js';

export async function handleVerify<E extends CallbackEvent, H extends HookCallbackRequest>(
  settings: FlowSettings<E, H>,
  verified: VerifiedCallback<VerifyCallbackRequest>,
): Promise<CallbackCoreResult> {
  const challenge = verified.body.challenge;
  if (typeof challenge !== 'string') return json(400, { error: 'malformed_body' });
  if (settings.onVerify) {
    try {
      await settings.onVerify(verified.body, verified);
    } catch (err) {
      settings.logger.error?.('onVerify threw; answering 500', {
        error: errorText(err),
        requestId: verified.requestId,
      });
      return json(500, { error: 'handler_failed' });
    }
  }
  return json(200, { challenge });
}
