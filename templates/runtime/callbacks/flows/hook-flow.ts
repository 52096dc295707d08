/**
 * The hook flow: `onHook` returns allow()/reject()/rewrite(); an exception, a slow handler or an
 * answer over 64 KB gets the default decision, answered within the hook's timeout_ms (counted from
 * the request's arrival) with the header `x-im-hook-fallback` saying why.
 */
import { isHookDecision, MAX_HOOK_ANSWER_BYTES } from '../decisions.js';
import type { HookDecision } from '../decisions.js';
import { errorText } from '../errors.js';
import type { CallbackEvent, HookCallbackRequest } from '../types.js';
import type { VerifiedCallback } from '../verify-core.js';
import { type CallbackCoreResult, type FlowSettings, hookTimeoutMsOf, JSON_TYPE, utf8Length } from './flow-kit.js';

export async function handleHook<E extends CallbackEvent, H extends HookCallbackRequest>(
  settings: FlowSettings<E, H>,
  verified: VerifiedCallback<H>,
  startedAt: number,
): Promise<CallbackCoreResult> {
  const { logger, defaultDecision, onHook } = settings;
  const request = verified.body;
  const timeoutMs = hookTimeoutMsOf(request.timeout_ms);
  const budgetMs = Math.floor(startedAt + timeoutMs - settings.safetyMs - settings.clock());
  const fields = { hook: verified.hook, requestId: verified.requestId };
  const answer = (decision: HookDecision, why?: string) => hookAnswer(settings, fields, decision, why);

  if (!onHook) {
    logger.warn?.('hook received but no onHook handler is configured; answering the default decision', fields);
    return answer(defaultDecision, 'no_handler');
  }
  if (budgetMs <= 0) {
    logger.warn?.('no time left for onHook; answering the default decision', { ...fields, timeoutMs });
    return answer(defaultDecision, 'timeout');
  }

  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), budgetMs);
  });
  try {
    const result = await Promise.race([
      Promise.resolve().then(() => onHook(request, { verified, signal: controller.signal, budgetMs })),
      timedOut,
    ]);
    if (result === 'timeout') {
      controller.abort();
      logger.warn?.('onHook did not answer in time; answering the default decision', { ...fields, budgetMs });
      return answer(defaultDecision, 'timeout');
    }
    if (!isHookDecision(result)) {
      logger.error?.(
        'onHook returned something that is not allow()/reject()/rewrite(); answering the default decision',
        fields,
      );
      return answer(defaultDecision, 'invalid_decision');
    }
    return answer(result);
  } catch (err) {
    logger.error?.('onHook threw; answering the default decision', { ...fields, error: errorText(err) });
    return answer(defaultDecision, 'handler_failed');
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

/** The answer of `decision`, or of the default decision when it cannot be written or is over 64 KB. */
function hookAnswer<E extends CallbackEvent, H extends HookCallbackRequest>(
  settings: FlowSettings<E, H>,
  fields: Record<string, unknown>,
  decision: HookDecision,
  why?: string,
): CallbackCoreResult {
  const { logger, defaultDecision } = settings;
  const extra: Record<string, string> = why ? { 'x-im-hook-fallback': why } : {};
  if (decision === defaultDecision)
    return { status: 200, headers: { ...JSON_TYPE, ...extra }, body: settings.defaultAnswer };
  let text: string;
  try {
    text = JSON.stringify(settings.answerFormat.encode(decision));
  } catch (err) {
    logger.error?.('hook decision is not serialisable to JSON; answering the default decision', {
      ...fields,
      error: errorText(err),
    });
    return hookAnswer(settings, fields, defaultDecision, 'unserialisable');
  }
  if (text === undefined) {
    logger.error?.('hook decision serialises to nothing; answering the default decision', fields);
    return hookAnswer(settings, fields, defaultDecision, 'unserialisable');
  }
  if (utf8Length(text) > MAX_HOOK_ANSWER_BYTES) {
    logger.error?.('hook answer exceeds 64 KB; answering the default decision', { ...fields, bytes: utf8Length(text) });
    return hookAnswer(settings, fields, defaultDecision, 'too_large');
  }
  return { status: 200, headers: { ...JSON_TYPE, ...extra }, body: text };
}
