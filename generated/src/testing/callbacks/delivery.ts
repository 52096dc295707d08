// Copied by im-openapi from templates/runtime/testing/callbacks/delivery.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * Delivery of events to one address, by the rules of seed 001 as the delivery simulator keeps
 * them (callbacks/simulator/rules.ts): the §8 retry table (with its jitter when simulated),
 * Retry-After on 429/503, the circuit breaker, 12 sends or 24 h then failed, the whole batch
 * resent once and then one event per request, and the concurrency and rate limits. Service
 * waits run on a compressed clock (`timeScale`); answer timeouts are real.
 */
import { randomBytes } from 'node:crypto';
import { sendCallback, type SendResult } from '../../callbacks/simulator/http-send.js';
import {
  CircuitBreaker,
  GIVE_UP_AFTER_MS,
  jitterFactor,
  MAX_SENDS,
  RateWindow,
  READ_LIMIT,
  retryWaitMs,
  SETTING_DEFAULTS,
  SINGLE_FROM_SEND,
  seededUnit,
} from '../../callbacks/simulator/rules.js';
import { signForDelivery, type SigningAddress } from './sign.js';
import type { CallbackDeliveryRecord, FakeEventRecord } from './types.js';

/** One event waiting for this address. */
interface Item {
  event: FakeEventRecord;
  /** Position in this address's queue since it started (the seeded draws key on it, not on the random event id). */
  n: number;
  sends: number;
  queuedAt: number;
}

interface Unit {
  key: string;
  items: Item[];
  send: number;
  dueAt: number;
  duplicate: boolean;
}

export interface DeliverySettings extends SigningAddress {
  url: URL;
  app: string;
  mode: 'immediate' | 'simulated';
  timeScale: number;
  duplicateRate: number;
  eventsPerBatch: number;
  timeoutMs: number;
  reorderWindowMs: number;
  seed: number;
  record(delivery: CallbackDeliveryRecord): void;
  /** Called when a unit ends or changes, so waiters on `settled` look again. */
  changed(): void;
}

/** Simulated delay of a duplicate after the first success (the simulator's choice: 5 s to 2 min). */
const DUPLICATE_DELAY_MS: readonly [number, number] = [5000, 120_000];

export class AddressDelivery {
  private readonly units: Unit[] = [];
  private readonly breaker = new CircuitBreaker();
  private readonly rate = new RateWindow(SETTING_DEFAULTS.ratePerSecond);
  private readonly started = performance.now();
  private inFlight = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  private draws = 0;
  private queued = 0;

  constructor(private readonly s: DeliverySettings) {}

  /** Simulated ms since this address started. */
  private simNow(): number {
    return (performance.now() - this.started) * this.s.timeScale;
  }

  private unit(lo: number, hi: number): number {
    return lo + (hi - lo) * seededUnit(this.s.seed, this.s.endpointId, 'draw', this.draws++);
  }

  /** Whether anything is queued or on the wire. */
  get busy(): boolean {
    return this.inFlight > 0 || this.units.length > 0;
  }

  enqueue(events: readonly FakeEventRecord[]): void {
    const now = this.simNow();
    for (const event of events) {
      const item: Item = { event, n: this.queued++, sends: 0, queuedAt: now };
      // simulated: a random real wait within the reorder window (in simulated ms on this clock)
      const delay = this.s.mode === 'simulated' ? this.unit(0, this.s.reorderWindowMs) * this.s.timeScale : 0;
      this.units.push({ key: event.id, items: [item], send: 1, dueAt: now + delay, duplicate: false });
    }
    this.pump();
  }

  /** Drops what is queued (requests on the wire finish); delivery goes on for new events. */
  drop(): void {
    clearTimeout(this.timer);
    this.units.length = 0;
    this.s.changed();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    for (const u of this.units)
      for (const i of u.items)
        if (i.event.deliveries[this.s.endpointId] === 'pending') i.event.deliveries[this.s.endpointId] = 'failed';
    this.units.length = 0;
    this.s.changed();
  }

  /** Sends what is due (batching first sends up to eventsPerBatch), then sleeps until the next due unit. */
  private pump(): void {
    clearTimeout(this.timer);
    if (this.stopped) return;
    const now = this.simNow();
    this.units.sort((a, b) => a.dueAt - b.dueAt);
    while (this.units.length > 0 && this.units[0]!.dueAt <= now && this.inFlight < SETTING_DEFAULTS.concurrency) {
      const wait = this.rate.waitMs(performance.now());
      if (wait > 0) {
        this.timer = setTimeout(() => this.pump(), wait);
        return;
      }
      const admit = this.breaker.admit(now);
      if (!admit.ok) break;
      this.launch(this.take(now), admit.probe);
    }
    const next = this.units[0];
    if (next && !this.breaker.probing) {
      const at = Math.max(next.dueAt, this.breaker.openUntil ?? 0);
      this.timer = setTimeout(() => this.pump(), Math.max(1, (at - this.simNow()) / this.s.timeScale));
    }
  }

  /** The next unit; due first sends join it up to eventsPerBatch (a batch is not in time order, seed 001 §4.2). */
  private take(now: number): Unit {
    const unit = this.units.shift()!;
    if (unit.send === 1 && !unit.duplicate) {
      while (unit.items.length < this.s.eventsPerBatch) {
        const at = this.units.findIndex((u) => u.send === 1 && !u.duplicate && u.dueAt <= now);
        if (at < 0) break;
        unit.items.push(...this.units.splice(at, 1)[0]!.items);
      }
    }
    return unit;
  }

  private launch(unit: Unit, probe: boolean): void {
    this.inFlight++;
    this.rate.take(performance.now());
    for (const item of unit.items) item.sends++;
    const requestId = `req_fake_${randomBytes(8).toString('hex')}`;
    const body = {
      kind: 'event',
      request_id: requestId,
      app: this.s.app,
      endpoint_id: this.s.endpointId,
      sent_at: new Date().toISOString(),
      events: unit.items.map((i) => ({
        id: i.event.id,
        type: i.event.type,
        occurred_at: i.event.occurred_at,
        attempt: i.sends,
        test: false,
        data: i.event.data,
      })),
    };
    const signed = signForDelivery(this.s, body, 'event');
    void sendCallback({
      url: this.s.url,
      headers: signed.headers,
      body: signed.body,
      timeoutMs: this.s.timeoutMs,
      readLimit: READ_LIMIT.event,
      lateGraceMs: 0,
    })
      .then((result) => this.settle(unit, probe, result, requestId))
      .finally(() => {
        this.inFlight--;
        this.s.changed();
        this.pump();
      });
  }

  private settle(unit: Unit, probe: boolean, result: SendResult, requestId: string): void {
    const ok = result.status !== undefined && result.status >= 200 && result.status < 300;
    const reason = ok ? undefined : (result.error ?? `status_${result.status}`);
    this.s.record({
      endpointId: this.s.endpointId,
      kind: 'event',
      requestId,
      eventIds: unit.items.map((i) => i.event.id),
      send: unit.send,
      duplicate: unit.duplicate,
      ...(result.status !== undefined ? { status: result.status } : {}),
      outcome: ok ? 'ok' : 'failed',
      ...(reason ? { reason } : {}),
      at: Date.now(),
    });
    const now = this.simNow();
    this.breaker.record(ok, probe, now);
    if (this.stopped) return;
    if (ok) {
      for (const item of unit.items) {
        if (unit.duplicate) continue;
        item.event.deliveries[this.s.endpointId] = 'delivered';
        if (
          this.s.mode === 'simulated' &&
          seededUnit(this.s.seed, this.s.endpointId, 'dup', item.n) < this.s.duplicateRate
        ) {
          this.units.push({
            key: `dup:${item.event.id}`,
            items: [item],
            send: item.sends + 1,
            dueAt: now + this.unit(DUPLICATE_DELAY_MS[0], DUPLICATE_DELAY_MS[1]),
            duplicate: true,
          });
        }
      }
      return;
    }
    if (unit.duplicate) return; // the event was delivered already: a failed duplicate is not retried
    this.retry(unit, result, now);
  }

  /** The seed's schedule: the batch once more whole, then one event per request; failed after MAX_SENDS or 24 h. */
  private retry(unit: Unit, result: SendResult, now: number): void {
    const alive = unit.items.filter((item) => {
      if (item.sends < MAX_SENDS) return true;
      item.event.deliveries[this.s.endpointId] = 'failed';
      return false;
    });
    const together = unit.send + 1 < SINGLE_FROM_SEND;
    const groups = together ? [{ key: unit.key, items: alive }] : alive.map((i) => ({ key: i.event.id, items: [i] }));
    const answer =
      result.status !== undefined
        ? { status: result.status, retryAfter: result.retryAfter, nowEpochMs: Date.now() }
        : undefined;
    for (const g of groups) {
      if (g.items.length === 0) continue;
      const jitter =
        this.s.mode === 'simulated' ? jitterFactor(this.s.seed, `${this.s.endpointId}:${g.items[0]!.n}`, unit.send) : 1;
      const wait = retryWaitMs(unit.send, jitter, answer);
      const dueAt = wait === undefined ? Number.POSITIVE_INFINITY : now + wait.waitMs;
      const keep = g.items.filter((item) => {
        if (dueAt - item.queuedAt < GIVE_UP_AFTER_MS) return true;
        item.event.deliveries[this.s.endpointId] = 'failed';
        return false;
      });
      if (keep.length > 0) this.units.push({ key: g.key, items: keep, send: unit.send + 1, dueAt, duplicate: false });
    }
  }
}
