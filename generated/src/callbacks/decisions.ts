// Copied by im-openapi from templates/runtime/callbacks/decisions.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * Answers to synchronous callbacks (kind hook, seed 001 section 4.3): allow, reject or rewrite.
 *
 * ASSUMED (x-assumed): "Fields of data of hooks and the JSON answer shape: not shown". The kit
 * answers `{"decision":"allow"}`, `{"decision":"reject","reason":"…"}` or
 * `{"decision":"rewrite","data":{…}}`. `hookAnswerBody` is the only place that knows the
 * shape, so the generated spec can replace it.
 */

export type HookDecision =
  | { readonly decision: 'allow' }
  | { readonly decision: 'reject'; readonly reason?: string }
  | { readonly decision: 'rewrite'; readonly data: Record<string, unknown> };

/** The service may read at most this many bytes of a hook answer (seed 4.3 / 8). */
export const MAX_HOOK_ANSWER_BYTES = 64 * 1024;

/** Let the operation go ahead unchanged. */
export function allow(): HookDecision {
  return { decision: 'allow' };
}

/** Refuse the operation, optionally with a reason. */
export function reject(reason?: string): HookDecision {
  return reason === undefined ? { decision: 'reject' } : { decision: 'reject', reason };
}

/** Let the operation go ahead with changed data: a JSON object (the answer must stay within 64 KB). */
export function rewrite(data: Record<string, unknown>): HookDecision {
  return { decision: 'rewrite', data };
}

export function isHookDecision(value: unknown): value is HookDecision {
  if (value === null || typeof value !== 'object') return false;
  const d = (value as { decision?: unknown }).decision;
  if (d === 'allow') return true;
  if (d === 'reject') {
    const r = (value as { reason?: unknown }).reason;
    return r === undefined || typeof r === 'string';
  }
  if (d !== 'rewrite') return false;
  const data = (value as { data?: unknown }).data;
  return data !== null && typeof data === 'object' && !Array.isArray(data);
}

/** The JSON answer for a decision (the assumed wire shape). */
export function hookAnswerBody(decision: HookDecision): Record<string, unknown> {
  switch (decision.decision) {
    case 'allow':
      return { decision: 'allow' };
    case 'reject':
      return decision.reason === undefined
        ? { decision: 'reject' }
        : { decision: 'reject', reason: decision.reason };
    case 'rewrite':
      return { decision: 'rewrite', data: decision.data };
  }
}
