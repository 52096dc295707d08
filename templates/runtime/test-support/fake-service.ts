/**
 * Test support for the runtime tests (`test-support/` is not copied into the package): scripted
 * answers from THE fake service (`testing/`, the one the package ships as im-server-sdk/testing),
 * operation table fixtures and a client factory. The runtime's own tests script every answer
 * (`handle`, `token`): they go through the fake's `script` hook, which answers before its own
 * checks, so the fake's server, recording, dropped connections and late answers are the ones
 * these tests exercise. Fakes started in a test are closed after it.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { afterEach } from 'vitest';
import { ImCore } from '../core/im-core.js';
import type { ClientOptions } from '../core/options.js';
import type { OperationSpec } from '../operation.js';
import { createFakeServiceWith } from '../testing/server.js';
import type { FakeRequest, ScriptReply } from '../testing/types.js';

export const SECRET = 'sk-LEAKCHECK-secret-7f3a9c';
export const SECRET_2 = 'sk-LEAKCHECK-rotated-51b0e2';
export const TOKEN_PREFIX = 'tok-LEAKCHECK-appToken-';

export interface Recorded {
  method: string;
  /** Path and query as received. */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
  json: Record<string, unknown> | undefined;
  at: number;
}

export type Reply =
  | { status: number; body?: unknown; headers?: Record<string, string>; delayMs?: number }
  | { reset: true }
  | { hang: true };

export interface FakeServiceOptions {
  /** Answer to an operation call; `n` counts operation calls from 1. */
  handle?: (req: Recorded, n: number) => Reply | Promise<Reply>;
  /** Answer to a token exchange; default: a fresh token `TOKEN_PREFIX + n`, 3600 s. */
  token?: (req: Recorded, n: number) => Reply | Promise<Reply>;
  /** Secrets the default token handler accepts (default: [SECRET]). */
  acceptSecrets?: string[];
  expiresIn?: number;
}

export interface FakeService {
  baseUrl: string;
  requests: Recorded[];
  exchanges: Recorded[];
  calls: Recorded[];
  close(): Promise<void>;
}

const open: FakeService[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

export function apiError(
  status: number,
  code: string,
  details?: Record<string, unknown>,
  headers?: Record<string, string>,
): Reply {
  return {
    status,
    body: {
      error: { code, message: `${code} said the service`, request_id: `req-${code}`, ...(details ? { details } : {}) },
    },
    ...(headers ? { headers } : {}),
  };
}

function recorded(req: FakeRequest): Recorded {
  const json = req.json !== null && typeof req.json === 'object' ? (req.json as Record<string, unknown>) : undefined;
  return {
    method: req.method,
    url: req.url,
    path: req.path,
    query: req.query,
    headers: req.headers as IncomingHttpHeaders,
    body: req.bodyText,
    json,
    at: req.at,
  };
}

/** A reply of these tests as the fake's script answer (the request id header they expect by default). */
function scriptReply(reply: Reply): ScriptReply {
  if ('reset' in reply) return { drop: true };
  if ('hang' in reply) return { hang: true };
  return {
    status: reply.status,
    body: reply.body,
    headers: { 'x-request-id': 'req-hdr-1', ...(reply.headers ?? {}) },
    ...(reply.delayMs ? { delayMs: reply.delayMs } : {}),
  };
}

export async function startFakeService(options: FakeServiceOptions = {}): Promise<FakeService> {
  const requests: Recorded[] = [];
  const exchanges: Recorded[] = [];
  const calls: Recorded[] = [];
  const accept = options.acceptSecrets ?? [SECRET];
  const defaultToken = (req: Recorded, n: number): Reply =>
    accept.includes(String(req.json?.client_secret))
      ? {
          status: 200,
          body: { access_token: `${TOKEN_PREFIX}${n}`, expires_in: options.expiresIn ?? 3600, application: 'app-1' },
        }
      : apiError(401, 'invalid_client');
  const fake = await createFakeServiceWith(
    { operations: [], responses: {} },
    {
      script: async (req) => {
        const rec = recorded(req);
        requests.push(rec);
        const isToken = rec.path.endsWith('/token');
        (isToken ? exchanges : calls).push(rec);
        const n = isToken ? exchanges.length : calls.length;
        const make = isToken
          ? (options.token ?? defaultToken)
          : (options.handle ?? (() => ({ status: 200, body: { ok: true } })));
        try {
          return scriptReply(await make(rec, n));
        } catch (err) {
          return { status: 500, body: { error: { code: 'test_bug', message: String(err) } } };
        }
      },
    },
  );
  const service: FakeService = { baseUrl: fake.baseUrl, requests, exchanges, calls, close: () => fake.close() };
  open.push(service);
  return service;
}

/**
 * The transport the behaviour suite runs on: `fetch` in the vitest project fetch-transport
 * (IM_TEST_TRANSPORT=fetch), else `node`, named explicitly so that a fallback cannot hide.
 */
export function transportUnderTest(): 'node' | 'fetch' {
  return process.env.IM_TEST_TRANSPORT === 'fetch' ? 'fetch' : 'node';
}

/** A client with fast, deterministic retries (jitter 0 → no backoff wait) unless overridden. */
export function makeClient(baseUrl: string, overrides: Partial<ClientOptions> = {}): ImCore {
  return new ImCore({
    baseUrl,
    appKey: 'acme#chat',
    clientId: 'client-1',
    clientSecret: SECRET,
    timeoutMs: 2_000,
    internals: { random: () => 0 },
    ...(overrides.fetch === undefined ? { transport: transportUnderTest() } : {}),
    ...overrides,
  });
}

function op(partial: Partial<OperationSpec> & Pick<OperationSpec, 'id' | 'method' | 'path'>): OperationSpec {
  return {
    auth: true,
    pathParams: [],
    queryParams: [],
    body: 'none',
    bodyFields: [],
    retryClass: 'Q',
    successStatuses: [200],
    ...partial,
  };
}

export const ops = {
  usersGet: op({ id: 'users.get', method: 'GET', path: '/users/{username}', pathParams: ['username'] }),
  usersCreate: op({
    id: 'users.create',
    method: 'POST',
    path: '/users',
    body: 'object',
    bodyFields: ['username'],
    retryClass: 'U',
  }),
  usersUpdate: op({
    id: 'users.update',
    method: 'PATCH',
    path: '/users/{username}',
    pathParams: ['username'],
    body: 'object',
    retryClass: 'I',
  }),
  setPassword: op({
    id: 'users.set_password',
    method: 'PUT',
    path: '/users/{username}/password',
    pathParams: ['username'],
    body: 'object',
    bodyFields: ['password'],
    retryClass: 'N',
  }),
  messagesSend: op({
    id: 'messages.send',
    method: 'POST',
    path: '/messages',
    body: 'object',
    retryClass: 'D',
    retryClassWhen: [{ class: 'N', all: [{ field: 'online_only', equals: true }] }],
    dedupeKey: { in: 'body', name: 'client_msg_id' },
  }),
  chatroomsSend: op({
    id: 'chatrooms.send',
    method: 'POST',
    path: '/chatrooms/{room_id}/messages',
    pathParams: ['room_id'],
    body: 'object',
    retryClass: 'D',
    retryClassWhen: [{ class: 'N', all: [{ field: 'priority', equals: 'low' }] }],
    dedupeKey: { in: 'body', name: 'client_msg_id' },
  }),
  moderationDecide: op({
    id: 'moderation.decide',
    method: 'POST',
    path: '/moderation/items/{item_id}/decide',
    pathParams: ['item_id'],
    body: 'object',
    retryClass: 'I',
    retryClassWhen: [
      {
        class: 'N',
        all: [
          { field: 'actions', present: true },
          { field: 'version', present: false },
        ],
      },
    ],
  }),
  headerKeyed: op({
    id: 'test.header_keyed',
    method: 'POST',
    path: '/things',
    body: 'object',
    retryClass: 'D',
    dedupeKey: { in: 'header', name: 'Idempotency-Key' },
  }),
  rtcUpdate: op({
    id: 'rtc.update_channel',
    method: 'PATCH',
    path: '/rtc/channels/{channel_id}',
    pathParams: ['channel_id'],
    body: 'object',
    bodyFields: ['expires_at', 'name'],
    retryClass: 'I',
  }),
  groupsOfUser: op({
    id: 'groups.of_user',
    method: 'GET',
    path: '/users/{username}/groups',
    pathParams: ['username'],
    queryParams: ['cursor', 'limit'],
    pagination: { kind: 'cursor', itemsField: 'items', cursorParam: 'cursor', nextCursorField: 'next_cursor' },
  }),
  friendsList: op({
    id: 'friends.list',
    method: 'GET',
    path: '/users/{username}/friends',
    pathParams: ['username'],
    queryParams: ['cursor', 'known_version'],
    pagination: {
      kind: 'versioned',
      itemsField: 'items',
      cursorParam: 'cursor',
      nextCursorField: 'next_cursor',
      versionField: 'version',
    },
  }),
  usersList: op({
    id: 'users.list',
    method: 'GET',
    path: '/users',
    queryParams: ['cursor', 'limit', 'tags', 'active'],
  }),
} satisfies Record<string, OperationSpec>;

/** Collects everything a logger receives. */
export function recordingLogger(): { lines: string[]; logger: Required<NonNullable<ClientOptions['logger']>> } {
  const lines: string[] = [];
  const log = (level: string) => (msg: string, meta?: Record<string, unknown>) =>
    lines.push(`${level} ${msg} ${meta ? JSON.stringify(meta) : ''}`);
  return { lines, logger: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') } };
}
