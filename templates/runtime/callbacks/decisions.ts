/**
 * Answers to synchronous callbacks (kind hook, seed 001 section 4.3): allow, reject or rewrite.
 *
 * ASSUMED (x-assumed): "Fields of data of hooks and the JSON answer shape: not shown". The kit
 * answers `{"decision":"allow"}`, `{"decision":"reject","reason":"…"}` or
 * `{"decision":"rewrite","data":{…}}` by default (`assumedHookAnswer`). The wire shape is a
 * replaceable part: pass another `HookAnswerFormat` as `hookAnswer` to the handler (and to the
 * simulator and the CLI, which read answers back with it).
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
      return decision.reason === undefined ? { decision: 'reject' } : { decision: 'reject', reason: decision.reason };
    case 'rewrite':
      return { decision: 'rewrite', data: decision.data };
  }
}

/**
 * How hook decisions travel on the wire: the JSON value answered for a decision, and the decision
 * an answer carries (the simulator and `im-callbacks send` judge answers with `decode`).
 */
export interface HookAnswerFormat {
  /** How messages name it. */
  readonly name: string;
  /** The JSON value answered for `decision` (serialised with JSON.stringify; at most 64 KB). */
  encode(decision: HookDecision): unknown;
  /** The decision in an answer body (parsed JSON), or undefined when it carries none. */
  decode(answer: unknown): HookDecision | undefined;
}

/**
 * The default answer format, ASSUMED (seed 001 §4.3: "the JSON answer shape: not shown"):
 * `{"decision":"allow"}`, `{"decision":"reject","reason":"…"}`, `{"decision":"rewrite","data":{…}}`.
 */
export const assumedHookAnswer: HookAnswerFormat = {
  name: 'assumed decision object',
  encode: hookAnswerBody,
  decode: (answer) => (isHookDecision(answer) ? answer : undefined),
};

/** A `hookAnswer` option that is not a format is refused, naming what it lacks. */
export function checkHookAnswerFormat(format: unknown): asserts format is HookAnswerFormat {
  const f = format as Partial<HookAnswerFormat> | null;
  if (f === null || typeof f !== 'object' || typeof f.encode !== 'function' || typeof f.decode !== 'function') {
    throw new TypeError(
      'hookAnswer must be a hook answer format { name, encode(decision), decode(answer) }: assumedHookAnswer (the default) or your own',
    );
  }
}
