/**
 * `simulateDelivery`: drives a receiver the way seed 001 says the service does, on a
 * compressible clock, and reports what happened and what the receiver got wrong.
 *
 * Time: at time scale S every simulated wait (retry table, Retry-After, breaker pause, the 24 h
 * give-up, duplicate delays) takes 1/S of its real length, and every real millisecond counts as S
 * simulated ones (request durations included). Answer TIMEOUTS are real by default
 * (`timeoutScale` 1): the receiver's own budgets are real, and a 5 s wait compressed 1000× (5 ms)
 * would fail any receiver. The requests-per-second and concurrency limits are real too: they
 * protect the receiver, whose capacity does not compress.
 */
import { randomBytes } from 'node:crypto';
import { maskUrlQuery } from '../../internal/redact.js';
import { assumedHookAnswer, checkHookAnswerFormat } from '../decisions.js';
import type { HookAnswerFormat } from '../decisions.js';
import { signCallbackRequestWith } from '../sign.js';
import { imSignatureV1 } from '../signature-node.js';
import type { CallbackSignatureScheme } from '../signature-scheme.js';
import { isLoopbackUrl } from '../url.js';
import { checkScheme } from '../verify-core.js';
import { sendCallback } from './http-send.js';
import type { SendResult } from './http-send.js';
import { buildPlan } from './plan.js';
import type { DeliveryPlan, PlannedEvent, PlannedHook } from './plan.js';
import type { AddressRecord, EventRecord, ReceiverState, RequestRecord, SimulationFinding, SimulationReport } from './report.js';
import { DEFAULT_SETTLE_QUIET_MS, DEFAULT_SETTLE_TIMEOUT_MS, observeUntilSettled } from './settle.js';
import type { SettleResult } from './settle.js';
import {
  APP_RATE_CAP,
  AUTO_DISABLE_AFTER_MS,
  AUTO_DISABLE_FAILURE_WITHIN_MS,
  BREAKER_FIRST_PAUSE_MS,
  BREAKER_MAX_PAUSE_MS,
  BREAKER_PAUSE_MULTIPLIER,
  BREAKER_THRESHOLD,
  CircuitBreaker,
  formatDuration,
  GIVE_UP_AFTER_MS,
  jitterFactor,
  MAX_ADDRESSES,
  MAX_RETRY_AFTER_MS,
  MAX_SENDS,
  RateWindow,
  READ_LIMIT,
  REDELIVERY_WINDOW_MS,
  RETRY_AFTER_STATUSES,
  retryWaitMs,
  SETTING_DEFAULTS,
  SETTING_RANGES,
  SINGLE_FROM_SEND,
  VERIFY_TIMEOUT_MS,
} from './rules.js';

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

interface Address {
  index: number;
  url: URL;
  endpointId: string;
  state: AddressRecord['state'];
  breaker: CircuitBreaker;
  rate: RateWindow;
  inFlight: number;
  units: Unit[];
  lastSuccessAt?: number;
  lastFailureAt?: number;
}

interface Item {
  ev: PlannedEvent;
  address: Address;
  sends: number;
  duplicateSends: number;
  state: 'pending' | 'delivered' | 'failed' | 'not_created';
  reason?: string;
  lastStatus?: number;
}

interface Unit {
  key: string;
  items: Item[];
  send: number;
  dueAt: number;
  duplicate?: boolean;
}

function intIn(name: string, v: number | undefined, fallback: number, [min, max]: readonly [number, number]): number {
  const n = v ?? fallback;
  if (!Number.isInteger(n) || n < min || n > max) throw new RangeError(`simulateDelivery: ${name} must be a whole number from ${min} to ${max} (seed 001 §2.1/§8), got ${String(v)}`);
  return n;
}

function rate(name: string, v: number | undefined, fallback: number): number {
  const n = v ?? fallback;
  if (typeof n !== 'number' || !(n >= 0 && n <= 1)) throw new RangeError(`simulateDelivery: ${name} must be a number from 0 to 1, got ${String(v)}`);
  return n;
}

/**
 * Drives the receiver at `url` the way seed 001 says the service delivers (verification, batches,
 * retries, the breaker, duplicates, lost and truncated events, hooks) on a fast clock, then judges
 * it once its state (`stateUrl` / `observe`) settles. Signs with `imSignatureV1` by default, an
 * ASSUMED scheme (seed 001 §5 does not show the algorithm), and reads hook answers as
 * `{"decision": …}` (ASSUMED): pass `signature` (e.g. `standardWebhooksSignature`) and `hookAnswer`
 * as your receiver has them.
 */
export async function simulateDelivery(options: SimulateDeliveryOptions): Promise<SimulationReport> {
  const urls = typeof options.url === 'string' ? [options.url] : [...options.url];
  if (urls.length < 1 || urls.length > MAX_ADDRESSES) throw new RangeError(`simulateDelivery: url must name 1 to ${MAX_ADDRESSES} addresses (seed 001 §8)`);
  const parsed = urls.map((u, i) => {
    let url: URL;
    try {
      url = new URL(u);
    } catch {
      throw new TypeError(`simulateDelivery: url[${i}] is not a URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`simulateDelivery: url[${i}] must be http or https`);
    if (url.username || url.password) throw new TypeError(`simulateDelivery: url[${i}] must not contain user:password (seed 001 §2.2)`);
    if (!options.allowRemote && !isLoopbackUrl(url)) throw new TypeError(`simulateDelivery: url[${i}] is not loopback (${url.hostname}); pass allowRemote to drive a remote receiver`);
    return url;
  });
  const secrets = perAddress('secret', options.secret, urls.length);
  const oldSecrets = options.oldSecret === undefined ? undefined : perAddress('oldSecret', options.oldSecret, urls.length);
  const timeScale = options.timeScale ?? 1000;
  if (!(timeScale >= 1 && timeScale <= 10_000_000)) throw new RangeError(`simulateDelivery: timeScale must be from 1 to 10000000, got ${String(options.timeScale)}`);
  const timeoutScale = options.timeoutScale ?? 1;
  if (!(timeoutScale >= 1 && timeoutScale <= 100)) throw new RangeError(`simulateDelivery: timeoutScale must be from 1 to 100, got ${String(options.timeoutScale)}`);
  const seed = options.seed ?? randomBytes(4).readUInt32BE(0);
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new RangeError('simulateDelivery: seed must be a whole number from 0 to 4294967295');
  const eventsPerBatch = intIn('eventsPerBatch', options.eventsPerBatch, 10, SETTING_RANGES.eventsPerBatch);
  const timeoutMs = intIn('timeoutMs', options.timeoutMs, SETTING_DEFAULTS.timeoutMs, SETTING_RANGES.timeoutMs);
  const concurrency = intIn('concurrency', options.concurrency, SETTING_DEFAULTS.concurrency, SETTING_RANGES.concurrency);
  const ratePerSecond = intIn('ratePerSecond', options.ratePerSecond, SETTING_DEFAULTS.ratePerSecond, SETTING_RANGES.ratePerSecond);
  const eventCount = intIn('events', options.events, 100, [1, 100_000]);
  const hookCount = intIn('hooks', options.hooks, 3, [0, 1000]);
  const hookTimeoutMs = intIn('hookTimeoutMs', options.hookTimeoutMs, 3000, [100, 60_000]);
  const hookPolicy = options.hookPolicy ?? 'allow-on-failure';
  if (hookPolicy !== 'allow-on-failure' && hookPolicy !== 'reject-on-failure') throw new TypeError('simulateDelivery: hookPolicy must be allow-on-failure or reject-on-failure');
  const maxRealMs = options.maxRealMs ?? 600_000;
  const settleMs = options.settleMs ?? DEFAULT_SETTLE_TIMEOUT_MS;
  const settleQuietMs = options.settleQuietMs ?? DEFAULT_SETTLE_QUIET_MS;
  if (!(settleMs >= 0 && settleMs <= 3_600_000)) throw new RangeError(`simulateDelivery: settleMs must be from 0 to 3600000 ms, got ${String(options.settleMs)}`);
  if (!(settleQuietMs >= 1 && settleQuietMs <= 600_000)) throw new RangeError(`simulateDelivery: settleQuietMs must be from 1 to 600000 ms, got ${String(options.settleQuietMs)}`);
  if (options.signature !== undefined) checkScheme(options.signature);
  if (options.hookAnswer !== undefined) checkHookAnswerFormat(options.hookAnswer);
  const signature = options.signature;
  for (const [i, secret] of [...secrets, ...(oldSecrets ?? [])].entries()) {
    const problem = signature?.checkSecret?.(secret);
    if (problem !== undefined) throw new TypeError(`simulateDelivery: secret ${i + 1} does not suit the signature scheme ${signature!.name}: ${problem}`);
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
  const observe = observerOf(options);
  const run = new Run(plan, parsed, {
    seed, timeScale, timeoutScale, timeoutMs, concurrency, ratePerSecond, hookPolicy, maxRealMs, settleMs, settleQuietMs, rotationGraceMs, app,
    secrets, oldSecrets, observe, signature, hookAnswer: options.hookAnswer ?? assumedHookAnswer,
  });
  return run.execute({ eventsPerBatch, events: eventCount, hooks: hookCount, hookTimeoutMs });
}

/** One secret for every address, or exactly one per address; the message never quotes a value. */
function perAddress(name: string, value: string | readonly string[], addresses: number): string[] {
  const list = typeof value === 'string' ? Array.from({ length: addresses }, () => value) : [...value];
  if (list.length !== addresses) throw new TypeError(`simulateDelivery: ${name} must be one string or one per address (${addresses}), got ${list.length}`);
  if (list.some((v) => typeof v !== 'string' || v.length === 0)) throw new TypeError(`simulateDelivery: ${name} must be non-empty strings`);
  return list;
}

function observerOf(options: SimulateDeliveryOptions): (() => Promise<ReceiverState>) | undefined {
  if (options.observe) {
    const fn = options.observe;
    return async () => fn();
  }
  if (!options.stateUrl) return undefined;
  const url = new URL(options.stateUrl);
  if (!options.allowRemote && !isLoopbackUrl(url)) throw new TypeError('simulateDelivery: stateUrl is not loopback; pass allowRemote');
  return async () => {
    const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
    if (!res.ok) throw new Error(`stateUrl answered ${res.status}`);
    return (await res.json()) as ReceiverState;
  };
}

interface RunSettings {
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

class Run {
  /** Real start of the run (limits, report) … */
  private readonly runStarted = performance.now();
  /**
   * … and the origin of the simulated clock, moved to the end of URL verification: events are
   * created once the address is normal (§3), so the first connection's warm-up is no service time.
   */
  private started = performance.now();
  private readonly addresses: Address[];
  private readonly items: Item[] = [];
  private readonly requests: RequestRecord[] = [];
  private readonly findings = new Map<string, SimulationFinding>();
  private readonly appRate = new RateWindow(APP_RATE_CAP);
  private readonly hooksDue: PlannedHook[];
  private readonly eventsById: Map<string, PlannedEvent>;
  private inFlight = 0;
  private wake: (() => void) | undefined;
  private lateGraces: Array<Promise<void>> = [];
  private complete = true;

  constructor(
    private readonly plan: DeliveryPlan,
    urls: URL[],
    private readonly s: RunSettings,
  ) {
    this.addresses = urls.map((url, index) => ({
      index,
      url,
      endpointId: `ep_sim_${index + 1}`,
      state: 'pending verification',
      breaker: new CircuitBreaker(),
      rate: new RateWindow(s.ratePerSecond),
      inFlight: 0,
      units: [],
    }));
    this.hooksDue = [...plan.hooks].sort((a, b) => a.atMs - b.atMs);
    this.eventsById = new Map(plan.events.map((e) => [e.id, e]));
  }

  private simNow(): number {
    return (performance.now() - this.started) * this.s.timeScale;
  }

  private realNow(): number {
    return performance.now() - this.runStarted;
  }

  private finding(code: SimulationFinding['code'], severity: SimulationFinding['severity'], message: string, example?: string): void {
    const f = this.findings.get(code) ?? { code, severity, message, count: 0, examples: [] };
    f.count++;
    if (example !== undefined && f.examples.length < 10 && !f.examples.includes(example)) f.examples.push(example);
    this.findings.set(code, f);
  }

  async execute(shape: { eventsPerBatch: number; events: number; hooks: number; hookTimeoutMs: number }): Promise<SimulationReport> {
    await Promise.all(this.addresses.map((a) => this.verify(a)));
    this.started = performance.now();
    for (const a of this.addresses) {
      for (const batch of this.plan.batches) {
        const items = batch.map((id) => {
          const item: Item = { ev: this.eventsById.get(id)!, address: a, sends: 0, duplicateSends: 0, state: a.state === 'normal' ? 'pending' : 'not_created' };
          this.items.push(item);
          return item;
        });
        // §3: events created while the address waits for verification are never sent later.
        if (a.state === 'normal') a.units.push({ key: `batch:${batch[0]}`, items, send: 1, dueAt: Math.max(...items.map((i) => i.ev.queuedAtMs)) });
      }
    }
    if (this.addresses[0]!.state !== 'normal') {
      // §3: a hook bound to an address pending verification gets no request and is handled as a failure.
      for (const h of this.hooksDue) {
        const decision = this.s.hookPolicy === 'allow-on-failure' ? 'allow (policy)' : 'reject (policy)';
        this.requests.push({ n: this.requests.length + 1, address: 0, kind: 'hook', requestId: '', notSent: true, atMs: h.atMs, outcome: 'failed', reason: 'address_pending_verification', durationMs: 0, decision });
      }
      this.hooksDue.length = 0;
    }
    await this.loop();
    await Promise.all(this.lateGraces);
    const settled = await this.observeFinal();
    return this.report(shape, settled);
  }

  // ---- sending ----------------------------------------------------------------------------

  private secretsOf(a: Address): string[] {
    const secret = this.s.secrets[a.index]!;
    const old = this.s.oldSecrets?.[a.index];
    return old !== undefined && this.simNow() < this.s.rotationGraceMs ? [secret, old] : [secret];
  }

  private async post(a: Address, kind: 'verify' | 'event' | 'hook', body: Record<string, unknown>, timeoutMs: number, readLimit: number): Promise<{ result: SendResult; requestId: string; atMs: number }> {
    const requestId = `req_sim_${randomBytes(8).toString('hex')}`;
    const full = { kind, request_id: requestId, app: this.s.app, endpoint_id: a.endpointId, sent_at: new Date().toISOString(), ...body };
    const atMs = this.simNow(); // when the send starts (a scheme may sign asynchronously)
    const signed = await signCallbackRequestWith({ body: full, secrets: this.secretsOf(a), kind, ...(this.s.signature ? { signature: this.s.signature } : {}) });
    const t = timeoutMs / this.s.timeoutScale;
    const result = await sendCallback({ url: a.url, headers: signed.headers, body: typeof signed.body === 'string' ? signed.body : Buffer.from(signed.body).toString('utf8'), timeoutMs: t, readLimit, lateGraceMs: Math.max(t, 250) });
    return { result, requestId, atMs };
  }

  private failureReason(r: SendResult): string | undefined {
    if (r.error === 'timeout') return 'timeout';
    if (r.error === 'connection') return 'connection';
    const st = r.status ?? 0;
    if (st >= 300 && st < 400) return 'redirect';
    if (st < 200 || st >= 300) return `status_${st}`;
    return undefined;
  }

  /** Common findings of any answer; a timeout's is judged once its grace is over (late answer or none). */
  private judgeAnswer(r: SendResult, rec: RequestRecord, timeoutMs: number): void {
    const requestId = rec.requestId;
    if (r.error === 'timeout') {
      const t = timeoutMs / this.s.timeoutScale;
      this.lateGraces.push(
        (r.late ?? Promise.resolve()).then(() => {
          if (r.lateAnswerMs !== undefined) {
            rec.lateAnswerMs = r.lateAnswerMs;
            this.finding('answered_after_timeout', 'error', `answered after the ${t} ms timeout: the service had already counted a failure and will send again`, requestId);
          } else this.finding('no_answer', 'error', `no answer within the ${t} ms timeout (nor within a grace as long again)`, requestId);
        }),
      );
    } else if (r.error === 'connection') {
      this.finding('connection_failed', 'error', 'connection failed', requestId);
    } else if (r.status !== undefined && r.status >= 300 && r.status < 400) {
      this.finding('redirect', 'error', 'answered 3xx: the service follows no redirect and counts a failure (reason redirect, §2.2)', requestId);
    } else if (r.status === 401 || r.status === 403) {
      this.finding('signature_rejected', 'error', `answered ${r.status} to a correctly signed request (wrong secret, or a rotation's second signature not accepted?)`, requestId);
    }
  }

  private async verify(a: Address): Promise<void> {
    const challenge = randomBytes(16).toString('hex');
    const { result, requestId, atMs } = await this.post(a, 'verify', { challenge }, VERIFY_TIMEOUT_MS, READ_LIMIT.verify);
    let reason = this.failureReason(result);
    if (reason === undefined) {
      let echoed: unknown;
      try {
        echoed = (JSON.parse(result.body) as { challenge?: unknown }).challenge;
      } catch {
        echoed = undefined;
      }
      if (echoed !== challenge) {
        reason = 'wrong_challenge';
        this.finding('verify_wrong_challenge', 'error', `URL verification: the answer's challenge is not the one sent${result.overLimit ? ' (the answer is over 4 KB: only 4 KB is read)' : ''}; the address stays pending verification and no event is delivered (§3)`, requestId);
      }
    } else if (reason === 'timeout') {
      this.finding('verify_timeout', 'error', 'URL verification not answered within 5 s: the address stays pending verification', requestId);
    } else {
      this.finding('verify_failed', 'error', `URL verification failed (${reason}): the address stays pending verification`, requestId);
    }
    const rec: RequestRecord = { n: this.requests.length + 1, address: a.index, kind: 'verify', requestId, atMs: Math.round(atMs), ...(result.status !== undefined ? { status: result.status } : {}), outcome: reason ? 'failed' : 'ok', ...(reason ? { reason } : {}), durationMs: result.durationMs };
    this.requests.push(rec);
    this.judgeAnswer(result, rec, VERIFY_TIMEOUT_MS);
    if (!reason) a.state = 'normal';
  }

  private eventBody(item: Item, attempt: number): Record<string, unknown> {
    const e = item.ev;
    // occurred_at follows creation order (100 ms apart, before the run): newer version, later time.
    const occurred = new Date(Math.floor(this.wallStart) - (this.plan.events.length - e.created) * 100).toISOString();
    const data = { ...e.data };
    if (Array.isArray(data.members)) data.members = (data.members as Array<Record<string, unknown>>).map((m) => ({ ...m, joined_at: occurred }));
    return { id: e.id, type: e.type, occurred_at: occurred, attempt, test: false, data };
  }

  private readonly wallStart = Date.now();

  private launch(a: Address, unit: Unit, probe: boolean): void {
    a.inFlight++;
    this.inFlight++;
    a.rate.take(this.realNow());
    this.appRate.take(this.realNow());
    for (const item of unit.items) {
      item.sends++;
      if (unit.duplicate) item.duplicateSends++;
    }
    const body = { events: unit.items.map((i) => this.eventBody(i, i.sends)) };
    void this.post(a, 'event', body, this.s.timeoutMs, READ_LIMIT.event)
      .then(async ({ result, requestId, atMs }) => {
        const reason = this.failureReason(result);
        const now = this.simNow();
        const rec: RequestRecord = {
          n: this.requests.length + 1, address: a.index, kind: 'event', requestId, eventIds: unit.items.map((i) => i.ev.id), send: unit.send,
          ...(unit.duplicate ? { duplicate: true } : {}), ...(probe ? { probe: true } : {}), atMs: Math.round(atMs),
          ...(result.status !== undefined ? { status: result.status } : {}), outcome: reason ? 'failed' : 'ok', ...(reason ? { reason } : {}),
          durationMs: result.durationMs,
        };
        this.requests.push(rec);
        this.judgeAnswer(result, rec, this.s.timeoutMs);
        a.breaker.record(reason === undefined, probe, now);
        for (const item of unit.items) if (result.status !== undefined) item.lastStatus = result.status;
        if (reason === undefined) {
          a.lastSuccessAt = now;
          if (result.overLimit) this.finding('event_answer_over_limit', 'info', 'event answer over 16 KB: the service reads 16 KB and ignores the body; answer with an empty body', requestId);
          await this.checkStored(unit, requestId);
          for (const item of unit.items) {
            if (item.state === 'pending') {
              item.state = 'delivered';
              if (item.ev.duplicateAfterMs !== undefined) a.units.push({ key: `dup:${item.ev.id}`, items: [item], send: item.sends + 1, dueAt: now + item.ev.duplicateAfterMs, duplicate: true });
            }
          }
        } else {
          a.lastFailureAt = now;
          if (result.status !== undefined && result.status >= 400 && result.status !== 401 && result.status !== 403) {
            this.finding('error_status', RETRY_AFTER_STATUSES.includes(result.status) ? 'info' : 'warning', 'answered 4xx/5xx: the service retries on the §8 schedule', requestId);
          }
          // A duplicate of a delivered event is not retried: the event is already delivered.
          if (!unit.duplicate) this.retry(a, unit, result, rec, now);
        }
      })
      .finally(() => {
        a.inFlight--;
        this.inFlight--;
        this.wake?.();
      });
  }

  private retry(a: Address, unit: Unit, result: SendResult, rec: RequestRecord, now: number): void {
    const answer = result.status !== undefined ? { status: result.status, retryAfter: result.retryAfter, nowEpochMs: Date.now() } : undefined;
    const alive: Item[] = [];
    for (const item of unit.items) {
      if (item.sends >= MAX_SENDS) {
        item.state = 'failed';
        item.reason = `${MAX_SENDS} sends`;
        continue;
      }
      alive.push(item);
    }
    if (alive.length === 0) return;
    // §4.2: a failed batch is retried whole (send 2); from the third send on one event per request.
    const together = unit.send + 1 < SINGLE_FROM_SEND;
    const groups = together ? [{ key: unit.key, items: alive }] : alive.map((i) => ({ key: i.ev.id, items: [i] }));
    for (const g of groups) {
      const wait = retryWaitMs(unit.send, jitterFactor(this.s.seed, g.key, unit.send), answer)!;
      rec.nextWaitMs = wait.waitMs;
      if (wait.retryAfterMs !== undefined) {
        rec.retryAfterMs = wait.retryAfterMs;
        this.finding('retry_after', 'info', `Retry-After honoured: the next send waits the larger of Retry-After (at most ${formatDuration(MAX_RETRY_AFTER_MS)}) and the §8 table`, rec.requestId);
      }
      const dueAt = now + wait.waitMs;
      const keep: Item[] = [];
      for (const item of g.items) {
        if (dueAt - item.ev.queuedAtMs >= GIVE_UP_AFTER_MS) {
          item.state = 'failed';
          item.reason = `${formatDuration(GIVE_UP_AFTER_MS)} without success: the next send would come after the deadline`;
        } else keep.push(item);
      }
      if (keep.length > 0) a.units.push({ key: g.key, items: keep, send: unit.send + 1, dueAt });
    }
  }

  private async checkStored(unit: Unit, requestId: string): Promise<void> {
    if (!this.s.observe || unit.duplicate) return;
    let state: ReceiverState;
    try {
      state = await this.s.observe();
    } catch {
      return;
    }
    const stored = new Set([...(state.stored ?? []), ...Object.keys(state.processed ?? {}), ...(state.superseded ?? [])]);
    for (const item of unit.items) {
      if (item.state === 'pending' && !stored.has(item.ev.id)) {
        this.finding('acknowledged_before_storing', 'error', 'answered 2xx before the event was stored (seed §4.2: store, then answer): a crash now loses it', `${item.ev.id} (${requestId})`);
      }
    }
  }

  private async hook(h: PlannedHook): Promise<void> {
    const a = this.addresses[0]!;
    this.inFlight++;
    try {
      const { result, requestId, atMs } = await this.post(a, 'hook', { hook: h.hook, timeout_ms: h.timeoutMs, test: false, data: h.data }, h.timeoutMs, READ_LIMIT.hook);
      let reason = this.failureReason(result);
      let decision: string | undefined;
      if (reason === undefined) {
        if (result.overLimit) reason = 'answer_over_64KB';
        else {
          let answer: unknown;
          try {
            answer = JSON.parse(result.body);
          } catch {
            reason = 'invalid_json';
          }
          if (reason === undefined) {
            const d = this.s.hookAnswer.decode(answer);
            if (d) decision = d.decision;
            else reason = 'no_decision';
          }
        }
      }
      if (reason !== undefined) {
        decision = this.s.hookPolicy === 'allow-on-failure' ? 'allow (policy)' : 'reject (policy)';
        this.finding('hook_failed', 'error', `synchronous callback failed (one request, no retry): the operation got the ${this.s.hookPolicy} policy`, `${requestId} ${reason}`);
      }
      const rec: RequestRecord = { n: this.requests.length + 1, address: 0, kind: 'hook', requestId, atMs: Math.round(atMs), ...(result.status !== undefined ? { status: result.status } : {}), outcome: reason ? 'failed' : 'ok', ...(reason ? { reason } : {}), durationMs: result.durationMs, ...(decision ? { decision } : {}) };
      this.requests.push(rec);
      this.judgeAnswer(result, rec, h.timeoutMs);
    } finally {
      this.inFlight--;
      this.wake?.();
    }
  }

  // ---- the scheduler ---------------------------------------------------------------------

  private async loop(): Promise<void> {
    for (;;) {
      if (this.realNow() > this.s.maxRealMs) {
        this.complete = false;
        if (this.inFlight === 0) return;
      }
      const now = this.simNow();
      let nextAt = Number.POSITIVE_INFINITY;
      while (this.complete && this.hooksDue.length > 0 && this.hooksDue[0]!.atMs <= now) void this.hook(this.hooksDue.shift()!);
      if (this.hooksDue.length > 0) nextAt = Math.min(nextAt, this.hooksDue[0]!.atMs);
      for (const a of this.addresses) {
        if (a.state !== 'normal' || !this.complete) continue;
        this.autoDisable(a, now);
        if (a.state !== 'normal') continue;
        a.units.sort((x, y) => x.dueAt - y.dueAt || (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
        while (a.units.length > 0 && a.units[0]!.dueAt <= now) {
          if (a.inFlight >= this.s.concurrency) break;
          const wait = Math.max(a.rate.waitMs(this.realNow()), this.appRate.waitMs(this.realNow()));
          if (wait > 0) {
            nextAt = Math.min(nextAt, now + wait * this.s.timeScale);
            break;
          }
          const admit = a.breaker.admit(now);
          if (!admit.ok) {
            if (a.breaker.openUntil !== undefined && !a.breaker.probing) nextAt = Math.min(nextAt, a.breaker.openUntil);
            break;
          }
          this.launch(a, a.units.shift()!, admit.probe);
        }
        // Held by the concurrency limit or an unanswered probe: the answer wakes the loop (no spinning).
        const held = a.inFlight >= this.s.concurrency || a.breaker.probing;
        if (a.units.length > 0 && !held) nextAt = Math.min(nextAt, Math.max(a.units[0]!.dueAt, a.breaker.openUntil ?? 0));
      }
      const pending = this.addresses.some((a) => a.state === 'normal' && a.units.length > 0) || this.hooksDue.length > 0;
      if (this.inFlight === 0 && (!pending || !this.complete)) return;
      const realWait = Number.isFinite(nextAt) ? Math.max(0, (nextAt - this.simNow()) / this.s.timeScale) : this.s.maxRealMs;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, Math.min(realWait, Math.max(1, this.s.maxRealMs - this.realNow() + 1)));
        function done(): void {
          clearTimeout(timer);
          resolve();
        }
        this.wake = done;
      });
      this.wake = undefined;
    }
  }

  /** §3: AUTO_DISABLE_AFTER_MS without success and a failure within AUTO_DISABLE_FAILURE_WITHIN_MS → auto-disabled; queued events fail. */
  private autoDisable(a: Address, now: number): void {
    if (a.lastFailureAt === undefined || now - (a.lastSuccessAt ?? 0) < AUTO_DISABLE_AFTER_MS || now - a.lastFailureAt > AUTO_DISABLE_FAILURE_WITHIN_MS) return;
    a.state = 'auto-disabled';
    this.finding('auto_disabled', 'error', `${formatDuration(AUTO_DISABLE_AFTER_MS)} without a success and a failure in the last ${formatDuration(AUTO_DISABLE_FAILURE_WITHIN_MS)}: the service auto-disables the address (§3)`, a.endpointId);
    for (const u of a.units) for (const i of u.items) if (i.state === 'pending') Object.assign(i, { state: 'failed', reason: 'address auto-disabled' });
    a.units.length = 0;
  }

  // ---- the end ---------------------------------------------------------------------------

  /** The receiver's state once it settles (settle.ts): every delivered event handled, or no more change, or settleMs. */
  private async observeFinal(): Promise<SettleResult | undefined> {
    if (!this.s.observe) return undefined;
    const delivered = new Set(this.items.filter((i) => i.state === 'delivered').map((i) => i.ev.id));
    return observeUntilSettled(this.s.observe, delivered, { quietMs: this.s.settleQuietMs, timeoutMs: this.s.settleMs });
  }

  private report(shape: { eventsPerBatch: number; events: number; hooks: number; hookTimeoutMs: number }, settled: SettleResult | undefined): SimulationReport {
    const state = settled?.state;
    const deliveredIds = new Set(this.items.filter((i) => i.state === 'delivered').map((i) => i.ev.id));
    for (const item of this.items) if (item.state === 'pending') Object.assign(item, { state: 'pending', reason: 'run ended' });
    const failed = this.items.filter((i) => i.state === 'failed');
    for (const i of failed) this.finding('gave_up', 'error', `the service gave up on these events (${MAX_SENDS} sends or ${formatDuration(GIVE_UP_AFTER_MS)} without success); a manual redelivery is possible for ${formatDuration(REDELIVERY_WINDOW_MS)}`, `${i.ev.id} (${i.reason})`);
    for (const a of this.addresses) {
      if (a.breaker.openings > 0) this.finding('breaker_opened', 'warning', `after ${BREAKER_THRESHOLD} consecutive failures sending paused (${formatDuration(BREAKER_FIRST_PAUSE_MS)}, then one probe; a failed probe multiplies the pause by ${BREAKER_PAUSE_MULTIPLIER} up to ${formatDuration(BREAKER_MAX_PAUSE_MS)})`, `${a.endpointId}: ${a.breaker.openings}×`);
    }
    if (state) {
      const processed = state.processed ?? {};
      for (const [id, n] of Object.entries(processed)) {
        if (n > 1) this.finding('processed_twice', 'error', 'the same event id was processed more than once (deduplicate by event id, §6 rule 1)', `${id} ×${n}`);
      }
      const superseded = new Set(state.superseded ?? []);
      for (const id of deliveredIds) {
        if ((processed[id] ?? 0) > 0 || superseded.has(id)) continue;
        this.finding('acknowledged_not_processed', 'error', 'acknowledged with 2xx but neither processed nor reported superseded: the event is lost (the service will not send it again); an ordering guard that skips older events reports those in `superseded`', id);
      }
      if (settled?.outcome === 'timeout' && settled.unhandled.length > 0) {
        this.finding('receiver_not_settled', 'warning', `the receiver's state still lacked ${settled.unhandled.length} delivered event(s) when the settle wait (${formatDuration(this.s.settleMs)}) ran out: raise settleMs (--settle-timeout-ms) if it is still working`, settled.unhandled[0]);
      }
      const newest = new Map<string, number>();
      for (const id of deliveredIds) {
        const e = this.eventsById.get(id)!;
        if (e.entity !== undefined && e.version !== undefined) newest.set(e.entity, Math.max(newest.get(e.entity) ?? 0, e.version));
      }
      for (const [key, id] of Object.entries(state.current ?? {})) {
        const e = this.eventsById.get(id);
        if (e?.entity === undefined || e.version === undefined) continue;
        const top = newest.get(e.entity) ?? 0;
        if (top > e.version) this.finding('older_over_newer', 'error', 'older state written over newer: the current state comes from an event with a lower version than one delivered (§6 rule 2)', `${key}: v${e.version} < v${top}`);
      }
    }
    // each event's deliveries (one item per address), grouped in one pass over the items
    const itemsOf = new Map<PlannedEvent, Item[]>();
    for (const i of this.items) {
      const list = itemsOf.get(i.ev);
      if (list) list.push(i);
      else itemsOf.set(i.ev, [i]);
    }
    const events: EventRecord[] = this.plan.events.map((e) => ({
      id: e.id,
      type: e.type,
      ...(e.entity !== undefined ? { entity: e.entity, version: e.version } : {}),
      lost: e.lost,
      truncated: e.truncated,
      deliveries: (itemsOf.get(e) ?? []).map((i) => ({ address: i.address.index, sends: i.sends, state: i.state, ...(i.reason ? { reason: i.reason } : {}), ...(i.lastStatus !== undefined ? { lastStatus: i.lastStatus } : {}), duplicateSends: i.duplicateSends })),
    }));
    const order: Record<string, number> = { error: 0, warning: 1, info: 2 };
    const count = (f: (i: Item) => boolean): number => this.items.filter(f).length;
    return {
      seed: this.s.seed,
      settings: {
        timeScale: this.s.timeScale, timeoutScale: this.s.timeoutScale, events: shape.events, eventsPerBatch: shape.eventsPerBatch,
        timeoutMs: this.s.timeoutMs, concurrency: this.s.concurrency, ratePerSecond: this.s.ratePerSecond, hooks: shape.hooks,
        hookTimeoutMs: shape.hookTimeoutMs, hookPolicy: this.s.hookPolicy, rotation: this.s.oldSecrets !== undefined,
        signature: (this.s.signature ?? imSignatureV1).name, hookAnswer: this.s.hookAnswer.name,
      },
      realMs: Math.round(this.realNow()),
      simulatedMs: Math.round(this.simNow()),
      complete: this.complete,
      addresses: this.addresses.map((a) => ({ index: a.index, url: maskUrlQuery(a.url.href), endpointId: a.endpointId, state: a.state, breakerOpenings: a.breaker.openings, breakerPausesMs: [...a.breaker.pauses] })),
      totals: {
        requests: this.requests.length,
        failedRequests: this.requests.filter((r) => r.outcome === 'failed').length,
        delivered: count((i) => i.state === 'delivered'),
        failed: count((i) => i.state === 'failed'),
        notCreated: count((i) => i.state === 'not_created'),
        pending: count((i) => i.state === 'pending'),
        lost: this.plan.events.filter((e) => e.lost).length,
        truncated: this.plan.events.filter((e) => e.truncated).length,
        duplicateSends: this.items.reduce((n, i) => n + i.duplicateSends, 0),
      },
      findings: [...this.findings.values()].sort((x, y) => order[x.severity]! - order[y.severity]! || x.code.localeCompare(y.code)),
      events,
      requests: this.requests,
      plan: { queueOrder: this.plan.queueOrder, batches: this.plan.batches, hooks: this.plan.hooks.map((h) => ({ id: h.id, atMs: h.atMs })) },
      receiverReport: state !== undefined,
      ...(settled ? { settle: { outcome: settled.outcome, waitedMs: settled.waitedMs } } : {}),
    };
  }
}
