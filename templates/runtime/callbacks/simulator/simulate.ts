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
import { signCallbackRequestWith } from '../sign.js';
import { imSignatureV1 } from '../signature-node.js';
import { sendCallback } from './http-send.js';
import type { SendResult } from './http-send.js';
import type { DeliveryPlan, PlannedEvent, PlannedHook } from './plan.js';
import type {
  AddressRecord,
  EventRecord,
  ReceiverState,
  RequestRecord,
  SimulationFinding,
  SimulationReport,
} from './report.js';
import { observeUntilSettled } from './settle.js';
import type { SettleResult } from './settle.js';
import { resolveSimulation, type RunSettings, type SimulateDeliveryOptions } from './simulate-options.js';
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
  MAX_RETRY_AFTER_MS,
  MAX_SENDS,
  RateWindow,
  READ_LIMIT,
  REDELIVERY_WINDOW_MS,
  RETRY_AFTER_STATUSES,
  retryWaitMs,
  SINGLE_FROM_SEND,
  VERIFY_TIMEOUT_MS,
} from './rules.js';

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

/**
 * Drives the receiver at `url` the way seed 001 says the service delivers (verification, batches,
 * retries, the breaker, duplicates, lost and truncated events, hooks) on a fast clock, then judges
 * it once its state (`stateUrl` / `observe`) settles. Signs with `imSignatureV1` by default, an
 * ASSUMED scheme (seed 001 §5 does not show the algorithm), and reads hook answers as
 * `{"decision": …}` (ASSUMED): pass `signature` (e.g. `standardWebhooksSignature`) and `hookAnswer`
 * as your receiver has them.
 */
export async function simulateDelivery(options: SimulateDeliveryOptions): Promise<SimulationReport> {
  const { urls, plan, settings, shape } = resolveSimulation(options);
  return new Run(plan, urls, settings).execute(shape);
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

  private finding(
    code: SimulationFinding['code'],
    severity: SimulationFinding['severity'],
    message: string,
    example?: string,
  ): void {
    const f = this.findings.get(code) ?? { code, severity, message, count: 0, examples: [] };
    f.count++;
    if (example !== undefined && f.examples.length < 10 && !f.examples.includes(example)) f.examples.push(example);
    this.findings.set(code, f);
  }

  async execute(shape: {
    eventsPerBatch: number;
    events: number;
    hooks: number;
    hookTimeoutMs: number;
  }): Promise<SimulationReport> {
    await Promise.all(this.addresses.map((a) => this.verify(a)));
    this.started = performance.now();
    for (const a of this.addresses) {
      for (const batch of this.plan.batches) {
        const items = batch.map((id) => {
          const item: Item = {
            ev: this.eventsById.get(id)!,
            address: a,
            sends: 0,
            duplicateSends: 0,
            state: a.state === 'normal' ? 'pending' : 'not_created',
          };
          this.items.push(item);
          return item;
        });
        // §3: events created while the address waits for verification are never sent later.
        if (a.state === 'normal')
          a.units.push({
            key: `batch:${batch[0]}`,
            items,
            send: 1,
            dueAt: Math.max(...items.map((i) => i.ev.queuedAtMs)),
          });
      }
    }
    if (this.addresses[0]!.state !== 'normal') {
      // §3: a hook bound to an address pending verification gets no request and is handled as a failure.
      for (const h of this.hooksDue) {
        const decision = this.s.hookPolicy === 'allow-on-failure' ? 'allow (policy)' : 'reject (policy)';
        this.requests.push({
          n: this.requests.length + 1,
          address: 0,
          kind: 'hook',
          requestId: '',
          notSent: true,
          atMs: h.atMs,
          outcome: 'failed',
          reason: 'address_pending_verification',
          durationMs: 0,
          decision,
        });
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

  private async post(
    a: Address,
    kind: 'verify' | 'event' | 'hook',
    body: Record<string, unknown>,
    timeoutMs: number,
    readLimit: number,
  ): Promise<{ result: SendResult; requestId: string; atMs: number }> {
    const requestId = `req_sim_${randomBytes(8).toString('hex')}`;
    const full = {
      kind,
      request_id: requestId,
      app: this.s.app,
      endpoint_id: a.endpointId,
      sent_at: new Date().toISOString(),
      ...body,
    };
    const atMs = this.simNow(); // when the send starts (a scheme may sign asynchronously)
    const signed = await signCallbackRequestWith({
      body: full,
      secrets: this.secretsOf(a),
      kind,
      ...(this.s.signature ? { signature: this.s.signature } : {}),
    });
    const t = timeoutMs / this.s.timeoutScale;
    const result = await sendCallback({
      url: a.url,
      headers: signed.headers,
      body: typeof signed.body === 'string' ? signed.body : Buffer.from(signed.body).toString('utf8'),
      timeoutMs: t,
      readLimit,
      lateGraceMs: Math.max(t, 250),
    });
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
            this.finding(
              'answered_after_timeout',
              'error',
              `answered after the ${t} ms timeout: the service had already counted a failure and will send again`,
              requestId,
            );
          } else
            this.finding(
              'no_answer',
              'error',
              `no answer within the ${t} ms timeout (nor within a grace as long again)`,
              requestId,
            );
        }),
      );
    } else if (r.error === 'connection') {
      this.finding('connection_failed', 'error', 'connection failed', requestId);
    } else if (r.status !== undefined && r.status >= 300 && r.status < 400) {
      this.finding(
        'redirect',
        'error',
        'answered 3xx: the service follows no redirect and counts a failure (reason redirect, §2.2)',
        requestId,
      );
    } else if (r.status === 401 || r.status === 403) {
      this.finding(
        'signature_rejected',
        'error',
        `answered ${r.status} to a correctly signed request (wrong secret, or a rotation's second signature not accepted?)`,
        requestId,
      );
    }
  }

  private async verify(a: Address): Promise<void> {
    const challenge = randomBytes(16).toString('hex');
    const { result, requestId, atMs } = await this.post(
      a,
      'verify',
      { challenge },
      VERIFY_TIMEOUT_MS,
      READ_LIMIT.verify,
    );
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
        this.finding(
          'verify_wrong_challenge',
          'error',
          `URL verification: the answer's challenge is not the one sent${result.overLimit ? ' (the answer is over 4 KB: only 4 KB is read)' : ''}; the address stays pending verification and no event is delivered (§3)`,
          requestId,
        );
      }
    } else if (reason === 'timeout') {
      this.finding(
        'verify_timeout',
        'error',
        'URL verification not answered within 5 s: the address stays pending verification',
        requestId,
      );
    } else {
      this.finding(
        'verify_failed',
        'error',
        `URL verification failed (${reason}): the address stays pending verification`,
        requestId,
      );
    }
    const rec: RequestRecord = {
      n: this.requests.length + 1,
      address: a.index,
      kind: 'verify',
      requestId,
      atMs: Math.round(atMs),
      ...(result.status !== undefined ? { status: result.status } : {}),
      outcome: reason ? 'failed' : 'ok',
      ...(reason ? { reason } : {}),
      durationMs: result.durationMs,
    };
    this.requests.push(rec);
    this.judgeAnswer(result, rec, VERIFY_TIMEOUT_MS);
    if (!reason) a.state = 'normal';
  }

  private eventBody(item: Item, attempt: number): Record<string, unknown> {
    const e = item.ev;
    // occurred_at follows creation order (100 ms apart, before the run): newer version, later time.
    const occurred = new Date(Math.floor(this.wallStart) - (this.plan.events.length - e.created) * 100).toISOString();
    const data = { ...e.data };
    if (Array.isArray(data.members))
      data.members = (data.members as Array<Record<string, unknown>>).map((m) => ({ ...m, joined_at: occurred }));
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
          n: this.requests.length + 1,
          address: a.index,
          kind: 'event',
          requestId,
          eventIds: unit.items.map((i) => i.ev.id),
          send: unit.send,
          ...(unit.duplicate ? { duplicate: true } : {}),
          ...(probe ? { probe: true } : {}),
          atMs: Math.round(atMs),
          ...(result.status !== undefined ? { status: result.status } : {}),
          outcome: reason ? 'failed' : 'ok',
          ...(reason ? { reason } : {}),
          durationMs: result.durationMs,
        };
        this.requests.push(rec);
        this.judgeAnswer(result, rec, this.s.timeoutMs);
        a.breaker.record(reason === undefined, probe, now);
        for (const item of unit.items) if (result.status !== undefined) item.lastStatus = result.status;
        if (reason === undefined) {
          a.lastSuccessAt = now;
          if (result.overLimit)
            this.finding(
              'event_answer_over_limit',
              'info',
              'event answer over 16 KB: the service reads 16 KB and ignores the body; answer with an empty body',
              requestId,
            );
          await this.checkStored(unit, requestId);
          for (const item of unit.items) {
            if (item.state === 'pending') {
              item.state = 'delivered';
              if (item.ev.duplicateAfterMs !== undefined)
                a.units.push({
                  key: `dup:${item.ev.id}`,
                  items: [item],
                  send: item.sends + 1,
                  dueAt: now + item.ev.duplicateAfterMs,
                  duplicate: true,
                });
            }
          }
        } else {
          a.lastFailureAt = now;
          if (result.status !== undefined && result.status >= 400 && result.status !== 401 && result.status !== 403) {
            this.finding(
              'error_status',
              RETRY_AFTER_STATUSES.includes(result.status) ? 'info' : 'warning',
              'answered 4xx/5xx: the service retries on the §8 schedule',
              requestId,
            );
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
    const answer =
      result.status !== undefined
        ? { status: result.status, retryAfter: result.retryAfter, nowEpochMs: Date.now() }
        : undefined;
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
        this.finding(
          'retry_after',
          'info',
          `Retry-After honoured: the next send waits the larger of Retry-After (at most ${formatDuration(MAX_RETRY_AFTER_MS)}) and the §8 table`,
          rec.requestId,
        );
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
    const stored = new Set([
      ...(state.stored ?? []),
      ...Object.keys(state.processed ?? {}),
      ...(state.superseded ?? []),
    ]);
    for (const item of unit.items) {
      if (item.state === 'pending' && !stored.has(item.ev.id)) {
        this.finding(
          'acknowledged_before_storing',
          'error',
          'answered 2xx before the event was stored (seed §4.2: store, then answer): a crash now loses it',
          `${item.ev.id} (${requestId})`,
        );
      }
    }
  }

  private async hook(h: PlannedHook): Promise<void> {
    const a = this.addresses[0]!;
    this.inFlight++;
    try {
      const { result, requestId, atMs } = await this.post(
        a,
        'hook',
        { hook: h.hook, timeout_ms: h.timeoutMs, test: false, data: h.data },
        h.timeoutMs,
        READ_LIMIT.hook,
      );
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
        this.finding(
          'hook_failed',
          'error',
          `synchronous callback failed (one request, no retry): the operation got the ${this.s.hookPolicy} policy`,
          `${requestId} ${reason}`,
        );
      }
      const rec: RequestRecord = {
        n: this.requests.length + 1,
        address: 0,
        kind: 'hook',
        requestId,
        atMs: Math.round(atMs),
        ...(result.status !== undefined ? { status: result.status } : {}),
        outcome: reason ? 'failed' : 'ok',
        ...(reason ? { reason } : {}),
        durationMs: result.durationMs,
        ...(decision ? { decision } : {}),
      };
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
      while (this.complete && this.hooksDue.length > 0 && this.hooksDue[0]!.atMs <= now)
        void this.hook(this.hooksDue.shift()!);
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
        if (a.units.length > 0 && !held)
          nextAt = Math.min(nextAt, Math.max(a.units[0]!.dueAt, a.breaker.openUntil ?? 0));
      }
      const pending =
        this.addresses.some((a) => a.state === 'normal' && a.units.length > 0) || this.hooksDue.length > 0;
      if (this.inFlight === 0 && (!pending || !this.complete)) return;
      const realWait = Number.isFinite(nextAt)
        ? Math.max(0, (nextAt - this.simNow()) / this.s.timeScale)
        : this.s.maxRealMs;
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
    if (
      a.lastFailureAt === undefined ||
      now - (a.lastSuccessAt ?? 0) < AUTO_DISABLE_AFTER_MS ||
      now - a.lastFailureAt > AUTO_DISABLE_FAILURE_WITHIN_MS
    )
      return;
    a.state = 'auto-disabled';
    this.finding(
      'auto_disabled',
      'error',
      `${formatDuration(AUTO_DISABLE_AFTER_MS)} without a success and a failure in the last ${formatDuration(AUTO_DISABLE_FAILURE_WITHIN_MS)}: the service auto-disables the address (§3)`,
      a.endpointId,
    );
    for (const u of a.units)
      for (const i of u.items)
        if (i.state === 'pending') Object.assign(i, { state: 'failed', reason: 'address auto-disabled' });
    a.units.length = 0;
  }

  // ---- the end ---------------------------------------------------------------------------

  /** The receiver's state once it settles (settle.ts): every delivered event handled, or no more change, or settleMs. */
  private async observeFinal(): Promise<SettleResult | undefined> {
    if (!this.s.observe) return undefined;
    const delivered = new Set(this.items.filter((i) => i.state === 'delivered').map((i) => i.ev.id));
    return observeUntilSettled(this.s.observe, delivered, {
      quietMs: this.s.settleQuietMs,
      timeoutMs: this.s.settleMs,
    });
  }

  private report(
    shape: { eventsPerBatch: number; events: number; hooks: number; hookTimeoutMs: number },
    settled: SettleResult | undefined,
  ): SimulationReport {
    const state = settled?.state;
    const deliveredIds = new Set(this.items.filter((i) => i.state === 'delivered').map((i) => i.ev.id));
    for (const item of this.items)
      if (item.state === 'pending') Object.assign(item, { state: 'pending', reason: 'run ended' });
    const failed = this.items.filter((i) => i.state === 'failed');
    for (const i of failed)
      this.finding(
        'gave_up',
        'error',
        `the service gave up on these events (${MAX_SENDS} sends or ${formatDuration(GIVE_UP_AFTER_MS)} without success); a manual redelivery is possible for ${formatDuration(REDELIVERY_WINDOW_MS)}`,
        `${i.ev.id} (${i.reason})`,
      );
    for (const a of this.addresses) {
      if (a.breaker.openings > 0)
        this.finding(
          'breaker_opened',
          'warning',
          `after ${BREAKER_THRESHOLD} consecutive failures sending paused (${formatDuration(BREAKER_FIRST_PAUSE_MS)}, then one probe; a failed probe multiplies the pause by ${BREAKER_PAUSE_MULTIPLIER} up to ${formatDuration(BREAKER_MAX_PAUSE_MS)})`,
          `${a.endpointId}: ${a.breaker.openings}×`,
        );
    }
    if (state) this.judgeReceiverState(state, deliveredIds, settled);
    const events = this.eventRecords();
    const order: Record<string, number> = { error: 0, warning: 1, info: 2 };
    const count = (f: (i: Item) => boolean): number => this.items.filter(f).length;
    return {
      seed: this.s.seed,
      settings: {
        timeScale: this.s.timeScale,
        timeoutScale: this.s.timeoutScale,
        events: shape.events,
        eventsPerBatch: shape.eventsPerBatch,
        timeoutMs: this.s.timeoutMs,
        concurrency: this.s.concurrency,
        ratePerSecond: this.s.ratePerSecond,
        hooks: shape.hooks,
        hookTimeoutMs: shape.hookTimeoutMs,
        hookPolicy: this.s.hookPolicy,
        rotation: this.s.oldSecrets !== undefined,
        signature: (this.s.signature ?? imSignatureV1).name,
        hookAnswer: this.s.hookAnswer.name,
      },
      realMs: Math.round(this.realNow()),
      simulatedMs: Math.round(this.simNow()),
      complete: this.complete,
      addresses: this.addresses.map((a) => ({
        index: a.index,
        url: maskUrlQuery(a.url.href),
        endpointId: a.endpointId,
        state: a.state,
        breakerOpenings: a.breaker.openings,
        breakerPausesMs: [...a.breaker.pauses],
      })),
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
      findings: [...this.findings.values()].sort(
        (x, y) => order[x.severity]! - order[y.severity]! || x.code.localeCompare(y.code),
      ),
      events,
      requests: this.requests,
      plan: {
        queueOrder: this.plan.queueOrder,
        batches: this.plan.batches,
        hooks: this.plan.hooks.map((h) => ({ id: h.id, atMs: h.atMs })),
      },
      receiverReport: state !== undefined,
      ...(settled ? { settle: { outcome: settled.outcome, waitedMs: settled.waitedMs } } : {}),
    };
  }

  /** The findings only the receiver's own state shows: processed twice, acknowledged but lost, not settled, older over newer. */
  private judgeReceiverState(
    state: ReceiverState,
    deliveredIds: ReadonlySet<string>,
    settled: SettleResult | undefined,
  ): void {
    const processed = state.processed ?? {};
    for (const [id, n] of Object.entries(processed)) {
      if (n > 1)
        this.finding(
          'processed_twice',
          'error',
          'the same event id was processed more than once (deduplicate by event id, §6 rule 1)',
          `${id} ×${n}`,
        );
    }
    const superseded = new Set(state.superseded ?? []);
    for (const id of deliveredIds) {
      if ((processed[id] ?? 0) > 0 || superseded.has(id)) continue;
      this.finding(
        'acknowledged_not_processed',
        'error',
        'acknowledged with 2xx but neither processed nor reported superseded: the event is lost (the service will not send it again); an ordering guard that skips older events reports those in `superseded`',
        id,
      );
    }
    if (settled?.outcome === 'timeout' && settled.unhandled.length > 0) {
      this.finding(
        'receiver_not_settled',
        'warning',
        `the receiver's state still lacked ${settled.unhandled.length} delivered event(s) when the settle wait (${formatDuration(this.s.settleMs)}) ran out: raise settleMs (--settle-timeout-ms) if it is still working`,
        settled.unhandled[0],
      );
    }
    const newest = new Map<string, number>();
    for (const id of deliveredIds) {
      const e = this.eventsById.get(id)!;
      if (e.entity !== undefined && e.version !== undefined)
        newest.set(e.entity, Math.max(newest.get(e.entity) ?? 0, e.version));
    }
    for (const [key, id] of Object.entries(state.current ?? {})) {
      const e = this.eventsById.get(id);
      if (e?.entity === undefined || e.version === undefined) continue;
      const top = newest.get(e.entity) ?? 0;
      if (top > e.version)
        this.finding(
          'older_over_newer',
          'error',
          'older state written over newer: the current state comes from an event with a lower version than one delivered (§6 rule 2)',
          `${key}: v${e.version} < v${top}`,
        );
    }
  }

  /** Each planned event with its deliveries (one per address). */
  private eventRecords(): EventRecord[] {
    // each event's deliveries (one item per address), grouped in one pass over the items
    const itemsOf = new Map<PlannedEvent, Item[]>();
    for (const i of this.items) {
      const list = itemsOf.get(i.ev);
      if (list) list.push(i);
      else itemsOf.set(i.ev, [i]);
    }
    return this.plan.events.map((e) => ({
      id: e.id,
      type: e.type,
      ...(e.entity !== undefined ? { entity: e.entity, version: e.version } : {}),
      lost: e.lost,
      truncated: e.truncated,
      deliveries: (itemsOf.get(e) ?? []).map((i) => ({
        address: i.address.index,
        sends: i.sends,
        state: i.state,
        ...(i.reason ? { reason: i.reason } : {}),
        ...(i.lastStatus !== undefined ? { lastStatus: i.lastStatus } : {}),
        duplicateSends: i.duplicateSends,
      })),
    }));
  }
}
