// Copied by im-openapi from templates/runtime/testing/server.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * `createFakeServiceWith(catalog, options)`: the fake service on a real node:http server on
 * 127.0.0.1 (or only its handler, for your own server). The package entry
 * (`im-server-sdk/testing`) binds the generated catalog: `createFakeService(options)`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CallbackHub } from './callbacks/hub.js';
import { Faults } from './faults.js';
import { Gate } from './gate.js';
import { Pipeline } from './pipeline.js';
import { applySeed } from './state/seed.js';
import { FakeState } from './state/state.js';
import type {
  FakeCall,
  FakeCatalog,
  FakeService,
  FakeServiceOptions,
  FaultHandle,
  OverrideCall,
  ScriptReply,
} from './types.js';

const TOKEN_TTL_RANGE: readonly [number, number] = [300, 31_536_000];

function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

/** The options, checked: a bad one is an error naming it and the rule. */
function settings(o: FakeServiceOptions) {
  const appKey = o.appKey ?? 'demo-org#demo-app';
  const [orgName, appName, ...rest] = appKey.split('#');
  if (!orgName || !appName || rest.length > 0)
    throw new TypeError(`createFakeService: appKey must be "org#app", got ${JSON.stringify(appKey)}`);
  const ttl = o.tokenTtlSeconds ?? 604_800;
  if (!Number.isInteger(ttl) || ttl < TOKEN_TTL_RANGE[0] || ttl > TOKEN_TTL_RANGE[1]) {
    throw new RangeError(
      `createFakeService: tokenTtlSeconds must be a whole number from ${TOKEN_TTL_RANGE[0]} to ${TOKEN_TTL_RANGE[1]} (seed 000 §2.1); to test expiry sooner use fake.advanceTime(ms) or fake.expireTokens()`,
    );
  }
  const host = o.host ?? '127.0.0.1';
  if (!isLoopbackHost(host) && !o.allowRemote)
    throw new TypeError(
      `createFakeService: host ${JSON.stringify(host)} is not loopback; pass allowRemote: true to listen there (the fake has no real security)`,
    );
  const pageSize = o.pageSize ?? 20;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000)
    throw new RangeError('createFakeService: pageSize must be a whole number from 1 to 1000');
  if (o.perSecond !== undefined && !(Number.isInteger(o.perSecond) && o.perSecond >= 1))
    throw new RangeError('createFakeService: perSecond must be a whole number from 1');
  const perMinute = o.tokenExchangesPerMinute ?? 120;
  if (!(Number.isInteger(perMinute) && perMinute >= 1))
    throw new RangeError('createFakeService: tokenExchangesPerMinute must be a whole number from 1');
  const seed = o.randomSeed ?? 1;
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)
    throw new RangeError('createFakeService: randomSeed must be a whole number from 0 to 4294967295');
  return {
    orgName,
    appName,
    appKey: `${orgName}#${appName}`,
    ttl,
    host,
    pageSize,
    perMinute,
    seed,
    clientId: o.clientId ?? 'fake-client-id',
    clientSecret: o.clientSecret ?? 'fake-client-secret',
  };
}

/** What the fake's parts share and change while it runs (its state is replaced on reset). */
interface Live {
  state: FakeState;
  /** ms added to the clock by `advanceTime`. */
  offset: number;
  /** Empty until the server listens. */
  baseUrl: string;
}

/** The fake's parts, built once: the facade (`fakeFacade`) and the server use them. */
interface FakeParts {
  catalog: FakeCatalog;
  s: ReturnType<typeof settings>;
  live: Live;
  now: () => number;
  calls: FakeCall[];
  overrides: Map<string, (call: OverrideCall) => ScriptReply | undefined | Promise<ScriptReply | undefined>>;
  timers: Set<ReturnType<typeof setTimeout>>;
  gate: Gate;
  faults: Faults;
  hub: CallbackHub;
  pipeline: Pipeline;
  /** Fresh state with the initial seed and the configured faults (at creation and on reset). */
  start: () => void;
}

export async function createFakeServiceWith(
  catalog: FakeCatalog,
  options: FakeServiceOptions = {},
): Promise<FakeService> {
  const parts = fakeParts(catalog, options);
  parts.start();
  const handler = handlerOf(parts.pipeline);
  let server: Server | undefined;
  if (options.listen !== false) {
    server = await listen(handler, options.port ?? 0, parts.s.host);
    const { port } = server.address() as AddressInfo;
    const host = parts.s.host;
    parts.live.baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  }
  const callbackAddresses =
    options.callbacks === undefined ? [] : Array.isArray(options.callbacks) ? options.callbacks : [options.callbacks];
  for (const address of callbackAddresses) await parts.hub.register(address as (typeof callbackAddresses)[number]);
  return fakeFacade(parts, handler, server);
}

function fakeParts(catalog: FakeCatalog, options: FakeServiceOptions): FakeParts {
  const s = settings(options);
  const live: Live = { state: new FakeState(), offset: 0, baseUrl: '' };
  const now = (): number => (options.now ?? Date.now)() + live.offset;
  const calls: FakeCall[] = [];
  const overrides: FakeParts['overrides'] = new Map();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const gate = new Gate({
    orgName: s.orgName,
    appName: s.appName,
    clientId: s.clientId,
    clientSecret: s.clientSecret,
    tokenTtlSeconds: s.ttl,
    perSecond: options.perSecond,
    tokenExchangesPerMinute: s.perMinute,
    ipAllowlist: options.ipAllowlist,
    now,
  });
  const faults = new Faults(s.seed, options.randomFaults);
  const hub = new CallbackHub({ app: s.appKey, seed: s.seed, now });
  const delay = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const t = setTimeout(() => (timers.delete(t), resolve()), ms);
      timers.add(t);
    });
  const pipeline = new Pipeline({
    catalog,
    state: () => live.state,
    gate,
    faults,
    hub,
    overrides,
    calls,
    script: options.script,
    pageSize: s.pageSize,
    keepUploadBytes: options.keepUploadBytes ?? true,
    now,
    delay,
    baseUrl: (req) => live.baseUrl || `http://${req.headers.host ?? `${s.host}:0`}`,
  });
  const start = (): void => {
    live.state = new FakeState();
    if (options.initialState)
      applySeed(live.state, options.initialState, { now, pageSize: s.pageSize, baseUrl: live.baseUrl });
    for (const rule of options.faults ?? []) faults.add(rule);
  };
  return { catalog, s, live, now, calls, overrides, timers, gate, faults, hub, pipeline, start };
}

/** The request handler: the pipeline, and a 500 naming the fake when it throws. */
function handlerOf(pipeline: Pipeline): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    pipeline.handle(req, res).catch((e: unknown) => {
      if (!res.headersSent && !res.destroyed)
        res.writeHead(500, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            error: { code: 'internal', message: `the fake failed: ${String(e)}`, request_id: 'fake-internal' },
          }),
        );
    });
  };
}

async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  port: number,
  host: string,
): Promise<Server> {
  const server = createServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}

/** The `FakeService` the caller gets: reads and controls over the parts. */
function fakeFacade(
  p: FakeParts,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  server: Server | undefined,
): FakeService {
  const { s, live, calls, overrides, faults, gate, hub, now } = p;
  return {
    get baseUrl() {
      return live.baseUrl;
    },
    orgName: s.orgName,
    appName: s.appName,
    get clientOptions() {
      return { baseUrl: live.baseUrl, appKey: s.appKey, clientId: s.clientId, clientSecret: s.clientSecret };
    },
    handler,
    calls,
    callsTo: (operationId) => calls.filter((c) => c.operationId === operationId),
    get state() {
      return live.state;
    },
    seed: (input) => applySeed(live.state, input, { now, pageSize: s.pageSize, baseUrl: live.baseUrl }),
    reset: () => {
      calls.length = 0;
      overrides.clear();
      faults.clear();
      faults.resetDraws();
      gate.reset();
      hub.clearEvents();
      p.pipeline.resetCounter();
      p.start();
    },
    fault: (rule): FaultHandle => faults.add(rule),
    clearFaults: () => faults.clear(),
    override: (operationId, handle) => {
      if (!p.catalog.operations.some((op) => op.id === operationId))
        throw new RangeError(`fake.override: no operation ${JSON.stringify(operationId)}`);
      overrides.set(operationId, handle);
      return () => overrides.delete(operationId);
    },
    revokeCredentials: (reason) => {
      if (reason !== 'app_deleted' && reason !== 'tenant_closed')
        throw new TypeError('fake.revokeCredentials: reason must be app_deleted or tenant_closed');
      gate.revoked = reason;
    },
    suspend: (what) => gate.suspend(what),
    expireTokens: () => gate.expireAll(),
    advanceTime: (ms) => {
      if (!(ms >= 0)) throw new RangeError('fake.advanceTime: ms must be 0 or more');
      live.offset += ms;
    },
    now,
    callbacks: hub,
    close: async () => {
      for (const t of p.timers) clearTimeout(t);
      p.timers.clear();
      hub.close();
      if (!server) return;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
