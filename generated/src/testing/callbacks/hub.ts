// Copied by im-openapi from templates/runtime/testing/callbacks/hub.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The fake's callback addresses: each is verified first (seed 001 §3, §4.1: a challenge,
 * answered 2xx within 5 s with the same challenge), then gets the events of the changes it is
 * subscribed to. Events created while an address waits for verification are never sent to it.
 */
import { randomBytes } from 'node:crypto';
import { isLoopbackUrl } from '../../callbacks/url.js';
import { sendCallback } from '../../callbacks/simulator/http-send.js';
import {
  BEST_EFFORT_TYPES,
  MAX_ADDRESSES,
  READ_LIMIT,
  seededUnit,
  SETTING_RANGES,
  VERIFY_TIMEOUT_MS,
} from '../../callbacks/simulator/rules.js';
import { maskUrlQuery } from '../../internal/redact.js';
import { AddressDelivery } from './delivery.js';
import { signForDelivery } from './sign.js';
import type {
  AddressState,
  CallbackAddressOptions,
  CallbackAddressView,
  CallbackDeliveryRecord,
  CallbacksView,
  FakeEventRecord,
} from './types.js';

interface Address {
  options: CallbackAddressOptions;
  endpointId: string;
  url: URL;
  secrets: string[];
  state: AddressState;
  delivery: AddressDelivery;
}

function intIn(
  name: string,
  value: number | undefined,
  fallback: number,
  [min, max]: readonly [number, number],
): number {
  const n = value ?? fallback;
  if (!Number.isInteger(n) || n < min || n > max)
    throw new RangeError(
      `fake callbacks: ${name} must be a whole number from ${min} to ${max} (seed 001 §2.1), got ${String(value)}`,
    );
  return n;
}

/** Subscriptions: a full type, a prefix such as `group.*`, or `*`. */
function subscribed(events: readonly string[] | undefined, type: string): boolean {
  if (!events) return true;
  return events.some((e) => e === '*' || e === type || (e.endsWith('.*') && type.startsWith(e.slice(0, -1))));
}

export class CallbackHub implements CallbacksView {
  private readonly list: Address[] = [];
  readonly events: FakeEventRecord[] = [];
  readonly deliveries: CallbackDeliveryRecord[] = [];
  private waiters: Array<() => void> = [];
  private count = 0;

  constructor(private readonly env: { app: string; seed: number; now(): number }) {}

  get addresses(): CallbackAddressView[] {
    return this.list.map((a) => ({
      endpointId: a.endpointId,
      url: maskUrlQuery(a.url.href),
      state: a.state,
      events: [...(a.options.events ?? ['*'])],
      delivery: a.options.delivery ?? 'immediate',
    }));
  }

  private view(a: Address): CallbackAddressView {
    return this.addresses.find((v) => v.endpointId === a.endpointId)!;
  }

  async register(options: CallbackAddressOptions): Promise<CallbackAddressView> {
    if (this.list.length >= MAX_ADDRESSES)
      throw new RangeError(`fake callbacks: at most ${MAX_ADDRESSES} addresses per application (seed 001 §2.1)`);
    let url: URL;
    try {
      url = new URL(options.url);
    } catch {
      throw new TypeError('fake callbacks: url is not a URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new TypeError('fake callbacks: url must be http or https');
    if (!options.allowRemote && !isLoopbackUrl(url))
      throw new TypeError(
        `fake callbacks: url is not loopback (${url.hostname}); pass allowRemote to send callbacks elsewhere`,
      );
    if (typeof options.secret !== 'string' || options.secret === '')
      throw new TypeError('fake callbacks: secret must be a non-empty string');
    const timeScale = options.timeScale ?? 1000;
    if (!(timeScale >= 1 && timeScale <= 10_000_000))
      throw new RangeError('fake callbacks: timeScale must be from 1 to 10000000');
    const endpointId = options.endpointId ?? `ep_fake_${++this.count}`;
    const secrets = [options.secret, ...(options.oldSecret ? [options.oldSecret] : [])];
    const address: Address = {
      options,
      endpointId,
      url,
      secrets,
      state: 'pending verification',
      delivery: new AddressDelivery({
        url,
        app: this.env.app,
        endpointId,
        secrets,
        sign: options.sign,
        seed: this.env.seed,
        mode: options.delivery ?? 'immediate',
        timeScale,
        duplicateRate: options.duplicateRate ?? 0.1,
        eventsPerBatch: intIn('eventsPerBatch', options.eventsPerBatch, 1, SETTING_RANGES.eventsPerBatch),
        timeoutMs: intIn('timeoutMs', options.timeoutMs, 5000, SETTING_RANGES.timeoutMs),
        reorderWindowMs: intIn('reorderWindowMs', options.reorderWindowMs, 50, [0, 60_000]),
        record: (d) => this.deliveries.push(d),
        changed: () => this.wake(),
      }),
    };
    this.list.push(address);
    await this.sendVerification(address);
    return this.view(address);
  }

  async verify(endpointId: string): Promise<CallbackAddressView> {
    const address = this.byId(endpointId);
    await this.sendVerification(address);
    return this.view(address);
  }

  remove(endpointId: string): void {
    const address = this.byId(endpointId);
    address.delivery.stop();
    this.list.splice(this.list.indexOf(address), 1);
    this.wake();
  }

  private byId(endpointId: string): Address {
    const address = this.list.find((a) => a.endpointId === endpointId);
    if (!address) throw new RangeError(`fake callbacks: no address ${JSON.stringify(endpointId)}`);
    return address;
  }

  private async sendVerification(address: Address): Promise<void> {
    const challenge = randomBytes(16).toString('hex');
    const requestId = `req_fake_${randomBytes(8).toString('hex')}`;
    const body = {
      kind: 'verify',
      request_id: requestId,
      app: this.env.app,
      endpoint_id: address.endpointId,
      sent_at: new Date().toISOString(),
      challenge,
    };
    const signed = signForDelivery(address, body, 'verify');
    const result = await sendCallback({
      url: address.url,
      headers: signed.headers,
      body: signed.body,
      timeoutMs: VERIFY_TIMEOUT_MS,
      readLimit: READ_LIMIT.verify,
      lateGraceMs: 0,
    });
    let reason: string | undefined =
      result.error ??
      (result.status !== undefined && (result.status < 200 || result.status > 299)
        ? `status_${result.status}`
        : undefined);
    if (reason === undefined) {
      let echoed: unknown;
      try {
        echoed = (JSON.parse(result.body) as { challenge?: unknown }).challenge;
      } catch {
        echoed = undefined;
      }
      if (echoed !== challenge) reason = 'wrong_challenge';
    }
    this.deliveries.push({
      endpointId: address.endpointId,
      kind: 'verify',
      requestId,
      eventIds: [],
      send: 1,
      duplicate: false,
      ...(result.status !== undefined ? { status: result.status } : {}),
      outcome: reason ? 'failed' : 'ok',
      ...(reason ? { reason } : {}),
      at: Date.now(),
    });
    address.state = reason ? 'pending verification' : 'normal';
  }

  /** The events one operation's change caused: recorded, and queued for each address that takes them. */
  emit(operationId: string, events: ReadonlyArray<{ type: string; data: Record<string, unknown> }>): void {
    const records: FakeEventRecord[] = events.map((e) => ({
      id: `evt_fake_${this.events.length + 1}_${randomBytes(4).toString('hex')}`,
      type: e.type,
      occurred_at: new Date(this.env.now()).toISOString(),
      data: { origin: 'server', ...e.data },
      operationId,
      deliveries: {},
    }));
    this.events.push(...records);
    for (const a of this.list) {
      const take: FakeEventRecord[] = [];
      for (const r of records) {
        const simulated = a.options.delivery === 'simulated';
        if (!subscribed(a.options.events, r.type)) r.deliveries[a.endpointId] = 'not subscribed';
        else if (a.options.dropServerOrigin && !/recalled$/.test(r.type)) r.deliveries[a.endpointId] = 'filtered';
        else if (a.state !== 'normal') r.deliveries[a.endpointId] = 'address pending verification';
        else if (
          simulated &&
          BEST_EFFORT_TYPES.has(r.type) &&
          seededUnit(this.env.seed, a.endpointId, 'lost', this.events.indexOf(r)) < (a.options.bestEffortLossRate ?? 0)
        )
          r.deliveries[a.endpointId] = 'lost (best effort)';
        else {
          r.deliveries[a.endpointId] = 'pending';
          take.push(r);
        }
      }
      if (take.length > 0) a.delivery.enqueue(take);
    }
  }

  private wake(): void {
    if (this.list.some((a) => a.delivery.busy)) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  settled(options: { timeoutMs?: number } = {}): Promise<void> {
    if (!this.list.some((a) => a.delivery.busy)) return Promise.resolve();
    const timeoutMs = options.timeoutMs ?? 10_000;
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== done);
        const pending = this.events.filter((e) => Object.values(e.deliveries).includes('pending')).length;
        reject(
          new Error(
            `fake callbacks: ${pending} event(s) still pending after ${timeoutMs} ms (see fake.callbacks.deliveries)`,
          ),
        );
      }, timeoutMs);
      const done = (): void => {
        clearTimeout(timer);
        resolve();
      };
      this.waiters.push(done);
    });
  }

  /** Stops every delivery and forgets events (addresses stay). */
  clearEvents(): void {
    for (const a of this.list) a.delivery.drop();
    this.events.length = 0;
    this.deliveries.length = 0;
    this.wake();
  }

  close(): void {
    for (const a of this.list) a.delivery.stop();
    this.list.length = 0;
    this.wake();
  }
}
