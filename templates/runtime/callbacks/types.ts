/**
 * Minimal, structural shapes of the callback requests (seed 001, sections 2.4 to 2.6 and 4).
 *
 * The precise payload types (one interface per event type, hook data, …) are generated from
 * `spec/callbacks.asyncapi.yaml`. Everything in this kit is written against the structural
 * shapes below and is generic over them, so the generated union plugs in with no change here:
 * `createCallbackHandler<GeneratedEvent, GeneratedHookRequest>({ … })`.
 *
 * Unknown fields are kept everywhere: the service adds fields and event types (seed 2.6).
 */

/** The three request kinds of seed section 4 (`X-IM-Kind` and body field `kind`). */
export type CallbackKind = 'event' | 'hook' | 'verify';

/** Common body fields (seed 2.4). */
export interface CallbackRequestBase {
  kind: string;
  /** Same as X-IM-Request-Id; different on every send including retries. */
  request_id?: string;
  /** AppKey `org_name#app_name`. */
  app?: string;
  /** Address id (same as X-IM-Endpoint-Id). */
  endpoint_id?: string;
  /** Send time, UTC ISO 8601 with milliseconds. */
  sent_at?: string;
  [field: string]: unknown;
}

/** One event item (seed 2.5). */
export interface CallbackEvent {
  /** Event id: identical across retries, redeliveries and addresses; the deduplication key. */
  id: string;
  /** Event type, e.g. `group.members_added`. New types are added over time. */
  type: string;
  /** Time of the event (UTC, milliseconds; see `times.ts` for comparison). */
  occurred_at: string;
  /** Send count of this event, starting at 1; restarts at 1 after a redelivery. */
  attempt?: number;
  /** True for a console test send (sample data). */
  test?: boolean;
  data: Record<string, unknown>;
  [field: string]: unknown;
}

/** kind = event (seed 4.2): `events` is always an array, batching on or off. */
export interface EventCallbackRequest<E extends CallbackEvent = CallbackEvent> extends CallbackRequestBase {
  kind: 'event';
  events: E[];
}

/** kind = hook (seed 4.3). Fields of `data` per hook type: not shown by the seed. */
export interface HookCallbackRequest extends CallbackRequestBase {
  kind: 'hook';
  /** Hook type, e.g. `message.before_send`. */
  hook: string;
  /** How long the service waits for the answer. */
  timeout_ms: number;
  test?: boolean;
  data: Record<string, unknown>;
}

/** kind = verify (seed 4.1). */
export interface VerifyCallbackRequest extends CallbackRequestBase {
  kind: 'verify';
  /** Different every time; echo it back as `{"challenge": …}`. */
  challenge: string;
}

/** Any callback request body. */
export type CallbackRequest<E extends CallbackEvent = CallbackEvent> =
  | EventCallbackRequest<E>
  | HookCallbackRequest
  | VerifyCallbackRequest;

/** Header names of seed 2.3, in the canonical spelling `signCallback` writes. */
export const CALLBACK_HEADERS = {
  contentType: 'Content-Type',
  userAgent: 'User-Agent',
  kind: 'X-IM-Kind',
  hook: 'X-IM-Hook',
  requestId: 'X-IM-Request-Id',
  endpointId: 'X-IM-Endpoint-Id',
  timestamp: 'X-IM-Timestamp',
  nonce: 'X-IM-Nonce',
  signature: 'X-IM-Signature',
} as const;

/** Anything that carries request headers: Web `Headers`, Node `IncomingHttpHeaders`, a record. */
export type HeadersLike =
  | Headers
  | { get(name: string): string | null | undefined; entries?: unknown }
  | Record<string, string | readonly string[] | number | undefined | null>;

/** Raw request body bytes as received. A string is accepted, but it is a warning sign. */
export type RawBody = Uint8Array | ArrayBuffer | ArrayBufferView | string;

/** Structured logger; every method optional. Lines never carry a secret. */
export interface CallbackLogger {
  debug?(message: string, fields?: Record<string, unknown>): void;
  info?(message: string, fields?: Record<string, unknown>): void;
  warn?(message: string, fields?: Record<string, unknown>): void;
  error?(message: string, fields?: Record<string, unknown>): void;
}
