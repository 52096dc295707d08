// Copied by im-openapi from templates/runtime/callbacks/frameworks.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * Glue for frameworks that hand over the raw body themselves (Fastify with a Buffer parser, or any
 * framework that keeps `rawBody`): answer from bytes, with no `Request` built and no Node stream
 * read. Platform-neutral. Recipes for every framework are in the README ("Callbacks").
 */
import { HANDLER_INTERNALS } from './handler.js';
import type { CallbackCoreResult, CallbackHandler, HandlerInternals } from './handler.js';
import { DEFAULT_MAX_BODY_BYTES } from './handler.js';
import type { HeadersLike } from './types.js';

export interface RawCallbackRequest {
  method: string;
  headers: HeadersLike;
  /** The body bytes exactly as received. */
  rawBody: Uint8Array;
}

/** The handler's answer to a request whose raw bytes the framework already holds. */
export async function handleRawCallback(handler: CallbackHandler, request: RawCallbackRequest): Promise<CallbackCoreResult> {
  const internals = (handler as Partial<Record<typeof HANDLER_INTERNALS, HandlerInternals>>)[HANDLER_INTERNALS];
  if (internals) return internals.handleBytes(request.method, request.headers, request.rawBody, Date.now());
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers as Record<string, unknown>)) {
    if (typeof value === 'string') headers.set(name, value);
  }
  const response = await handler(new Request('http://localhost/', { method: request.method, headers, body: new Uint8Array(request.rawBody) }));
  const out: Record<string, string> = {};
  response.headers.forEach((v, k) => (out[k] = v));
  return { status: response.status, headers: out, body: await response.text() };
}

/** The parts of a Fastify instance / reply the plugin uses (structural: no import of fastify). */
interface FastifyScope {
  removeAllContentTypeParsers(): void;
  addContentTypeParser(
    type: string,
    options: { parseAs: 'buffer'; bodyLimit: number },
    parser: (request: unknown, body: Uint8Array, done: (err: Error | null, body?: unknown) => void) => void,
  ): void;
  post(path: string, handler: (request: { method: string; headers: HeadersLike; body: unknown }, reply: FastifyReply) => Promise<unknown>): unknown;
}
interface FastifyReply {
  code(status: number): FastifyReply;
  headers(values: Record<string, string>): FastifyReply;
}

export interface FastifyCallbackPluginOptions {
  /** Route of the callbacks, e.g. `/im/callbacks`. */
  path: string;
}

/**
 * A Fastify plugin serving the callback route: `app.register(fastifyCallbackPlugin(handler, { path }))`.
 * Inside its own (encapsulated) scope it replaces Fastify's JSON parser with a Buffer parser for
 * every content type, so the signature sees the bytes as sent and the rest of the app keeps its
 * JSON parsing. Register it as is (not through fastify-plugin, which would lift the parser).
 */
export function fastifyCallbackPlugin(handler: CallbackHandler, options: FastifyCallbackPluginOptions): (instance: object) => Promise<void> {
  const internals = (handler as Partial<Record<typeof HANDLER_INTERNALS, HandlerInternals>>)[HANDLER_INTERNALS];
  const bodyLimit = internals?.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  return async (instance) => {
    const scope = instance as FastifyScope;
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_request, body, done) => done(null, body));
    scope.post(options.path, async (request, reply) => {
      const rawBody = request.body instanceof Uint8Array ? request.body : new Uint8Array(0);
      const result = await handleRawCallback(handler, { method: request.method, headers: request.headers, rawBody });
      reply.code(result.status).headers(result.headers);
      return result.body;
    });
  };
}
