/**
 * The callbacks spec's delivery numbers (`x-delivery`, `x-limits`, the verify answer) → the
 * model the delivery simulator's constants are emitted from. Each value keeps where it was read
 * (for the doc comment) and the spec's `x-assumed` note that covers it, so an assumption stays
 * marked in the generated code. Pure; a missing or mistyped value is a SpecError naming its path.
 */
import { SpecError, quoted } from './spec-error.js';

/** A value read from the spec: `at` is a readable path (`operations.receiveEvent.x-delivery.…`). */
export interface SpecValue<T> {
  value: T;
  at: string;
  /** The `x-assumed` text the spec gives for this value, if any. */
  assumed?: string;
}

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

type Rule = 'number' | 'numbers' | 'strings';

export function buildDeliveryRules(doc: any, source: string): DeliveryRulesModel {
  const delivery = doc?.operations?.receiveEvent?.['x-delivery'];
  const D = 'operations.receiveEvent.x-delivery';
  // the spec reads every *Bytes value in binary units: that reading is its assumption
  const bytesAssumed = note(delivery?.byteUnits);
  const read = <T>(root: unknown, rootPath: string, rootPointer: string, path: string, rule: Rule, assumed?: string) =>
    readSpecValue<T>(source, root, rootPath, rootPointer, path, rule, assumed);
  const d = <T>(path: string, rule: Rule = 'number', assumed?: string) =>
    read<T>(delivery, D, '/operations/receiveEvent/x-delivery', path, rule, assumed);
  const limits: unknown[] = Array.isArray(doc?.['x-limits']) ? doc['x-limits'] : [];
  /** A row of `x-limits` (section 8), found by its `limit` text. */
  const limit = (name: string, path: string) => {
    const index = limits.findIndex((r: any) => r?.limit === name);
    return read<number>(
      limits[index],
      `x-limits[limit=${name}]`,
      `/x-limits/${index < 0 ? limits.length : index}`,
      path,
      'number',
    );
  };
  const range = (path: string) => ({ min: d<number>(`${path}.min`), max: d<number>(`${path}.max`) });
  return {
    retryWaitsSeconds: d('retry.waitsSeconds', 'numbers'),
    jitterPercent: d('retry.jitterPercent', 'number', note(delivery?.retry?.jitter)),
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
    verifyWaitSeconds: read(
      doc?.operations?.receiveVerify?.reply?.['x-answer'],
      'operations.receiveVerify.reply.x-answer',
      '/operations/receiveVerify/reply/x-answer',
      'withinSeconds',
      'number',
    ),
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

/** The value at `path` under `root`, checked against `rule` (refused naming the spec path), with where it comes from. */
function readSpecValue<T>(
  source: string,
  root: unknown,
  rootPath: string,
  rootPointer: string,
  path: string,
  rule: Rule,
  assumed?: string,
): SpecValue<T> {
  let v: any = root;
  for (const key of path.split('.')) v = v?.[key];
  const at = `${rootPath}.${path}`;
  const ok =
    rule === 'number'
      ? isNumber(v)
      : Array.isArray(v) &&
        v.length > 0 &&
        v.every(rule === 'numbers' ? isNumber : (s: unknown) => typeof s === 'string');
  if (!ok)
    throw new SpecError(
      `${rootPointer}/${path.split('.').join('/')}`,
      'delivery-rule',
      `${source}: ${at} must be ${rule === 'number' ? 'a number' : rule === 'numbers' ? 'a non-empty list of numbers' : 'a non-empty list of strings'} (the delivery simulator reads it), found ${quoted(v)}`,
      `write ${rule === 'number' ? 'a number' : rule === 'numbers' ? 'a list of numbers' : 'a list of strings'} there, as the callbacks seed gives it`,
      source,
    );
  return { value: (Array.isArray(v) ? [...v] : v) as T, at, ...(assumed ? { assumed } : {}) };
}

function isNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

function note(node: unknown): string | undefined {
  const text = (node as Record<string, unknown> | undefined)?.['x-assumed'];
  return typeof text === 'string' ? text : undefined;
}
