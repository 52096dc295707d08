/**
 * The options of `simulateDelivery` (simulate.ts), checked and resolved: every option is refused
 * with its name and rule before anything is sent, then turned into the run's settings and its
 * seeded delivery plan.
 */
import { randomBytes } from 'node:crypto';
import { assumedHookAnswer, checkHookAnswerFormat } from '../decisions.js';
import type { HookAnswerFormat } from '../decisions.js';
import type { CallbackSignatureScheme } from '../signature-scheme.js';
import { isLoopbackUrl } from '../url.js';
import { checkScheme } from '../verify-core.js';
import { buildPlan } from './plan.js';
import type { DeliveryPlan } from './plan.js';
import type { ReceiverState } from './report.js';
import { DEFAULT_SETTLE_QUIET_MS, DEFAULT_SETTLE_TIMEOUT_MS } from './settle.js';
import { MAX_ADDRESSES, SETTING_DEFAULTS, SETTING_RANGES } from './rules.js';

export interface SimulateDeliveryOptions {
  /** The receiver; two (up to 5) addresses get every event each, with the same ids. Loopback only unless `allowRemote`. */
  url: string | readonly string[];
  /**
   * The address signing secret, or one per address in `url` order (each address has its own,
   * seed 001 §2.1). Never printed or reported.
   */
  secret: string | readonly string[];
  /** Rotation: during the grace period requests carry two signatures (new, old). One, or one per address. */
  oldSecret?: string | readonly string[];
  /**
   * How requests are signed: default `imSignatureV1` (ASSUMED: seed 001 §5 does not show the
   * algorithm); `standardWebhooksSignature` or your own scheme, the one your receiver verifies with.
   */
  signature?: CallbackSignatureScheme;
  /** How hook answers are read (default `assumedHookAnswer`, `{"decision": …}`, ASSUMED): the format your receiver answers in. */
  hookAnswer?: HookAnswerFormat;
  /** Simulated length of the rotation grace period from the start. ASSUMED default 1 h (seed: not shown). */
  rotationGraceMs?: number;
  /** Fixes the plan (events, order, batches, duplicates, losses, jitter). Default: random, reported. */
  seed?: number;
  /** Simulated ms per real ms. Default 1000. */
  timeScale?: number;
  /** Divides the answer timeouts (verify 5 s, event timeout, hook timeout_ms). Default 1 (real). */
  timeoutScale?: number;
  /** Events created. Default 100. */
  events?: number;
  /** Address setting "events per batch", 1 to 100. Default 10 (the service's default is 1). */
  eventsPerBatch?: number;
  /** Address timeout for event answers, 1000 to 10000 ms. Default 5000. */
  timeoutMs?: number;
  /** Simultaneous event requests per address, 1 to 50. Default 10. */
  concurrency?: number;
  /** Requests per second per address, 1 to 1000. Default 100 (all addresses together at most 500). */
  ratePerSecond?: number;
  duplicateRate?: number;
  bestEffortLossRate?: number;
  truncatedRate?: number;
  /** Synchronous callbacks sent to the first address. Default 3. */
  hooks?: number;
  /** timeout_ms of the hooks. ASSUMED default 3000 (seed: not shown). */
  hookTimeoutMs?: number;
  /** The hook's setting when the receiver fails or is late. Default allow-on-failure (the seed's advice to start with). */
  hookPolicy?: 'allow-on-failure' | 'reject-on-failure';
  /** GET → ReceiverState JSON, served by the receiver's test harness. */
  stateUrl?: string;
  /** Or the same, in process. */
  observe?: () => ReceiverState | Promise<ReceiverState>;
  allowRemote?: boolean;
  /** Stop (report marked incomplete) after this many real ms. Default 600 000. */
  maxRealMs?: number;
  /**
   * Longest real wait, after the last delivery, for the receiver's state (`stateUrl` / `observe`)
   * to settle before the report: read every 100 ms until every delivered event is processed or
   * superseded and the state stays the same for a quarter of `settleQuietMs`, or until it does not
   * change for `settleQuietMs`. Default 60 000 ms.
   */
  settleMs?: number;
  /** How long the receiver's state must stay the same to count as settled. Default 2 000 ms. */
  settleQuietMs?: number;
  app?: string;
}

/** The options as the run uses them: checked, defaults applied, one secret per address. */
export interface RunSettings {
  seed: number;
  timeScale: number;
  timeoutScale: number;
  timeoutMs: number;
  concurrency: number;
  ratePerSecond: number;
  hookPolicy: 'allow-on-failure' | 'reject-on-failure';
  maxRealMs: number;
  settleMs: number;
  settleQuietMs: number;
  rotationGraceMs: number;
  app: string;
  secrets: string[];
  oldSecrets: string[] | undefined;
  observe: (() => Promise<ReceiverState>) | undefined;
  signature: CallbackSignatureScheme | undefined;
  hookAnswer: HookAnswerFormat;
}

/** What the event counts of the report are measured against. */
export interface RunShape {
  eventsPerBatch: number;
  events: number;
  hooks: number;
  hookTimeoutMs: number;
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

/** The addresses, settings and seeded plan of a run; throws RangeError / TypeError naming the option. */
export function resolveSimulation(options: SimulateDeliveryOptions): {
  urls: URL[];
  plan: DeliveryPlan;
  settings: RunSettings;
  shape: RunShape;
} {
  const urls = typeof options.url === 'string' ? [options.url] : [...options.url];
  if (urls.length < 1 || urls.length > MAX_ADDRESSES)
    throw new RangeError(`simulateDelivery: url must name 1 to ${MAX_ADDRESSES} addresses (seed 001 §8)`);
  const parsed = urls.map((u, i) => {
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
  const secrets = perAddress('secret', options.secret, urls.length);
  const oldSecrets =
    options.oldSecret === undefined ? undefined : perAddress('oldSecret', options.oldSecret, urls.length);
  const timeScale = options.timeScale ?? 1000;
  if (!(timeScale >= 1 && timeScale <= 10_000_000))
    throw new RangeError(`simulateDelivery: timeScale must be from 1 to 10000000, got ${String(options.timeScale)}`);
  const timeoutScale = options.timeoutScale ?? 1;
  if (!(timeoutScale >= 1 && timeoutScale <= 100))
    throw new RangeError(`simulateDelivery: timeoutScale must be from 1 to 100, got ${String(options.timeoutScale)}`);
  const seed = options.seed ?? randomBytes(4).readUInt32BE(0);
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)
    throw new RangeError('simulateDelivery: seed must be a whole number from 0 to 4294967295');
  const eventsPerBatch = intIn('eventsPerBatch', options.eventsPerBatch, 10, SETTING_RANGES.eventsPerBatch);
  const timeoutMs = intIn('timeoutMs', options.timeoutMs, SETTING_DEFAULTS.timeoutMs, SETTING_RANGES.timeoutMs);
  const concurrency = intIn(
    'concurrency',
    options.concurrency,
    SETTING_DEFAULTS.concurrency,
    SETTING_RANGES.concurrency,
  );
  const ratePerSecond = intIn(
    'ratePerSecond',
    options.ratePerSecond,
    SETTING_DEFAULTS.ratePerSecond,
    SETTING_RANGES.ratePerSecond,
  );
  const eventCount = intIn('events', options.events, 100, [1, 100_000]);
  const hookCount = intIn('hooks', options.hooks, 3, [0, 1000]);
  const hookTimeoutMs = intIn('hookTimeoutMs', options.hookTimeoutMs, 3000, [100, 60_000]);
  const hookPolicy = options.hookPolicy ?? 'allow-on-failure';
  if (hookPolicy !== 'allow-on-failure' && hookPolicy !== 'reject-on-failure')
    throw new TypeError('simulateDelivery: hookPolicy must be allow-on-failure or reject-on-failure');
  const maxRealMs = options.maxRealMs ?? 600_000;
  const settleMs = options.settleMs ?? DEFAULT_SETTLE_TIMEOUT_MS;
  const settleQuietMs = options.settleQuietMs ?? DEFAULT_SETTLE_QUIET_MS;
  if (!(settleMs >= 0 && settleMs <= 3_600_000))
    throw new RangeError(`simulateDelivery: settleMs must be from 0 to 3600000 ms, got ${String(options.settleMs)}`);
  if (!(settleQuietMs >= 1 && settleQuietMs <= 600_000))
    throw new RangeError(
      `simulateDelivery: settleQuietMs must be from 1 to 600000 ms, got ${String(options.settleQuietMs)}`,
    );
  if (options.signature !== undefined) checkScheme(options.signature);
  if (options.hookAnswer !== undefined) checkHookAnswerFormat(options.hookAnswer);
  const signature = options.signature;
  for (const [i, secret] of [...secrets, ...(oldSecrets ?? [])].entries()) {
    const problem = signature?.checkSecret?.(secret);
    if (problem !== undefined)
      throw new TypeError(
        `simulateDelivery: secret ${i + 1} does not suit the signature scheme ${signature!.name}: ${problem}`,
      );
  }
  const rotationGraceMs = options.rotationGraceMs ?? 3_600_000;
  const app = options.app ?? 'sim-org#sim-app';

  const plan = buildPlan({
    seed,
    events: eventCount,
    eventsPerBatch,
    duplicateRate: rate('duplicateRate', options.duplicateRate, 0.1),
    bestEffortLossRate: rate('bestEffortLossRate', options.bestEffortLossRate, 0.1),
    truncatedRate: rate('truncatedRate', options.truncatedRate, 0.05),
    hooks: hookCount,
    hookTimeoutMs,
  });
  return {
    urls: parsed,
    plan,
    settings: {
      seed,
      timeScale,
      timeoutScale,
      timeoutMs,
      concurrency,
      ratePerSecond,
      hookPolicy,
      maxRealMs,
      settleMs,
      settleQuietMs,
      rotationGraceMs,
      app,
      secrets,
      oldSecrets,
      observe: observerOf(options),
      signature,
      hookAnswer: options.hookAnswer ?? assumedHookAnswer,
    },
    shape: { eventsPerBatch, events: eventCount, hooks: hookCount, hookTimeoutMs },
  };
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
