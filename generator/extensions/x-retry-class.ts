/**
 * `x-retry-class` (REST seed section 4): whether and how the client resends an operation after a
 * network error, timeout or 5xx. Required on every operation but the token exchange.
 */
import { doc } from '../emit/spec-text.js';
import { quoted, SpecError } from '../spec-error.js';
import { defineExtension, type OperationContext } from './extension.js';

/** The retry classes, as the seed names them. */
export const RETRY_CLASSES = ['Q', 'I', 'U', 'D', 'N'] as const;

/** Safety of repeating, for the change report: a move up is less safe (D and U alike). */
const SAFETY: Record<string, number> = { '—': -1, Q: 0, I: 1, D: 2, U: 2, N: 3 };

const CLASS_WORDS: Record<string, string> = {
  Q: 'Q (read-only): resent automatically on a network error, timeout or 5xx.',
  I: 'I (idempotent): resent automatically on a network error, timeout or 5xx. A resent call that answers not_found or version_conflict may be the echo of its own earlier attempt: the error then has `mayBeEchoOfEarlierAttempt: true`.',
  U: 'U (unique create): resent automatically on a network error, timeout or 5xx. A resent call that answers already_exists may be the echo of its own earlier attempt: the error then has `mayBeEchoOfEarlierAttempt: true`.',
  D: 'D (deduplicated): resent automatically with the same dedupe key, which the client fills when you give none.',
  N: 'N (not repeated): never resent after a network error, timeout or 5xx, because the request may already have been executed. Only a 429 (not executed) is waited out and resent.',
};

const isTokenExchange = (op: Record<string, any>) => Array.isArray(op.security) && op.security.length === 0;

function refusal(value: unknown, { id, at }: OperationContext): SpecError {
  const near =
    typeof value === 'string' && (RETRY_CLASSES as readonly string[]).includes(value.toUpperCase())
      ? `did you mean ${value.toUpperCase()}?`
      : undefined;
  return new SpecError(
    `${at}/x-retry-class`,
    'unknown-retry-class',
    `${id}: x-retry-class must be one of Q, I, U, D, N, found ${quoted(value)}`,
    near ?? 'Q read-only, I idempotent, U unique create, D deduplicated by a key, N never resent (REST seed section 4)',
  );
}

export const retryClass = defineExtension({
  name: 'x-retry-class',
  place: 'operation',
  readme: { where: 'operation', meaning: 'Q, I, U, D or N (REST seed section 4)' },
  schema: { description: 'Retry class of REST seed section 4.', enum: [...RETRY_CLASSES] },
  explain: (value, ctx) => refusal(value, ctx).problems[0],
  check(value, ctx) {
    if (value === undefined && !isTokenExchange(ctx.op)) throw refusal(value, ctx);
  },
  read: (value) => ({ retryClass: value ?? 'N' }),
  docLines: (op) => [doc`Retry class ${CLASS_WORDS[op.retryClass]!}`],
  surface: (op) => ({ retryClass: op.isTokenExchange ? '—' : op.retryClass }),
  compare(old, now, change) {
    if (old.retryClass === now.retryClass) return;
    const worse = (SAFETY[now.retryClass] ?? 9) >= (SAFETY[old.retryClass] ?? 9);
    change({
      class: worse ? 'breaking' : 'non-breaking',
      kind: 'retry-class-changed',
      before: old.retryClass,
      after: now.retryClass,
      message: `${now.call}: retry class ${old.retryClass} → ${now.retryClass}${worse ? ' (less safe to repeat: the client resends it less, or not at all)' : ' (safer to repeat)'}`,
      ...(worse
        ? { migration: `check your own retries around ${now.call}: the client no longer resends it as before` }
        : {}),
    });
  },
});
