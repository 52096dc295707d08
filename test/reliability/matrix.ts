/**
 * The fault matrix of issue 9: every retry class (REST seed 4: Q, I, U, D, N and the three
 * conditional N cases, plus the non-N side of two of them) × every fault of `FAULTS`.
 * `runCell` runs one cell through the GENERATED client against the fault server with a fake
 * clock (waits are recorded, not slept); `expectedCell` says what the seed's rules require.
 */
import {
  ImClient,
  type ClientOptions,
  type Logger,
  type StoredToken,
  type TokenStore,
} from '../../generated/src/index.js';
import { Agent, type ClientRequest } from 'node:http';
import { transportUnderTest } from '../../templates/runtime/test-support/fake-service.js';
import {
  closedPort,
  MATRIX_MAX_RESPONSE_BYTES,
  type Fault,
  type FaultServer,
  type SeenRequest,
} from './fault-server.js';

export interface Row {
  name: string;
  /** The class that applies to this call (after the op's conditions). */
  cls: 'Q' | 'I' | 'U' | 'D' | 'N';
  op: string;
  /** Whether the op carries a dedupe key (client_msg_id). */
  dedupe: boolean;
  call(im: ImClient): Promise<unknown>;
}

export const ROWS: Row[] = [
  { name: 'Q users.get', cls: 'Q', op: 'users.get', dedupe: false, call: (im) => im.users.get({ username: 'alice' }) },
  {
    name: 'I users.update',
    cls: 'I',
    op: 'users.update',
    dedupe: false,
    call: (im) => im.users.update({ username: 'alice', nickname: 'Alice' }),
  },
  {
    name: 'U users.create',
    cls: 'U',
    op: 'users.create',
    dedupe: false,
    call: (im) => im.users.create({ username: 'alice' }),
  },
  {
    name: 'D messages.send',
    cls: 'D',
    op: 'messages.send',
    dedupe: true,
    call: (im) => im.messages.send({ from: 'alice', to: ['bob'], online_only: false }),
  },
  {
    name: 'N users.set_password',
    cls: 'N',
    op: 'users.set_password',
    dedupe: false,
    call: (im) => im.users.setPassword({ username: 'alice', password: 'correct-horse-battery' }),
  },
  {
    name: 'N messages.send online_only',
    cls: 'N',
    op: 'messages.send',
    dedupe: true,
    call: (im) => im.messages.send({ from: 'alice', to: ['bob'], online_only: true }),
  },
  {
    name: 'N chatrooms.send low',
    cls: 'N',
    op: 'chatrooms.send',
    dedupe: true,
    call: (im) => im.chatrooms.send({ room_id: 'r1', priority: 'low' }),
  },
  {
    name: 'N moderation.decide actions',
    cls: 'N',
    op: 'moderation.decide',
    dedupe: false,
    call: (im) => im.moderation.decide({ item_id: 'i1', decision: 'no_violation', actions: [{ type: 'mute' }] }),
  },
  {
    name: 'D chatrooms.send high',
    cls: 'D',
    op: 'chatrooms.send',
    dedupe: true,
    call: (im) => im.chatrooms.send({ room_id: 'r1', priority: 'high' }),
  },
  {
    name: 'I moderation.decide version',
    cls: 'I',
    op: 'moderation.decide',
    dedupe: false,
    call: (im) =>
      im.moderation.decide({ item_id: 'i1', decision: 'no_violation', actions: [{ type: 'mute' }], version: 7 }),
  },
];

/** Start of the fake clock: a whole second, so that a Retry-After HTTP date converts exactly. */
export const FAKE_EPOCH = Date.UTC(2030, 0, 1, 0, 0, 0);
export const SEEDED_TOKEN = 'seeded-app-token-0';
/** Backoff waits with random() = 0.5: full jitter over 500 ms × 2^(n-1) (capped at 8 s) → 250, 500. */
export const BACKOFF = [250, 500];
export const MAX_RETRIES = 2;
const TIMEOUT_MS = 250;

export interface Expected {
  /** Operation requests the server saw. */
  requests: number;
  /** Of those, how many the service executed. */
  executions: number;
  /** Attempts the client made (fetch calls to operations), which the server may not have seen. */
  attempts: number;
  exchanges: number;
  waits: number[];
  /** 'ok' or the error class name. */
  outcome: string;
  status?: number;
}

export function expectedCell(row: Row, fault: Fault): Expected {
  const resend = row.cls !== 'N';
  const once = (failure: string, executedFirst: boolean, status?: number): Expected =>
    resend
      ? {
          requests: 2,
          executions: (executedFirst ? 1 : 0) + 1,
          attempts: 2,
          exchanges: 0,
          waits: [BACKOFF[0]!],
          outcome: 'ok',
        }
      : {
          requests: 1,
          executions: executedFirst ? 1 : 0,
          attempts: 1,
          exchanges: 0,
          waits: [],
          outcome: failure,
          ...(status ? { status } : {}),
        };
  switch (fault) {
    case 'refused':
      return resend
        ? {
            requests: 0,
            executions: 0,
            attempts: MAX_RETRIES + 1,
            exchanges: 0,
            waits: BACKOFF.slice(0, MAX_RETRIES),
            outcome: 'ConnectionError',
          }
        : { requests: 0, executions: 0, attempts: 1, exchanges: 0, waits: [], outcome: 'ConnectionError' };
    case 'reset-before':
      return once('ConnectionError', false);
    case 'reset-after':
      return once('ConnectionError', true);
    case 'timeout':
      return once('TimeoutError', true);
    case '500':
      return once('ApiError', true, 500);
    case '502':
    case '503':
    case '504':
      return once('ApiError', false, Number(fault));
    // A 429 was not executed: every class, N included, is resent after the Retry-After wait.
    case '429-seconds':
      return { requests: 2, executions: 1, attempts: 2, exchanges: 0, waits: [2_000], outcome: 'ok' };
    case '429-date':
      return { requests: 2, executions: 1, attempts: 2, exchanges: 0, waits: [3_000], outcome: 'ok' };
    // 401 unauthenticated: exchange again and resend once (the check comes before the operation).
    case '401-once':
      return { requests: 2, executions: 1, attempts: 2, exchanges: 1, waits: [], outcome: 'ok' };
    case '401-twice':
      return {
        requests: 2,
        executions: 0,
        attempts: 2,
        exchanges: 1,
        waits: [],
        outcome: 'UnauthenticatedError',
        status: 401,
      };
    case '401-app-deleted':
      return {
        requests: 1,
        executions: 0,
        attempts: 1,
        exchanges: 0,
        waits: [],
        outcome: 'CredentialsRevokedError',
        status: 401,
      };
    case '403-app-unavailable':
      return {
        requests: 1,
        executions: 0,
        attempts: 1,
        exchanges: 0,
        waits: [],
        outcome: 'AppUnavailableError',
        status: 403,
      };
    // Issue 16. A garbage Retry-After is no Retry-After: the 429 backoff (at least 500 ms), then the resend.
    case '429-garbage':
      return { requests: 2, executions: 1, attempts: 2, exchanges: 0, waits: [500], outcome: 'ok' };
    // A huge one is over maxRetryAfterMs: not waited for, and the client's pause is capped at 1 hour.
    case '429-huge':
      return {
        requests: 1,
        executions: 0,
        attempts: 1,
        exchanges: 0,
        waits: [],
        outcome: 'RateLimitedError',
        status: 429,
      };
    // The store fails or stalls: the client exchanges for itself and the call goes out once.
    case 'store-down':
    case 'store-slow':
      return { requests: 1, executions: 1, attempts: 1, exchanges: 1, waits: [], outcome: 'ok' };
    // An answer past maxResponseBytes (after decompression): executed, read no further, never resent.
    case 'oversized-body':
      return { requests: 1, executions: 1, attempts: 1, exchanges: 0, waits: [], outcome: 'ResponseTooLargeError' };
  }
}

/** Budget of a token store call in the store cells (real time: the store's timer is not the fake clock). */
export const STORE_BUDGET_MS = 50;

/** A token store for the store cells: every call rejects ('down') or never settles ('slow'). */
export function faultyTokenStore(kind: 'store-down' | 'store-slow'): TokenStore {
  const fail = <T>(): Promise<T> =>
    kind === 'store-down'
      ? Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379'))
      : new Promise<T>(() => undefined);
  return { get: fail, set: fail, delete: fail, deleteIf: fail } as TokenStore;
}

/** A store holding one token under whatever key the client uses (pre-seeded: no exchange needed). */
export class SeededTokenStore implements TokenStore {
  token: StoredToken | null;
  constructor(accessToken: string, now: number) {
    this.token = { accessToken, expiresAt: now + 3_600_000, obtainedAt: now };
  }
  async get(): Promise<StoredToken | null> {
    return this.token;
  }
  async set(_key: string, token: StoredToken): Promise<void> {
    this.token = token;
  }
  async delete(): Promise<void> {
    this.token = null;
  }
}

export interface Observed {
  requests: SeenRequest[];
  exchanges: SeenRequest[];
  attempts: number;
  waits: number[];
  outcome: string;
  result: unknown;
  error: unknown;
  /** For the revocation cell: the next call's error and how many requests it sent. */
  afterRevoke?: { outcome: string; requests: number };
  store: SeededTokenStore;
  client: ImClient;
}

export interface CellOptions {
  clientSecret?: string;
  /** Token in the store before the call; null: an empty store (the call exchanges first). */
  seededToken?: string | null;
  logger?: Logger;
  exchangeFault?: FaultServer['exchangeFault'];
  extra?: Partial<ClientOptions>;
}

/** A keep-alive agent that counts the requests it carries to operations (not to /token). */
function countingAgent(count: () => void): Agent {
  const agent = new Agent({ keepAlive: true });
  const addRequest = (agent as unknown as { addRequest: (req: ClientRequest, options: unknown) => void }).addRequest;
  (agent as unknown as { addRequest: typeof addRequest }).addRequest = function (req, options) {
    if (!req.path.endsWith('/token')) count();
    return addRequest.call(this, req, options);
  };
  return agent;
}

export async function runCell(server: FaultServer, row: Row, fault: Fault, o: CellOptions = {}): Promise<Observed> {
  server.reset(fault);
  if (o.exchangeFault) server.exchangeFault = o.exchangeFault;
  let now = FAKE_EPOCH;
  const waits: number[] = [];
  let attempts = 0;
  server.now = () => now;
  const store = new SeededTokenStore(o.seededToken ?? SEEDED_TOKEN, now);
  if (o.seededToken === null) store.token = null;
  const baseUrl = fault === 'refused' ? `http://127.0.0.1:${await closedPort()}` : server.baseUrl;
  const storeFault = fault === 'store-down' || fault === 'store-slow';
  const im = new ImClient({
    baseUrl,
    appKey: 'acme#chat',
    clientId: 'client-1',
    clientSecret: o.clientSecret ?? 'matrix-client-secret',
    maxRetries: MAX_RETRIES,
    timeoutMs: fault === 'timeout' ? TIMEOUT_MS : 10_000,
    tokenStore: storeFault ? faultyTokenStore(fault) : store,
    ...(storeFault ? { tokenStoreTimeoutMs: STORE_BUDGET_MS } : {}),
    maxResponseBytes: MATRIX_MAX_RESPONSE_BYTES,
    ...(o.logger ? { logger: o.logger } : {}),
    // Attempts to operations are counted where each transport hands a request out: the fetch
    // call, or the node agent (which the `agent` option lets the test give).
    ...(transportUnderTest() === 'fetch'
      ? {
          fetch: (url: string, init: RequestInit) => {
            if (!url.endsWith('/token')) attempts += 1;
            return fetch(url, init);
          },
        }
      : { agent: countingAgent(() => (attempts += 1)) }),
    internals: {
      now: () => now,
      random: () => 0.5,
      sleep: async (ms, signal) => {
        if (signal?.aborted) throw signal.reason;
        waits.push(ms);
        now += ms;
      },
    },
    ...o.extra,
  });
  let result: unknown;
  let error: unknown;
  try {
    result = await row.call(im);
  } catch (err) {
    error = err;
  }
  const observed: Observed = {
    requests: [...server.requests],
    exchanges: [...server.exchanges],
    attempts,
    waits,
    outcome: error === undefined ? 'ok' : ((error as Error)?.constructor?.name ?? typeof error),
    result,
    error,
    store,
    client: im,
  };
  if (fault === '401-app-deleted') {
    const before = server.requests.length + server.exchanges.length;
    let next: unknown;
    try {
      await row.call(im);
      next = undefined;
    } catch (err) {
      next = err;
    }
    observed.afterRevoke = {
      outcome: next === undefined ? 'ok' : ((next as Error)?.constructor?.name ?? typeof next),
      requests: server.requests.length + server.exchanges.length - before,
    };
  }
  return observed;
}
