/**
 * The callbacks spec's delivery numbers → the model the delivery simulator's constants are
 * emitted from. Where each value lives is its extension module's (extensions/x-delivery.ts,
 * x-limits.ts, x-answer.ts); this file only says which value feeds which constant. Each keeps
 * where it was read and the spec's `x-assumed` note (spec-value.ts). Pure.
 */
import { verifyAnswerReader } from './extensions/x-answer.js';
import { deliveryReader } from './extensions/x-delivery.js';
import { limitReader } from './extensions/x-limits.js';
import type { SpecValue } from './spec-value.js';

export type { SpecValue } from './spec-value.js';

export interface DeliveryRulesModel {
  retryWaitsSeconds: SpecValue<number[]>;
  jitterPercent: SpecValue<number>;
  maxSends: SpecValue<number>;
  giveUpAfterHours: SpecValue<number>;
  retryAfterStatuses: SpecValue<number[]>;
  retryAfterCapSeconds: SpecValue<number>;
  breakerConsecutiveFailures: SpecValue<number>;
  breakerInitialPauseSeconds: SpecValue<number>;
  breakerPauseMultiplier: SpecValue<number>;
  breakerMaxPauseSeconds: SpecValue<number>;
  autoDisableAfterHours: SpecValue<number>;
  autoDisableFailureWithinHours: SpecValue<number>;
  readBytes: { event: SpecValue<number>; hook: SpecValue<number>; verify: SpecValue<number> };
  maxBatchBytes: SpecValue<number>;
  verifyWaitSeconds: SpecValue<number>;
  onePerRequestFromSend: SpecValue<number>;
  eventsPerBatch: { min: SpecValue<number>; max: SpecValue<number> };
  timeoutMs: { min: SpecValue<number>; max: SpecValue<number> };
  concurrency: { min: SpecValue<number>; max: SpecValue<number> };
  ratePerSecond: { min: SpecValue<number>; max: SpecValue<number> };
  /** Defaults of the address settings the seed gives (events per batch is the simulator's own choice). */
  settingDefaults: { timeoutMs: SpecValue<number>; concurrency: SpecValue<number>; ratePerSecond: SpecValue<number> };
  redeliveryWindowDays: SpecValue<number>;
  appRateCap: SpecValue<number>;
  maxAddresses: SpecValue<number>;
  bestEffortTypes: SpecValue<string[]>;
}

export function buildDeliveryRules(doc: any, source: string): DeliveryRulesModel {
  const { d, bytesAssumed, jitterAssumed } = deliveryReader(doc, source);
  const limit = limitReader(doc, source);
  const range = (path: string) => ({ min: d<number>(`${path}.min`), max: d<number>(`${path}.max`) });
  return {
    retryWaitsSeconds: d('retry.waitsSeconds', 'numbers'),
    jitterPercent: d('retry.jitterPercent', 'number', jitterAssumed),
    maxSends: d('retry.maxSends'),
    giveUpAfterHours: d('retry.withinHours'),
    retryAfterStatuses: d('retry.retryAfter.statuses', 'numbers'),
    retryAfterCapSeconds: d('retry.retryAfter.capSeconds'),
    breakerConsecutiveFailures: d('circuitBreaker.consecutiveFailures'),
    breakerInitialPauseSeconds: d('circuitBreaker.initialPauseSeconds'),
    breakerPauseMultiplier: d('circuitBreaker.pauseMultiplier'),
    breakerMaxPauseSeconds: d('circuitBreaker.maxPauseSeconds'),
    autoDisableAfterHours: d('warnings.autoDisableAfterHoursWithoutSuccess'),
    autoDisableFailureWithinHours: d('warnings.autoDisableRequiresFailureWithinLastHours'),
    readBytes: {
      event: d('answerReadLimits.eventBytes', 'number', bytesAssumed),
      hook: d('answerReadLimits.hookBytes', 'number', bytesAssumed),
      verify: d('answerReadLimits.verifyBytes', 'number', bytesAssumed),
    },
    maxBatchBytes: d('batching.maxBodyBytes', 'number', bytesAssumed),
    verifyWaitSeconds: verifyAnswerReader(doc, source)('withinSeconds'),
    onePerRequestFromSend: d('batching.onePerRequestFromSend'),
    eventsPerBatch: range('batching.eventsPerRequest'),
    timeoutMs: { min: limit('event timeout', 'minMs'), max: limit('event timeout', 'maxMs') },
    concurrency: range('concurrency'),
    ratePerSecond: range('rateLimit'),
    settingDefaults: {
      timeoutMs: limit('event timeout', 'defaultMs'),
      concurrency: d('concurrency.default'),
      ratePerSecond: d('rateLimit.requestsPerSecondDefault'),
    },
    redeliveryWindowDays: d('redelivery.failureTimeWindowMaxDays'),
    appRateCap: d('rateLimit.applicationCapDefault'),
    maxAddresses: limit('addresses per application', 'max'),
    bestEffortTypes: d('bestEffort.types', 'strings'),
  };
}
