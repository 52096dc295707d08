/**
 * The options of `simulateDelivery` (simulate-options.ts) checked and resolved: every option is
 * refused with its name and rule (a RangeError / TypeError; no message quotes a secret) before
 * anything is sent, then turned into the run's settings and its seeded delivery plan.
 */
import { randomBytes } from 'node:crypto';
import { assumedHookAnswer, checkHookAnswerFormat } from '../decisions.js';
import type { CallbackSignatureScheme } from '../signature-scheme.js';
import { isLoopbackUrl } from '../url.js';
import { checkScheme } from '../verify-core.js';
import { buildPlan } from './plan.js';
import type { DeliveryPlan } from './plan.js';
import type { ReceiverState } from './report.js';
import { MAX_ADDRESSES, SETTING_DEFAULTS, SETTING_RANGES } from './rules.js';
import { DEFAULT_SETTLE_QUIET_MS, DEFAULT_SETTLE_TIMEOUT_MS } from './settle.js';
import type { RunSettings, RunShape, SimulateDeliveryOptions } from './simulate-options.js';

/** The addresses, settings and seeded plan of a run; throws RangeError / TypeError naming the option. */
export function resolveSimulation(options: SimulateDeliveryOptions): {
  urls: URL[];
  plan: DeliveryPlan;
  settings: RunSettings;
  shape: RunShape;
} {
  // The checks run in the order of the options' documentation; the first problem is thrown.
  const urls = checkedUrls(options);
  const secrets = perAddress('secret', options.secret, urls.length);
  const oldSecrets =
    options.oldSecret === undefined ? undefined : perAddress('oldSecret', options.oldSecret, urls.length);
  const clock = checkedClock(options);
  const address = checkedAddressSettings(options);
  const eventCount = intIn('events', options.events, 100, [1, 100_000]);
  const hooks = checkedHooks(options);
  const limits = checkedLimits(options);
  const signature = checkedSigning(options, [...secrets, ...(oldSecrets ?? [])]);
  const plan = buildPlan({
    seed: clock.seed,
    events: eventCount,
    eventsPerBatch: address.eventsPerBatch,
    duplicateRate: rate('duplicateRate', options.duplicateRate, 0.1),
    bestEffortLossRate: rate('bestEffortLossRate', options.bestEffortLossRate, 0.1),
    truncatedRate: rate('truncatedRate', options.truncatedRate, 0.05),
    hooks: hooks.hookCount,
    hookTimeoutMs: hooks.hookTimeoutMs,
  });
  return {
    urls,
    plan,
    settings: {
      ...clock,
      timeoutMs: address.timeoutMs,
      concurrency: address.concurrency,
      ratePerSecond: address.ratePerSecond,
      hookPolicy: hooks.hookPolicy,
      ...limits,
      rotationGraceMs: options.rotationGraceMs ?? 3_600_000,
      app: options.app ?? 'sim-org#sim-app',
      secrets,
      oldSecrets,
      observe: observerOf(options),
      signature,
      hookAnswer: options.hookAnswer ?? assumedHookAnswer,
    },
    shape: {
      eventsPerBatch: address.eventsPerBatch,
      events: eventCount,
      hooks: hooks.hookCount,
      hookTimeoutMs: hooks.hookTimeoutMs,
    },
  };
}

function intIn(name: string, v: number | undefined, fallback: number, [min, max]: readonly [number, number]): number {
  const n = v ?? fallback;
  if (!Number.isInteger(n) || n < min || n > max)
    throw new RangeError(
      `simulateDelivery: ${name} must be a whole number from ${min} to ${max} (seed 001 §2.1/§8), got ${String(v)}`,
    );
  return n;
}

function rate(name: string, v: number | undefined, fallback: number): number {
  const n = v ?? fallback;
  if (typeof n !== 'number' || !(n >= 0 && n <= 1))
    throw new RangeError(`simulateDelivery: ${name} must be a number from 0 to 1, got ${String(v)}`);
  return n;
}

/** 1 to MAX_ADDRESSES http(s) URLs without credentials, loopback unless `allowRemote`. */
function checkedUrls(options: SimulateDeliveryOptions): URL[] {
  const urls = typeof options.url === 'string' ? [options.url] : [...options.url];
  if (urls.length < 1 || urls.length > MAX_ADDRESSES)
    throw new RangeError(`simulateDelivery: url must name 1 to ${MAX_ADDRESSES} addresses (seed 001 §8)`);
  return urls.map((u, i) => {
    let url: URL;
    try {
      url = new URL(u);
    } catch {
      throw new TypeError(`simulateDelivery: url[${i}] is not a URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new TypeError(`simulateDelivery: url[${i}] must be http or https`);
    if (url.username || url.password)
      throw new TypeError(`simulateDelivery: url[${i}] must not contain user:password (seed 001 §2.2)`);
    if (!options.allowRemote && !isLoopbackUrl(url))
      throw new TypeError(
        `simulateDelivery: url[${i}] is not loopback (${url.hostname}); pass allowRemote to drive a remote receiver`,
      );
    return url;
  });
}

/** The time scales and the plan's seed (random when not given). */
function checkedClock(options: SimulateDeliveryOptions): Pick<RunSettings, 'timeScale' | 'timeoutScale' | 'seed'> {
  const timeScale = options.timeScale ?? 1000;
  if (!(timeScale >= 1 && timeScale <= 10_000_000))
    throw new RangeError(`simulateDelivery: timeScale must be from 1 to 10000000, got ${String(options.timeScale)}`);
  const timeoutScale = options.timeoutScale ?? 1;
  if (!(timeoutScale >= 1 && timeoutScale <= 100))
    throw new RangeError(`simulateDelivery: timeoutScale must be from 1 to 100, got ${String(options.timeoutScale)}`);
  const seed = options.seed ?? randomBytes(4).readUInt32BE(0);
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)
    throw new RangeError('simulateDelivery: seed must be a whole number from 0 to 4294967295');
  return { seed, timeScale, timeoutScale };
}

/** The address settings of seed 001 §2.1, within their ranges. */
function checkedAddressSettings(options: SimulateDeliveryOptions): {
  eventsPerBatch: number;
  timeoutMs: number;
  concurrency: number;
  ratePerSecond: number;
} {
  const setting = (name: keyof typeof SETTING_DEFAULTS): number =>
    intIn(name, options[name], SETTING_DEFAULTS[name], SETTING_RANGES[name]);
  return {
    eventsPerBatch: intIn('eventsPerBatch', options.eventsPerBatch, 10, SETTING_RANGES.eventsPerBatch),
    timeoutMs: setting('timeoutMs'),
    concurrency: setting('concurrency'),
    ratePerSecond: setting('ratePerSecond'),
  };
}

function checkedHooks(options: SimulateDeliveryOptions): {
  hookCount: number;
  hookTimeoutMs: number;
  hookPolicy: RunSettings['hookPolicy'];
} {
  const hookCount = intIn('hooks', options.hooks, 3, [0, 1000]);
  const hookTimeoutMs = intIn('hookTimeoutMs', options.hookTimeoutMs, 3000, [100, 60_000]);
  const hookPolicy = options.hookPolicy ?? 'allow-on-failure';
  if (hookPolicy !== 'allow-on-failure' && hookPolicy !== 'reject-on-failure')
    throw new TypeError('simulateDelivery: hookPolicy must be allow-on-failure or reject-on-failure');
  return { hookCount, hookTimeoutMs, hookPolicy };
}

/** How long the run and the settle wait may take. */
function checkedLimits(
  options: SimulateDeliveryOptions,
): Pick<RunSettings, 'maxRealMs' | 'settleMs' | 'settleQuietMs'> {
  const maxRealMs = options.maxRealMs ?? 600_000;
  const settleMs = options.settleMs ?? DEFAULT_SETTLE_TIMEOUT_MS;
  const settleQuietMs = options.settleQuietMs ?? DEFAULT_SETTLE_QUIET_MS;
  if (!(settleMs >= 0 && settleMs <= 3_600_000))
    throw new RangeError(`simulateDelivery: settleMs must be from 0 to 3600000 ms, got ${String(options.settleMs)}`);
  if (!(settleQuietMs >= 1 && settleQuietMs <= 600_000))
    throw new RangeError(
      `simulateDelivery: settleQuietMs must be from 1 to 600000 ms, got ${String(options.settleQuietMs)}`,
    );
  return { maxRealMs, settleMs, settleQuietMs };
}

/** The signature scheme and hook answer format are well formed, and every secret suits the scheme. */
function checkedSigning(options: SimulateDeliveryOptions, allSecrets: string[]): CallbackSignatureScheme | undefined {
  if (options.signature !== undefined) checkScheme(options.signature);
  if (options.hookAnswer !== undefined) checkHookAnswerFormat(options.hookAnswer);
  const signature = options.signature;
  for (const [i, secret] of allSecrets.entries()) {
    const problem = signature?.checkSecret?.(secret);
    if (problem !== undefined)
      throw new TypeError(
        `simulateDelivery: secret ${i + 1} does not suit the signature scheme ${signature!.name}: ${problem}`,
      );
  }
  return signature;
}

/** One secret for every address, or exactly one per address; the message never quotes a value. */
function perAddress(name: string, value: string | readonly string[], addresses: number): string[] {
  const list = typeof value === 'string' ? Array.from({ length: addresses }, () => value) : [...value];
  if (list.length !== addresses)
    throw new TypeError(
      `simulateDelivery: ${name} must be one string or one per address (${addresses}), got ${list.length}`,
    );
  if (list.some((v) => typeof v !== 'string' || v.length === 0))
    throw new TypeError(`simulateDelivery: ${name} must be non-empty strings`);
  return list;
}

function observerOf(options: SimulateDeliveryOptions): (() => Promise<ReceiverState>) | undefined {
  if (options.observe) {
    const fn = options.observe;
    return async () => fn();
  }
  if (!options.stateUrl) return undefined;
  const url = new URL(options.stateUrl);
  if (!options.allowRemote && !isLoopbackUrl(url))
    throw new TypeError('simulateDelivery: stateUrl is not loopback; pass allowRemote');
  return async () => {
    const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
    if (!res.ok) throw new Error(`stateUrl answered ${res.status}`);
    return (await res.json()) as ReceiverState;
  };
}
