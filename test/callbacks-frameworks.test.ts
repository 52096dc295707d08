/**
 * The callback receiver in each framework, as the README's recipes mount it, against the real
 * framework from npm (exact-pinned devDependencies): a real server on 127.0.0.1, a request
 * signed by the kit's signer verified and processed, its redelivery deduplicated (acknowledged,
 * not processed again), a tampered one refused with 401, and a JSON route beside it still
 * parsing JSON. Next.js route handlers are `(request: NextRequest) => Promise<Response>` exports:
 * tested by calling the exported POST with Next's own NextRequest from `next/server` (a `next dev`
 * server is not started: it compiles with SWC, which the route handler does not need).
 */
import 'reflect-metadata';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  callbackBodyDeadline,
  createCallbackHandler,
  createNodeCallbackHandler,
  fastifyCallbackPlugin,
  isKnownEvent,
  sampleCallbackBody,
  signCallbackRequest,
  type CallbackEventItem,
} from '../generated/src/callbacks.js';
import * as edge from '../generated/src/callbacks-edge.js';

const SECRET = 'whsec_frameworks_Lw3Xc9';
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (stops.length) await stops.pop()!();
});

/** A fresh receiver's options: processed event ids are collected. */
function receiver(): { seen: string[]; options: { secrets: string; onEvent: (event: CallbackEventItem) => void } } {
  const seen: string[] = [];
  return { seen, options: { secrets: SECRET, onEvent: (event) => void (isKnownEvent(event) && seen.push(event.id)) } };
}

/** Signed event → 200, the same again → 200 but not processed, tampered → 401, wrong secret → 401. */
async function exercise(
  post: (headers: Record<string, string>, body: string) => Promise<{ status: number; text: string }>,
  seen: string[],
): Promise<void> {
  const body = sampleCallbackBody('event', { type: 'friend.added' });
  const signed = signCallbackRequest({ body, secrets: SECRET });
  const first = await post(signed.headers, signed.body);
  expect(first.status, first.text).toBe(200);
  const again = await post(signCallbackRequest({ body, secrets: SECRET }).headers, signed.body);
  expect(again.status, again.text).toBe(200);
  expect(seen).toEqual([body.events[0]!.id]);
  const tampered = await post(signed.headers, signed.body.replace('"friend.added"', '"friend.added" '));
  expect(tampered.status).toBe(401);
  const wrong = signCallbackRequest({ body: sampleCallbackBody('event'), secrets: 'not-the-secret' });
  expect((await post(wrong.headers, wrong.body)).status).toBe(401);
  expect(seen).toHaveLength(1);
  const verify = sampleCallbackBody('verify');
  const v = signCallbackRequest({ body: verify, secrets: SECRET });
  const echoed = await post(v.headers, v.body);
  expect([echoed.status, JSON.parse(echoed.text)]).toEqual([200, { challenge: verify.challenge }]);
}

function poster(base: string, path = '/im/callbacks') {
  return async (headers: Record<string, string>, body: string) => {
    const res = await fetch(`${base}${path}`, { method: 'POST', headers, body, signal: AbortSignal.timeout(5000) });
    return { status: res.status, text: await res.text() };
  };
}

/** Checks that the app's other routes still parse JSON (the raw route did not change them). */
async function jsonStillParsed(base: string): Promise<void> {
  const res = await fetch(`${base}/api/echo`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"a":1}',
    signal: AbortSignal.timeout(5000),
  });
  expect(await res.json()).toEqual({ got: { a: 1 } });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stops.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('callback receiver recipes, each against the real framework', () => {
  it('Express 5: the node handler mounted before express.json()', async () => {
    const { default: express } = await import('express');
    const { seen, options } = receiver();
    const app = express();
    app.post('/im/callbacks', createNodeCallbackHandler(options));
    app.use(express.json());
    app.post('/api/echo', (req, res) => void res.json({ got: req.body }));
    const base = await listen(createServer(app));
    await exercise(poster(base), seen);
    await jsonStillParsed(base);
  });

  it('Express 5: callbackBodyDeadline() and express.raw() on the route when express.json() is global', async () => {
    const { default: express } = await import('express');
    const { seen, options } = receiver();
    const app = express();
    app.post(
      '/im/callbacks',
      callbackBodyDeadline(),
      express.raw({ type: '*/*', limit: '1mb' }),
      createNodeCallbackHandler(options),
    );
    app.use(express.json());
    app.post('/api/echo', (req, res) => void res.json({ got: req.body }));
    const base = await listen(createServer(app));
    await exercise(poster(base), seen);
  });

  it('Fastify 5: fastifyCallbackPlugin (a Buffer parser in its own scope; other routes keep JSON)', async () => {
    const { default: Fastify } = await import('fastify');
    const { seen, options } = receiver();
    const app = Fastify();
    await app.register(fastifyCallbackPlugin(createCallbackHandler(options), { path: '/im/callbacks' }));
    app.post('/api/echo', async (request) => ({ got: request.body }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    stops.push(() => app.close());
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    await exercise(poster(base), seen);
    await jsonStillParsed(base);
    // the handler's maxBodyBytes (1 MB) is the scope's body limit: Fastify answers 413 itself
    const big = signCallbackRequest({
      body: { kind: 'event', events: [], pad: 'x'.repeat(1024 * 1024) },
      secrets: SECRET,
    });
    expect((await poster(base)(big.headers, big.body)).status).toBe(413);
  });

  it('Koa 3: the node handler with ctx.respond = false', async () => {
    const { default: Koa } = await import('koa');
    const { seen, options } = receiver();
    const handle = createNodeCallbackHandler(options);
    const app = new Koa();
    app.use(async (ctx, next) => {
      if (ctx.method !== 'POST' || ctx.path !== '/im/callbacks') return next();
      ctx.respond = false; // the kit writes the answer itself
      await handle(ctx.req, ctx.res);
    });
    app.use(async (ctx) => {
      // a tiny JSON body reader standing in for koa-bodyparser on the other routes
      const chunks: Buffer[] = [];
      for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
      ctx.body = { got: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
    });
    const base = await listen(createServer(app.callback()));
    await exercise(poster(base), seen);
    await jsonStillParsed(base);
  });

  it('Hono 4 (on @hono/node-server): the Web handler with c.req.raw, Node and edge entries', async () => {
    const { Hono } = await import('hono');
    const { serve } = await import('@hono/node-server');
    for (const kit of [{ createCallbackHandler }, edge]) {
      const { seen, options } = receiver();
      const handler = kit.createCallbackHandler(options);
      const app = new Hono();
      app.post('/im/callbacks', (c) => handler(c.req.raw));
      app.post('/api/echo', async (c) => c.json({ got: await c.req.json() }));
      const server = await new Promise<Server>((resolve) => {
        const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as Server));
      });
      stops.push(async () => {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      });
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      await exercise(poster(base), seen);
      await jsonStillParsed(base);
    }
  });

  it('Next.js 15 route handlers (app/im/callbacks/route.ts): export const POST, Node and edge runtime, called with a NextRequest', async () => {
    // route.ts:  export const POST = createCallbackHandler({ … });   (edge: from 'im-server-sdk/callbacks/edge')
    const { NextRequest } = await import('next/server.js');
    for (const kit of [{ createCallbackHandler }, edge]) {
      const { seen, options } = receiver();
      const route: { POST: (request: InstanceType<typeof NextRequest>) => Promise<Response> } = {
        POST: kit.createCallbackHandler(options),
      };
      await exercise(async (headers, body) => {
        const res = await route.POST(
          new NextRequest('http://127.0.0.1:3000/im/callbacks', { method: 'POST', headers, body }),
        );
        return { status: res.status, text: await res.text() };
      }, seen);
    }
  });

  it('NestJS 12 (platform-express): rawBody: true and a controller handing req/res to the node handler', async () => {
    const { NestFactory } = await import('@nestjs/core');
    const { Module, Controller, Post, Req, Res, Body } = await import('@nestjs/common');
    const { seen, options } = receiver();
    const handle = createNodeCallbackHandler(options);
    // Decorators applied by hand (this test file is not compiled with experimentalDecorators).
    class CallbacksController {
      async receive(req: IncomingMessage, res: ServerResponse): Promise<void> {
        await handle(req, res);
      }
      echo(body: unknown): unknown {
        return { got: body };
      }
    }
    const proto = CallbacksController.prototype;
    Req()(proto, 'receive', 0);
    Res()(proto, 'receive', 1);
    Reflect.decorate([Post('im/callbacks')], proto, 'receive', Object.getOwnPropertyDescriptor(proto, 'receive'));
    Body()(proto, 'echo', 0);
    Reflect.decorate([Post('api/echo')], proto, 'echo', Object.getOwnPropertyDescriptor(proto, 'echo'));
    Controller()(CallbacksController);
    class AppModule {}
    Module({ controllers: [CallbacksController] })(AppModule);
    const app = await NestFactory.create(AppModule, { rawBody: true, logger: false });
    app.use('/im/callbacks', callbackBodyDeadline());
    await app.listen(0, '127.0.0.1');
    stops.push(() => app.close());
    const base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
    await exercise(poster(base), seen);
    await jsonStillParsed(base);
  });
});
