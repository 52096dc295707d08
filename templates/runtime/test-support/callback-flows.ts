/** Settings and verified callbacks for the flow tests (`callbacks/flows/*.test.ts`): what the handler would pass them. */
import { allow, assumedHookAnswer } from '../callbacks/decisions.js';
import type { FlowSettings } from '../callbacks/flows/flow-kit.js';
import type { CallbackEvent, HookCallbackRequest } from '../callbacks/types.js';
import type { VerifiedCallback } from '../callbacks/verify-core.js';
import { MemoryDedupeStore } from '../stores/dedupe-store.js';

/** Settings as the handler builds them, with a logger that keeps what it is told. */
export function flowSettings(more: Partial<FlowSettings<CallbackEvent, HookCallbackRequest>> = {}) {
  const logged: { level: string; message: string; fields?: unknown }[] = [];
  const log = (level: string) => (message: string, fields?: unknown) => logged.push({ level, message, fields });
  const defaultDecision = allow();
  const settings: FlowSettings<CallbackEvent, HookCallbackRequest> = {
    dedupeStore: new MemoryDedupeStore(),
    dedupeTtlMs: 60_000,
    processingTtlMs: 60_000,
    storeTimeoutMs: 2_000,
    safetyMs: 250,
    answerFormat: assumedHookAnswer,
    defaultDecision,
    defaultAnswer: JSON.stringify(assumedHookAnswer.encode(defaultDecision)),
    logger: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') },
    clock: Date.now,
    ...more,
  };
  return { settings, logged };
}

export function verifiedOf<R>(kind: string, body: R, more: Partial<VerifiedCallback> = {}): VerifiedCallback<never> {
  return {
    kind,
    body,
    timestamp: 0,
    skewSeconds: 0,
    requestId: 'req-1',
    endpointId: undefined,
    nonce: 'n',
    secretIndex: 0,
    disagreements: [],
    ...more,
  } as never;
}
