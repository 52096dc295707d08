// Copied by im-openapi from templates/runtime/helpers/toggle.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * Set-mute-all (seed 2.3: input `on` (boolean): true uses PUT, false uses DELETE): one call that
 * picks the operation of the pair from the flag (x-toggle in the spec).
 */
import { ApiPromise } from '../core/api-promise.js';
import type { ImLeanCore } from '../core/lean-core.js';
import { ValidationError } from '../core/errors.js';
import type { RequestOptions } from '../core/options.js';
import type { OperationSpec } from '../operation.js';
import { asParams } from '../internal/request-builder.js';

export function toggle<T>(
  client: ImLeanCore,
  pair: { field: string; whenTrue: OperationSpec; whenFalse: OperationSpec; helperId: string },
  givenParams: Record<string, unknown>,
  options?: RequestOptions,
): ApiPromise<T> {
  let params: Record<string, unknown>;
  try {
    params = asParams(pair.helperId, givenParams);
  } catch (err) {
    return new ApiPromise<T>(Promise.reject(err));
  }
  const { [pair.field]: flag, ...rest } = params;
  if (typeof flag !== 'boolean') {
    return new ApiPromise<T>(
      Promise.reject(
        new ValidationError(pair.helperId, [
          { pointer: `/${pair.field}`, rule: 'type', message: `\`${pair.field}\` must be true or false` },
        ]),
      ),
    );
  }
  return client.request<T>(flag ? pair.whenTrue : pair.whenFalse, rest, options);
}
