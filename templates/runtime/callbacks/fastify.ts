/**
 * The Fastify plugin of the callback kit (Node). Fastify reads a body in its content-type parser,
 * before any route code runs and with no time limit of its own (its `requestTimeout` is off by
 * default): a drip-fed body would hold its socket for as long as the sender likes. So the plugin's
 * parser reads nothing; the route hands Fastify's raw request and response to the node handler,
 * which reads the body itself within `bodyTimeoutMs` (408 and the connection closed, else) and
 * `maxBodyBytes` (413), as on node:http.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CallbackHandler } from './handler.js';
import { toNodeHandler } from './node.js';
import type { NodeHandlerOptions } from './node.js';
import type { HeadersLike } from './types.js';

/** The parts of a Fastify instance / request / reply the plugin uses (structural: no import of fastify). */
interface FastifyScope {
  removeAllContentTypeParsers(): void;
  addContentTypeParser(
    type: string,
    parser: (request: unknown, payload: unknown, done: (err: Error | null, body?: unknown) => void) => void,
  ): void;
  post(path: string, handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>): unknown;
}
interface FastifyRequest {
  method: string;
  headers: HeadersLike;
  raw: IncomingMessage;
}
interface FastifyReply {
  raw: ServerResponse;
  hijack(): unknown;
}

export interface FastifyCallbackPluginOptions extends NodeHandlerOptions {
  /** Route of the callbacks, e.g. `/im/callbacks`. */
  path: string;
}

/**
 * A Fastify plugin serving the callback route: `app.register(fastifyCallbackPlugin(handler, { path }))`.
 * Inside its own (encapsulated) scope no parser reads the body: the route takes the raw request
 * (Fastify's reply is hijacked) and the kit reads the bytes as sent, within the handler's
 * `bodyTimeoutMs` and `maxBodyBytes`; the rest of the app keeps its JSON parsing. Register it as
 * is (not through fastify-plugin, which would lift the parser).
 */
export function fastifyCallbackPlugin(
  handler: CallbackHandler,
  options: FastifyCallbackPluginOptions,
): (instance: object) => Promise<void> {
  const { path, ...nodeOptions } = options;
  const handle = toNodeHandler(handler, nodeOptions);
  return async (instance) => {
    const scope = instance as FastifyScope;
    scope.removeAllContentTypeParsers();
    // read nothing here: the node handler reads the stream itself, with its deadline
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    scope.post(path, async (request, reply) => {
      reply.hijack();
      await handle(request.raw, reply.raw);
    });
  };
}
