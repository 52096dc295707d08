// Copied by im-openapi from templates/runtime/internal/response-drift.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The lenient response check of a call (internal, unstable; `validateResponses`): the answer is
 * returned as it came, and where it differs from the spec the logger and `onResponseDrift` hear.
 */
import type { OperationSpec } from '../operation.js';
import type { WithResponse } from './attempt-types.js';
import type { ResolvedConfig } from './config.js';
import type { SafeLogger } from './logger.js';
import { validatorOf } from './request-checks.js';

/** Lenient response check: differences are reported, the response is returned as it came. */
export async function reportDrift(
  op: OperationSpec,
  result: WithResponse<unknown>,
  logger: SafeLogger,
  onResponseDrift: ResolvedConfig['onResponseDrift'],
): Promise<void> {
  try {
    // the drift schema is the first success status's JSON body: other answers are not checked
    if (op.response || (op.responseByStatus && result.response.status !== op.successStatuses[0])) return;
    const body = op.responseByStatus ? (result.data as { data: unknown }).data : result.data;
    const validator = await validatorOf(op);
    const issues = validator.validateResponse?.(body);
    if (!issues || issues.length === 0) return;
    logger.warn(
      `${op.id}: the response differs from the spec in ${issues.length} place(s): ${issues
        .slice(0, 3)
        .map((i) => `${i.pointer || '/'} ${i.rule}`)
        .join(', ')}`,
    );
    onResponseDrift?.({
      operationId: op.id,
      status: result.response.status,
      requestId: result.response.requestId,
      issues,
    });
  } catch (err) {
    logger.warn(`${op.id}: response check failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}
