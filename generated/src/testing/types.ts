// Copied by im-openapi from templates/runtime/testing/types.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The public shapes of the fake service (`im-server-sdk/testing`). The fake itself is
 * hand-written runtime; what it knows about each of the operations comes from the generated
 * catalog (`FakeCatalog`), which the package entry binds in.
 */
import type { OperationSpec } from '../operation.js';
import type { CallbackAddressOptions, CallbacksView } from './callbacks/types.js';
import type { FakeState, SeedInput } from './state/state.js';

export type { CallbackAddressOptions, CallbacksView } from './callbacks/types.js';
export type { FakeState, SeedInput } from './state/state.js';

/** What the generator tells the fake about one operation's success answer. */
export interface FakeResponseData {
  /** Name of the response schema in the spec, e.g. `UserPage` (documentation, errors). */
  schema: string;
  /** A body valid against that schema: the spec's example where it has one, else a minimal value. */
  sample: unknown;
}

/** The generated knowledge the fake works from: the operation table and the response data. */
export interface FakeCatalog {
  operations: readonly OperationSpec[];
  responses: Readonly<Record<string, FakeResponseData>>;
}

/** The kinds of fault the fake injects (seed 000 §4, §5, §7). */
export type FaultKind =
  /** 429 rate_limited with Retry-After; the request is not executed. */
  | 'rate_limited'
  /** A 5xx answer (default 503); the request is not executed. */
  | 'server_error'
  /** The connection is dropped before the request is executed. */
  | 'drop_before'
  /** The request is executed, then the connection is dropped before the answer (class N ambiguity). */
  | 'drop_after'
  /** The answer comes `delayMs` late (a timeout on the client's side when it is longer than its timeoutMs). */
  | 'slow'
  /** 401 unauthenticated, as when the App Token has expired or was invalidated. */
  | 'unauthenticated'
  /** Any error answer you describe (`status`, `code`, `details`); the request is not executed. */
  | 'error';

/** A fault on demand: which calls it hits and what it does to them. */
export interface FaultRule {
  kind: FaultKind;
  /** Operation id(s) it applies to (`users.get`, `app.token`), or `'*'`: every operation but the token exchange. Default `'*'`. */
  operation?: string | readonly string[];
  /** How many calls it hits; default 1. `Infinity` for every matching call. */
  times?: number;
  /** Matching calls to let through before the first hit; default 0. */
  after?: number;
  /** Only calls for which this returns true (flat params: path, query and body fields). */
  when?: (call: { operationId: string; params: Readonly<Record<string, unknown>> }) => boolean;
  /** rate_limited: the Retry-After header in seconds (default 1). */
  retryAfterSeconds?: number;
  /** server_error (default 503) and error (default 400): the HTTP status. */
  status?: number;
  /** error: the error code (default `invalid_argument`); unauthenticated: none. */
  code?: string;
  /** error and unauthenticated: `error.details` (e.g. `{ reason: 'app_deleted' }`). */
  details?: Record<string, unknown>;
  /** error: `error.message`. */
  message?: string;
  /** slow: how late the answer comes, in ms (default 2000). */
  delayMs?: number;
}

/** A rule added with `fake.fault()`: how often it hit, and a way to take it away. */
export interface FaultHandle {
  readonly rule: FaultRule;
  /** Calls it hit so far. */
  readonly hits: number;
  remove(): void;
}

/** Faults at random, reproducible from `randomSeed`. */
export interface RandomFaults {
  /** Share of calls that get a fault, 0 to 1. */
  rate: number;
  /** Default: server_error, rate_limited, drop_before, drop_after, slow. */
  kinds?: readonly FaultKind[];
  /** Operation ids it applies to; default every operation but the token exchange. */
  operations?: readonly string[];
  /** slow faults: the delay in ms (default 2000). */
  delayMs?: number;
}

/** One request as it reached the fake, unmasked: what a `script` sees. */
export interface FakeRequest {
  method: string;
  /** Path and query as received. */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The body as text ('' when none). */
  bodyText: string;
  /** The body parsed as JSON, when it is JSON. */
  json: unknown;
  /** The operation the method and path name, when they name one. */
  operationId: string | undefined;
  /** Milliseconds since the epoch on the fake's clock. */
  at: number;
}

/** What a `script` or an `override` answers. */
export type ScriptReply =
  | { status?: number; body?: unknown; headers?: Record<string, string>; delayMs?: number }
  /** Drop the connection without an answer. */
  | { drop: true }
  /** Never answer (until the fake closes). */
  | { hang: true };

/** The arguments of an `override` handler: the call as the fake understood it. */
export interface OverrideCall {
  operationId: string;
  /** Flat params: path parameters, query parameters and body fields under their wire names. */
  params: Record<string, any>;
  /** The JSON body, if any. */
  body: any;
  query: URLSearchParams;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The fake's state, to answer from it. */
  state: FakeState;
  /** This operation's own answer (run it to get the fake's usual answer, e.g. to change it). */
  answer(): Promise<{ status: number; body: unknown }>;
}

/** One call the fake received, for assertions. Secrets are masked. */
export interface FakeCall {
  /** 1, 2, … in arrival order. */
  n: number;
  /** The operation, or undefined for a request that names none (a part upload address, an unknown path). */
  operationId: string | undefined;
  method: string;
  /** Path without the query. */
  path: string;
  /** Query parameters (values of secret-looking names masked). */
  query: Record<string, string | string[]>;
  /** Flat params: path, query and body fields; values of secret-looking fields (client_secret, password, …) masked. */
  params: Record<string, unknown>;
  /** Request headers, lower-case names; Authorization and cookies masked. */
  headers: Record<string, string>;
  /** Bytes of the request body. */
  bodyBytes: number;
  /**
   * What the fake answered; `dropped` when it dropped the connection instead; `pending` while the
   * answer is still to come (a slow answer); `hung` for a script's hang. Calls are recorded on arrival.
   */
  answer:
    | { status: number; body: unknown; headers: Record<string, string> }
    | { dropped: 'before' | 'after' }
    | { hung: true }
    | { pending: true };
  /** The fault that hit this call, if any. */
  fault?: FaultKind | 'quota' | 'token_limit';
  /** The request id the fake gave the answer. */
  requestId: string;
  /** Milliseconds since the epoch (the fake's clock) when it arrived. */
  at: number;
}

export interface FakeServiceOptions {
  /** `org#app` the fake serves (default `demo-org#demo-app`). */
  appKey?: string;
  /** The Client ID and Secret it accepts (defaults `fake-client-id`, `fake-client-secret`). */
  clientId?: string;
  clientSecret?: string;
  /** Address to listen on (default 127.0.0.1). Another than loopback needs `allowRemote: true`. */
  host?: string;
  /** Port (default 0: a free one). */
  port?: number;
  /** Allow `host` to be an address beyond loopback (the fake has no real security). */
  allowRemote?: boolean;
  /** false: start no server; mount `fake.handler` in your own (default true). */
  listen?: boolean;
  /**
   * App Token lifetime in seconds (`expires_in`), 300 to 31 536 000 as the seed allows
   * (default 604 800). Tokens expire on the fake's clock: `fake.advanceTime(ms)`, `fake.expireTokens()`.
   */
  tokenTtlSeconds?: number;
  /** The application's OpenAPI quota, requests per second (seed 000 §5 check 5). Default: none. */
  perSecond?: number;
  /** Token exchanges per source IP per minute (seed 000 §8: 120). */
  tokenExchangesPerMinute?: number;
  /** Items per page of the list operations (default 20; the seed shows no page size). */
  pageSize?: number;
  /** Source IPs the application allows (seed 000 §5 check 3); default: no allowlist. */
  ipAllowlist?: readonly string[];
  /** Seed of everything random in the fake: random faults, simulated callback delivery. Default 1. */
  randomSeed?: number;
  /** Faults active from the start. */
  faults?: readonly FaultRule[];
  /** Faults at random (seeded by `randomSeed`). */
  randomFaults?: RandomFaults;
  /** Callback addresses (URL + secret): the fake verifies each, then delivers the events changes cause. */
  callbacks?: CallbackAddressOptions | readonly CallbackAddressOptions[];
  /** State to start with (as `fake.seed(...)`). */
  initialState?: SeedInput;
  /** Keep the bytes of uploaded parts (default true); false keeps their sizes only. */
  keepUploadBytes?: boolean;
  /**
   * Answers before anything else (auth, quota, faults, state): return a reply, or undefined to
   * let the fake answer. For tests of a client's own wire behaviour.
   */
  script?: (request: FakeRequest) => ScriptReply | undefined | Promise<ScriptReply | undefined>;
  /** The fake's clock (ms since the epoch); default Date.now. `advanceTime` adds to it. */
  now?: () => number;
}

/** Options for `new ImClient(...)` that point a client at the fake. */
export interface FakeClientOptions {
  baseUrl: string;
  appKey: string;
  clientId: string;
  clientSecret: string;
}

/** A node:http style handler (also what Express and Koa's `ctx.req`/`ctx.res` give). */
export type FakeNodeHandler = (
  req: import('node:http').IncomingMessage,
  res: import('node:http').ServerResponse,
) => void;

export interface FakeService {
  /** `http://127.0.0.1:<port>`; with `listen: false`, the address of the first request's Host. */
  readonly baseUrl: string;
  readonly orgName: string;
  readonly appName: string;
  /** What `new ImClient(fake.clientOptions)` needs (baseUrl, appKey, clientId, clientSecret). */
  readonly clientOptions: FakeClientOptions;
  /** The fake as a node:http handler, for your own server. */
  readonly handler: FakeNodeHandler;
  /** Every call so far, in arrival order (secrets masked). */
  readonly calls: readonly FakeCall[];
  /** The calls of one operation. */
  callsTo(operationId: string): FakeCall[];
  /** The state, for inspection (change it with `seed`). */
  readonly state: FakeState;
  /** Adds users, groups, chatrooms, … to the state. */
  seed(input: SeedInput): void;
  /** Forgets state, calls, faults, tokens and pending callbacks (the options' initial state and faults come back). */
  reset(): void;
  /** Adds a fault on demand. */
  fault(rule: FaultRule): FaultHandle;
  /** Removes every fault on demand (random faults stay). */
  clearFaults(): void;
  /**
   * Answers one operation your way, after the fake's checks (token, quota, faults) and its request
   * validation; return undefined to let the fake answer, or call `call.answer()` for its answer.
   */
  override(
    operationId: string,
    handler: (call: OverrideCall) => ScriptReply | undefined | Promise<ScriptReply | undefined>,
  ): () => void;
  /** The application was deleted or its tenant closed: every later call gets 401 with that details.reason. */
  revokeCredentials(reason: 'app_deleted' | 'tenant_closed'): void;
  /** The application or its tenant is suspended (tokens issued before become invalid), or `false` to restore it. */
  suspend(what: 'app' | 'tenant' | false): void;
  /** Every App Token issued so far expires now. */
  expireTokens(): void;
  /** Moves the fake's clock forward (token expiry, quotas). */
  advanceTime(ms: number): void;
  /** The fake's clock, ms since the epoch. */
  now(): number;
  /** The callback addresses and what was delivered to them. */
  readonly callbacks: CallbacksView;
  /** Stops the server and every pending delivery. */
  close(): Promise<void>;
}
