/** The callback side of the fake: addresses, the events changes cause, and their deliveries. */

/** Signs one callback request: the headers of seed 001 §2.3 for `body` (the exact bytes sent). */
export type CallbackSigner = (request: {
  body: string;
  /** The address's signing secrets (two during a rotation). */
  secrets: readonly string[];
  kind: 'verify' | 'event';
  requestId: string;
  endpointId: string;
}) => Record<string, string>;

/** A callback address, as the console would hold it (seed 001 §2.1). */
export interface CallbackAddressOptions {
  /** The receiver. Loopback only unless `allowRemote` (the fake does not apply the service's https/public-host rules, seed 001 §2.2). */
  url: string;
  /** The address's signing secret. */
  secret: string;
  /** A second secret, as during a rotation's grace period: requests then carry two signatures. */
  oldSecret?: string;
  /** Subscribed event types: full types or prefixes like `group.*` (default: every type). */
  events?: readonly string[];
  /**
   * `immediate` (default): each event is sent once, in order, right after the change; a failed
   * send is retried on the seed's schedule (10 s, 30 s, 1 min, …, divided by `timeScale`).
   * `simulated`: the delivery simulator's rules: no ordering (each event waits a random part of
   * `reorderWindowMs` before its first send, so close events arrive out of order); jittered
   * retries; duplicates of delivered events.
   */
  delivery?: 'immediate' | 'simulated';
  /**
   * simulated: the longest real wait before an event's first send, in ms (default 50). The
   * service sends within 1 to 2 s of a change (seed 001 §1); compressed by `timeScale` that would
   * be a millisecond, shorter than one REST call, so the window is real time.
   */
  reorderWindowMs?: number;
  /** Simulated ms per real ms for every service wait (retry table, breaker, delays). Default 1000. */
  timeScale?: number;
  /** simulated: share of delivered events sent once more (an at-least-once duplicate). Default 0.1. */
  duplicateRate?: number;
  /** simulated: share of best-effort events (presence, chatroom message copies) lost before queueing. Default 0. */
  bestEffortLossRate?: number;
  /** Events per request, 1 to 100 (default 1, the service's default). */
  eventsPerBatch?: number;
  /** Answer timeout of event requests, 1000 to 10000 ms (default 5000). */
  timeoutMs?: number;
  /** The filter option "drop events caused by the tenant's own server" (recalls are kept). */
  dropServerOrigin?: boolean;
  /** X-IM-Endpoint-Id (default `ep_fake_<n>`). */
  endpointId?: string;
  /** Replaces the signature scheme (default: the callbacks kit's own signing). */
  sign?: CallbackSigner;
  allowRemote?: boolean;
}

export type AddressState = 'pending verification' | 'normal';

export interface CallbackAddressView {
  endpointId: string;
  /** The URL with query values masked. */
  url: string;
  state: AddressState;
  events: readonly string[];
  delivery: 'immediate' | 'simulated';
}

/** One event a change caused, and where it stands per address. */
export interface FakeEventRecord {
  id: string;
  type: string;
  occurred_at: string;
  data: Record<string, unknown>;
  /** The operation whose change caused it. */
  operationId: string;
  /** endpointId → pending, delivered, failed, or why it was not created for that address. */
  deliveries: Record<
    string,
    | 'pending'
    | 'delivered'
    | 'failed'
    | 'not subscribed'
    | 'filtered'
    | 'address pending verification'
    | 'lost (best effort)'
  >;
}

/** One request the fake sent to a receiver. */
export interface CallbackDeliveryRecord {
  endpointId: string;
  kind: 'verify' | 'event';
  requestId: string;
  /** Event ids in the request (none for verify). */
  eventIds: string[];
  /** Send number of this request's events (1 = first send). */
  send: number;
  /** An at-least-once duplicate of events already delivered. */
  duplicate: boolean;
  status?: number;
  outcome: 'ok' | 'failed';
  /** timeout, connection, status_<n>, wrong_challenge. */
  reason?: string;
  /** Real ms since the epoch when it was sent. */
  at: number;
}

export interface CallbacksView {
  readonly addresses: readonly CallbackAddressView[];
  readonly events: readonly FakeEventRecord[];
  readonly deliveries: readonly CallbackDeliveryRecord[];
  /** Adds an address: sends the URL verification at once and resolves with its state. */
  register(address: CallbackAddressOptions): Promise<CallbackAddressView>;
  /** Sends the URL verification again (the console's 'verify'). */
  verify(endpointId: string): Promise<CallbackAddressView>;
  /** Deletes an address: delivery to it stops at once and its queue is dropped. */
  remove(endpointId: string): void;
  /** Resolves once no event is pending for any address (delivered or failed); rejects after `timeoutMs` (default 10 000). */
  settled(options?: { timeoutMs?: number }): Promise<void>;
}
