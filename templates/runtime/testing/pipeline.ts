/**
 * One request through the fake, in the service's order: the script (if any), the token
 * exchange or the checks of seed 000 §5, faults, request validation, the operation (an override,
 * its stateful handler or the generated sample), the answer, the events of the change.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OperationSpec } from '../operation.js';
import type { CallbackHub } from './callbacks/hub.js';
import { FakeApiError, invalidArgument } from './errors.js';
import { drop, type Exchange, record, write, writeError, writeFault, writeReply } from './exchange.js';
import type { Faults } from './faults.js';
import type { Gate } from './gate.js';
import type { Answer, HandlerContext } from './ops/context.js';
import { STATEFUL_HANDLERS } from './ops/index.js';
import { PART_UPLOAD, PART_UPLOAD_PREFIX, receivePart } from './ops/media.js';
import {
  buildRoutes,
  flatParams,
  maskSecrets,
  matchRoute,
  queryObject,
  typedQuery,
  type RouteMatch,
} from './routes.js';
import type { FakeState, Json } from './state/state.js';
import type { FakeCall, FakeCatalog, FakeRequest, FaultRule, OverrideCall, ScriptReply } from './types.js';

/** Largest JSON body the fake reads (parts may be larger: they are streamed and counted). */
const MAX_JSON_BYTES = 16 * 1024 * 1024;

export interface PipelineEnv {
  catalog: FakeCatalog;
  state(): FakeState;
  gate: Gate;
  faults: Faults;
  hub: CallbackHub;
  overrides: Map<string, (call: OverrideCall) => ScriptReply | undefined | Promise<ScriptReply | undefined>>;
  calls: FakeCall[];
  script: ((request: FakeRequest) => ScriptReply | undefined | Promise<ScriptReply | undefined>) | undefined;
  pageSize: number;
  keepUploadBytes: boolean;
  baseUrl(req: IncomingMessage): string;
  now(): number;
  /** Timers of late answers, cleared when the fake closes. */
  delay(ms: number): Promise<void>;
}

/** Reads the body: kept up to MAX_JSON_BYTES (or whole, for a part upload whose bytes are kept), else only counted. */
async function readBody(
  req: IncomingMessage,
  keep: boolean,
  limit: number,
): Promise<{ bytes: Buffer; size: number; tooLarge: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (keep && size <= limit) chunks.push(chunk as Buffer);
  }
  return { bytes: Buffer.concat(chunks), size, tooLarge: keep && size > limit };
}

function clientIp(req: IncomingMessage): string {
  return (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
}

export class Pipeline {
  private readonly routes;
  private counter = 0;

  constructor(private readonly env: PipelineEnv) {
    this.routes = buildRoutes(env.catalog.operations);
  }

  resetCounter(): void {
    this.counter = 0;
  }

  /** Reads the request whole and matches its route: the exchange every later step answers through. */
  private async receive(
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<{ x: Exchange; url: URL; body: { bytes: Buffer; size: number; tooLarge: boolean }; isPart: boolean }> {
    const url = new URL(req.url ?? '/', 'http://fake.invalid');
    const method = (req.method ?? 'GET').toUpperCase();
    const isPart = method === 'PUT' && url.pathname.startsWith(PART_UPLOAD_PREFIX);
    const body = await readBody(
      req,
      !isPart || this.env.keepUploadBytes,
      isPart ? Number.MAX_SAFE_INTEGER : MAX_JSON_BYTES,
    );
    const match = isPart ? undefined : matchRoute(this.routes, method, url.pathname);
    const bodyText = isPart ? '' : body.bytes.toString('utf8');
    let json: unknown;
    try {
      json = bodyText === '' ? undefined : JSON.parse(bodyText);
    } catch {
      json = undefined;
    }
    const request: FakeRequest = {
      method,
      url: req.url ?? '/',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      bodyText,
      json,
      operationId: isPart ? PART_UPLOAD : match?.op.id,
      at: this.env.now(),
    };
    const query = queryObject(url.searchParams);
    const x: Exchange = {
      call: undefined,
      req,
      res,
      request,
      n: ++this.counter,
      match,
      params: flatParams(match?.pathParams ?? {}, query, json),
      bodyBytes: body.size,
    };
    return { x, url, body, isPart };
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { x, url, body, isPart } = await this.receive(req, res);
    const { method, bodyText, json } = x.request;
    const match = x.match;
    record(this.env, x, { pending: true });
    if (this.env.script) {
      const reply = await this.env.script(x.request);
      if (reply) return writeReply(this.env, x, reply);
    }
    if (body.tooLarge)
      return writeError(
        this.env,
        x,
        new FakeApiError(413, 'invalid_argument', `the body is over ${MAX_JSON_BYTES} bytes`),
      );
    if (isPart) return this.part(x, url, body);
    const download = method === 'GET' ? /^\/_fake\/uploads\/([^/]+)\/file$/.exec(url.pathname) : null;
    if (download) return this.download(x, decodeURIComponent(download[1]!));
    if (!match)
      return writeError(
        this.env,
        x,
        new FakeApiError(
          404,
          'not_found',
          `no operation ${method} ${url.pathname} (the path must start with /{org_name}/{app_name})`,
        ),
      );
    if (bodyText !== '' && json === undefined)
      return writeError(this.env, x, new FakeApiError(400, 'invalid_argument', 'the body is not JSON'));
    try {
      if (match.op.isTokenExchange) return await this.tokenExchange(x, match);
      this.env.gate.check(clientIp(req), req.headers.authorization, match.org, match.app);
    } catch (e) {
      return writeError(this.env, x, e);
    }
    const fault = this.env.faults.pick(match.op.id, x.params);
    if (fault && fault.kind !== 'slow' && fault.kind !== 'drop_after') return writeFault(this.env, x, fault);
    if (fault?.kind === 'slow') await this.env.delay(fault.delayMs ?? 2000);
    return this.operation(x, match, fault);
  }

  private async tokenExchange(x: Exchange, match: RouteMatch): Promise<void> {
    const fault = this.env.faults.pick(match.op.id, x.params);
    if (fault && fault.kind !== 'slow' && fault.kind !== 'drop_after') return writeFault(this.env, x, fault);
    if (fault?.kind === 'slow') await this.env.delay(fault.delayMs ?? 2000);
    const token = this.env.gate.exchange(clientIp(x.req), match.org, match.app, x.request.json);
    if (fault?.kind === 'drop_after') return drop(this.env, x, 'after', fault.kind);
    write(this.env, x, 200, token, {});
  }

  private async operation(x: Exchange, match: RouteMatch, fault: FaultRule | undefined): Promise<void> {
    const op = match.op;
    const issues = await this.validate(op, x);
    if (issues) return writeError(this.env, x, issues);
    const events: Array<{ type: string; data: Json }> = [];
    const run = (): { status: number; body: unknown } => {
      const answer = this.run(op, x, events);
      return { status: answer.status ?? op.successStatuses[0] ?? 200, body: answer.body };
    };
    let reply: ScriptReply | undefined;
    let own: { status: number; body: unknown } | undefined;
    try {
      const override = this.env.overrides.get(op.id);
      if (override) {
        const call: OverrideCall = {
          operationId: op.id,
          params: x.params as Record<string, any>,
          body: x.request.json,
          query: x.request.query,
          headers: x.request.headers,
          state: this.env.state(),
          answer: async () => (own ??= run()),
        };
        reply = await override(call);
      }
      if (!reply) own ??= run();
    } catch (e) {
      return writeError(this.env, x, e);
    }
    if (events.length > 0) this.env.hub.emit(op.id, events);
    if (fault?.kind === 'drop_after') return drop(this.env, x, 'after', fault.kind);
    if (reply) return writeReply(this.env, x, reply);
    write(this.env, x, own!.status, own!.body, {});
  }

  /** The stateful handler of the operation, or the generated sample of its response schema. */
  private run(op: OperationSpec, x: Exchange, events: Array<{ type: string; data: Json }>): Answer {
    const handler = STATEFUL_HANDLERS[op.id];
    const sample = this.env.catalog.responses[op.id]?.sample;
    if (!handler) return { body: sample === undefined ? {} : structuredClone(sample) };
    const c: HandlerContext = {
      op,
      params: x.params as Record<string, any>,
      body: (x.request.json && typeof x.request.json === 'object' ? x.request.json : {}) as Record<string, any>,
      state: this.env.state(),
      pageSize: this.env.pageSize,
      baseUrl: this.env.baseUrl(x.req),
      keepUploadBytes: this.env.keepUploadBytes,
      now: this.env.now,
      emit: (type, data) => events.push({ type, data }),
    };
    return handler(c);
  }

  /** The generated request validator (the client's own): 400 invalid_argument naming the first field, or undefined. */
  private async validate(op: OperationSpec, x: Exchange): Promise<FakeApiError | undefined> {
    if (!op.loadValidator) return undefined;
    const validator = await op.loadValidator();
    const query = new Set(op.queryParams);
    const found = (validator.validate({ ...x.params, ...typedQuery(queryObject(x.request.query)) }) ?? []).filter(
      (i) => !query.has(i.pointer.split('/')[1] ?? ''),
    );
    if (found.length === 0) return undefined;
    const first = found[0]!;
    const error = invalidArgument(first.pointer || '(params)', first.message);
    error.details!.issues = found.map((i) => ({ field: i.pointer, rule: i.rule, problem: i.message }));
    return error;
  }

  private part(x: Exchange, url: URL, body: { bytes: Buffer; size: number }): void {
    const m = /^\/_fake\/uploads\/([^/]+)\/parts\/(\d+)$/.exec(url.pathname);
    if (!m) return writeError(this.env, x, new FakeApiError(404, 'not_found', 'no such upload address'));
    x.params = { file_id: decodeURIComponent(m[1]!), part_number: Number(m[2]) };
    x.call!.params = maskSecrets(x.params) as Record<string, unknown>;
    const fault = this.env.faults.pick(PART_UPLOAD, x.params);
    if (fault && fault.kind !== 'drop_after' && fault.kind !== 'slow') return writeFault(this.env, x, fault);
    try {
      receivePart(
        { state: this.env.state(), keepUploadBytes: this.env.keepUploadBytes },
        String(x.params.file_id),
        Number(x.params.part_number),
        url.searchParams.get('token'),
        { size: body.size, ...(this.env.keepUploadBytes ? { data: new Uint8Array(body.bytes) } : {}) },
      );
    } catch (e) {
      return writeError(this.env, x, e);
    }
    if (fault?.kind === 'drop_after') return drop(this.env, x, 'after', fault.kind);
    const done = (): void => write(this.env, x, 200, {}, {});
    if (fault?.kind === 'slow') void this.env.delay(fault.delayMs ?? 2000).then(done);
    else done();
  }

  /** GET of a completed file's `url`: its bytes, when the fake kept them. */
  private download(x: Exchange, fileId: string): void {
    const file = this.env.state().files.get(fileId);
    const bytes = this.env.state().fileContents.get(fileId);
    if (!file || !bytes)
      return writeError(
        this.env,
        x,
        new FakeApiError(
          404,
          'not_found',
          `no content of file ${JSON.stringify(fileId)} (kept only with keepUploadBytes)`,
        ),
      );
    record(this.env, x, { status: 200, body: `(${bytes.length} bytes)`, headers: {} });
    if (x.res.destroyed) return;
    x.res.writeHead(200, {
      'content-type': typeof file.content_type === 'string' ? file.content_type : 'application/octet-stream',
      'content-length': String(bytes.length),
    });
    x.res.end(bytes);
  }
}
