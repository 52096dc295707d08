// Copied by im-openapi from templates/runtime/callbacks/frameworks.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * Glue for frameworks that hand over the raw body themselves (any framework that keeps `rawBody`):
 * answer from bytes, with no `Request` built and no Node stream read. Platform-neutral. The
 * Fastify plugin is in `fastify.ts` (Node). Recipes for every framework are in the README
 * ("Callbacks").
 */
import { HANDLER_INTERNALS } from './handler.js';
import type { CallbackCoreResult, CallbackHandler, HandlerInternals } from './handler.js';
import type { HeadersLike } from './types.js';

export interface RawCallbackRequest {
  method: string;
  headers: HeadersLike;
  /** The body bytes exactly as received. */
  rawBody: Uint8Array;
}

/** The handler's answer to a request whose raw bytes the framework already holds. */
export async function handleRawCallback(
  handler: CallbackHandler,
  request: RawCallbackRequest,
): Promise<CallbackCoreResult> {
  const internals = (handler as Partial<Record<typeof HANDLER_INTERNALS, HandlerInternals>>)[HANDLER_INTERNALS];
  if (internals) return internals.handleBytes(request.method, request.headers, request.rawBody, Date.now());
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers as Record<string, unknown>)) {
    if (typeof value === 'string') headers.set(name, value);
  }
  const response = await handler(
    new Request('http://localhost/', { method: request.method, headers, body: new Uint8Array(request.rawBody) }),
  );
  const out: Record<string, string> = {};
  response.headers.forEach((v, k) => (out[k] = v));
  return { status: response.status, headers: out, body: await response.text() };
}
