/**
 * Emits `src/callbacks/simulator/delivery-rules.ts`: the callbacks spec's delivery numbers as
 * plain constants (times in ms, sizes in bytes), so the delivery simulator follows the spec and
 * keeps no copy of the seed's numbers. Each constant's doc comment names the spec path it comes
 * from and repeats the spec's `x-assumed` note where the value rests on one.
 * The same text is checked in as templates/runtime/callbacks/simulator/delivery-rules.ts (the
 * runtime type-checks and is tested there); `npm run generate` rewrites it.
 */
import type { CallbackModel } from '../build-callback-model.js';
import type { DeliveryRulesModel, SpecValue } from '../build-delivery-rules.js';
import { DELIVERY_RULES_FILE } from './emit-runtime-copy.js';
import { doNotEditHeader } from './source-file.js';
import { doc, docComment, docJoin, type DocText, stringLiteral } from './spec-text.js';

const SECOND = 1000;
const HOUR = 3600 * SECOND;

const ms = (v: SpecValue<number>, unit: number) => String(v.value * unit);
const range = (x: { min: SpecValue<number>; max: SpecValue<number> }) => `[${x.min.value}, ${x.max.value}]`;

/** Writes one constant: its name, type (or '' for the literal's), value code, doc and the spec values it comes from. */
type AddConstant = (name: string, type: string, value: string, what: DocText, from: Array<SpecValue<unknown>>) => void;

export function emitDeliveryRules(model: CallbackModel): Map<string, string> {
  const r = model.delivery;
  const out: string[] = [
    doNotEditHeader(model.source),
    '/**\n * The delivery rules of the callbacks spec, as numbers for the delivery simulator (rules.ts):\n * times in ms, sizes in bytes.\n */\n',
  ];
  const add: AddConstant = (name, type, value, what, from) => {
    const lines = [
      what,
      doc`Spec: ${docJoin(
        [...new Set(from.map((v) => v.at))].map((at) => doc`\`${at}\``),
        ', ',
      )}.`,
    ];
    for (const assumed of new Set(from.map((v) => v.assumed).filter((a): a is string => a !== undefined)))
      lines.push(doc`ASSUMED (x-assumed in the spec): ${assumed}`);
    out.push(`${docComment(docJoin(lines, '\n'))}\nexport const ${name}${type ? `: ${type}` : ''} = ${value};\n`);
  };
  for (const rules of [sendRules, breakerRules, limitRules, applicationRules]) rules(r, add);
  return new Map([[`src/${DELIVERY_RULES_FILE}`, out.join('\n')]]);
}

/** The waits between sends, when an event is given up, and Retry-After. */
function sendRules(r: DeliveryRulesModel, add: AddConstant): void {
  add(
    'RETRY_TABLE_MS',
    'readonly number[]',
    `[${r.retryWaitsSeconds.value.map((s) => s * SECOND).join(', ')}]`,
    doc`The wait after failure 1, 2, … before the next send.`,
    [r.retryWaitsSeconds],
  );
  add(
    'RETRY_JITTER',
    '',
    String(r.jitterPercent.value / 100),
    doc`Each wait is varied randomly by this fraction either way.`,
    [r.jitterPercent],
  );
  add('MAX_SENDS', '', String(r.maxSends.value), doc`An event is failed after this many sends …`, [r.maxSends]);
  add('GIVE_UP_AFTER_MS', '', ms(r.giveUpAfterHours, HOUR), doc`… or this long after queueing without success.`, [
    r.giveUpAfterHours,
  ]);
  add(
    'RETRY_AFTER_STATUSES',
    'readonly number[]',
    `[${r.retryAfterStatuses.value.join(', ')}]`,
    doc`Answers whose Retry-After header is honoured.`,
    [r.retryAfterStatuses],
  );
  add('MAX_RETRY_AFTER_MS', '', ms(r.retryAfterCapSeconds, SECOND), doc`Retry-After is honoured up to this.`, [
    r.retryAfterCapSeconds,
  ]);
}

/** The circuit breaker and the auto-disable of an address. */
function breakerRules(r: DeliveryRulesModel, add: AddConstant): void {
  add(
    'BREAKER_THRESHOLD',
    '',
    String(r.breakerConsecutiveFailures.value),
    doc`Circuit breaker: after this many consecutive failures sending pauses …`,
    [r.breakerConsecutiveFailures],
  );
  add(
    'BREAKER_FIRST_PAUSE_MS',
    '',
    ms(r.breakerInitialPauseSeconds, SECOND),
    doc`… first for this long, then one probe request.`,
    [r.breakerInitialPauseSeconds],
  );
  add(
    'BREAKER_PAUSE_MULTIPLIER',
    '',
    String(r.breakerPauseMultiplier.value),
    doc`A failed probe multiplies the pause by this …`,
    [r.breakerPauseMultiplier],
  );
  add('BREAKER_MAX_PAUSE_MS', '', ms(r.breakerMaxPauseSeconds, SECOND), doc`… up to this pause.`, [
    r.breakerMaxPauseSeconds,
  ]);
  add('AUTO_DISABLE_AFTER_MS', '', ms(r.autoDisableAfterHours, HOUR), doc`Auto-disable: this long without success …`, [
    r.autoDisableAfterHours,
  ]);
  add(
    'AUTO_DISABLE_FAILURE_WITHIN_MS',
    '',
    ms(r.autoDisableFailureWithinHours, HOUR),
    doc`… and a failure within this last stretch of time.`,
    [r.autoDisableFailureWithinHours],
  );
}

/** What the service reads and sends per request, and the address settings. */
function limitRules(r: DeliveryRulesModel, add: AddConstant): void {
  add(
    'READ_LIMIT',
    "Readonly<Record<'event' | 'hook' | 'verify', number>>",
    `{ event: ${r.readBytes.event.value}, hook: ${r.readBytes.hook.value}, verify: ${r.readBytes.verify.value} }`,
    doc`Answer bytes the service reads, per kind of request.`,
    [r.readBytes.event, r.readBytes.hook, r.readBytes.verify],
  );
  add('MAX_BATCH_BYTES', '', String(r.maxBatchBytes.value), doc`Request body limit of a batch.`, [r.maxBatchBytes]);
  add('VERIFY_TIMEOUT_MS', '', ms(r.verifyWaitSeconds, SECOND), doc`URL verification wait.`, [r.verifyWaitSeconds]);
  add(
    'SINGLE_FROM_SEND',
    '',
    String(r.onePerRequestFromSend.value),
    doc`From this send on, events go one per request.`,
    [r.onePerRequestFromSend],
  );
  add(
    'SETTING_RANGES',
    "Readonly<Record<'eventsPerBatch' | 'timeoutMs' | 'concurrency' | 'ratePerSecond', readonly [number, number]>>",
    `{ eventsPerBatch: ${range(r.eventsPerBatch)}, timeoutMs: ${range(r.timeoutMs)}, concurrency: ${range(r.concurrency)}, ratePerSecond: ${range(r.ratePerSecond)} }`,
    doc`Address settings ranges, [min, max] (timeoutMs in ms, ratePerSecond in requests per second).`,
    [
      r.eventsPerBatch.min,
      r.eventsPerBatch.max,
      r.timeoutMs.min,
      r.timeoutMs.max,
      r.concurrency.min,
      r.concurrency.max,
      r.ratePerSecond.min,
      r.ratePerSecond.max,
    ],
  );
  const defaults = r.settingDefaults;
  add(
    'SETTING_DEFAULTS',
    "Readonly<Record<'timeoutMs' | 'concurrency' | 'ratePerSecond', number>>",
    `{ timeoutMs: ${defaults.timeoutMs.value}, concurrency: ${defaults.concurrency.value}, ratePerSecond: ${defaults.ratePerSecond.value} }`,
    doc`Address settings defaults (timeoutMs in ms, ratePerSecond in requests per second).`,
    [defaults.timeoutMs, defaults.concurrency, defaults.ratePerSecond],
  );
}

/** Redelivery by hand, the application caps and the best-effort event types. */
function applicationRules(r: DeliveryRulesModel, add: AddConstant): void {
  add(
    'REDELIVERY_WINDOW_MS',
    '',
    ms(r.redeliveryWindowDays, 24 * HOUR),
    doc`A failed event can be redelivered by hand for this long.`,
    [r.redeliveryWindowDays],
  );
  add(
    'APP_RATE_CAP',
    '',
    String(r.appRateCap.value),
    doc`Application cap of requests per second over all addresses (the default).`,
    [r.appRateCap],
  );
  add('MAX_ADDRESSES', '', String(r.maxAddresses.value), doc`At most this many addresses per application.`, [
    r.maxAddresses,
  ]);
  add(
    'BEST_EFFORT_TYPES',
    'ReadonlySet<string>',
    `new Set([${r.bestEffortTypes.value.map((t) => stringLiteral(t)).join(', ')}])`,
    doc`Best-effort event types: buffered in memory about 1 s and lost on a crash or a full buffer, never replayed.`,
    [r.bestEffortTypes],
  );
}
