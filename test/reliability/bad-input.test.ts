/**
 * Issue 9, bad input (property-based, fast-check, bounded runs) over the public surface of the
 * generated package:
 *  - random params (and request options) to every method of ImClient: a rejection is always an
 *    ImError subclass, params the request validator refuses send nothing (the server counts),
 *    nothing hangs;
 *  - random headers and bodies (signed or not) to the callback handler: always a Response with
 *    a 2xx/4xx status, never a throw;
 *  - random URLs to validateCallbackUrlSyntax / validateCallbackUrl: never throws, answers ok
 *    or a rule.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApiModel } from '../../generator/build-model.js';
import { parseSpec } from '../../generator/load-spec.js';
import type { OperationModel } from '../../generator/model.js';
import {
  allow,
  createCallbackHandler,
  sampleCallbackBody,
  signCallbackRequest,
  validateCallbackUrl,
  validateCallbackUrlSyntax,
} from '../../generated/src/callbacks/index.js';
import { BatchError, ImClient, ImError, ValidationError } from '../../generated/src/index.js';
import { operations } from '../../generated/src/operations.js';
import type { RequestValidator } from '../../generated/src/operation.js';
import { fieldsOf, validParams } from '../helpers/sample-params.js';
import { repoRoot } from '../helpers/seed.js';

const model = buildApiModel(parseSpec(readFileSync(join(repoRoot, 'spec/openapi.yaml'), 'utf8'), 'spec/openapi.yaml'));
const RUNS_PER_OPERATION = Number(process.env.IM_FC_RUNS ?? 12);
const HANG_MS = 5_000;

let server: Server;
let baseUrl = '';
let opRequests = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.url?.endsWith('/token'))
        return res.end(JSON.stringify({ access_token: 'bad-input-token', expires_in: 3600 }));
      opRequests += 1;
      res.end(JSON.stringify({ items: [], next_cursor: null }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((r) => server.close(() => r()));
});

/** Settles `promise` or fails the property after HANG_MS. */
async function settle(promise: unknown): Promise<{ ok: true; value: unknown } | { ok: false; error: unknown }> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`HUNG for ${HANG_MS} ms`)), HANG_MS)),
  );
  try {
    return { ok: true, value: await Promise.race([Promise.resolve(promise), hang]) };
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('HUNG')) throw error;
    return { ok: false, error };
  } finally {
    clearTimeout(timer);
  }
}

/** Random params around a valid object: fields dropped, fields replaced with anything, extra keys. */
function paramsArbitrary(op: OperationModel): fc.Arbitrary<unknown> {
  const valid = validParams(model, op);
  const names = fieldsOf(op).map((f) => f.name);
  const key =
    names.length > 0 ? fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 12 })) : fc.string({ maxLength: 12 });
  const mutated = fc
    .record({
      drop: fc.subarray(Object.keys(valid)),
      set: fc.dictionary(key, fc.anything({ maxDepth: 2 }), { maxKeys: 3 }),
    })
    .map(({ drop, set }) => {
      const p: Record<string, unknown> = { ...valid };
      for (const d of drop) delete p[d];
      return Object.assign(p, set);
    });
  return fc.oneof(
    { weight: 6, arbitrary: mutated },
    { weight: 1, arbitrary: fc.constant(valid) },
    { weight: 2, arbitrary: fc.anything({ maxDepth: 2 }) },
  );
}

async function validatorOf(id: string): Promise<RequestValidator | undefined> {
  const entry = (operations as Record<string, { loadValidator?: () => Promise<RequestValidator> }>)[id];
  return entry?.loadValidator ? entry.loadValidator() : undefined;
}

describe('random params to every method of the generated client', () => {
  it(`${model.operations.length} operations × ${RUNS_PER_OPERATION} runs: typed errors only, nothing sent for invalid params`, async () => {
    const client = new ImClient({
      baseUrl,
      appKey: 'org#app',
      clientId: 'cid',
      clientSecret: 'bad-input-secret',
      maxRetries: 0,
      timeoutMs: 2_000,
    });
    let runs = 0;
    let refused = 0;
    let sent = 0;
    for (const op of model.operations) {
      const validator = await validatorOf(op.id);
      const ns = (client as unknown as Record<string, Record<string, (...a: unknown[]) => unknown>>)[op.namespace]!;
      const method = ns[op.methodName]!;
      expect(typeof method, `${op.namespace}.${op.methodName}`).toBe('function');
      await fc.assert(
        fc.asyncProperty(paramsArbitrary(op), async (params) => {
          runs += 1;
          // undefined and null mean "no params" ({}); any other non-object is refused.
          const given = params === undefined || params === null ? {} : params;
          const isObject = typeof given === 'object' && !Array.isArray(given);
          const issues = isObject && validator ? validator.validate(given as Record<string, unknown>) : null;
          const invalid = !isObject || (issues !== null && issues.length > 0);
          const before = opRequests;
          const outcome = await settle(method.call(ns, params));
          let error = outcome.ok ? undefined : outcome.error;
          // Batch helpers reject with a BatchError that carries each chunk's error: judge the first.
          if (error instanceof BatchError) error = error.result.errors[0] ?? error;
          if (error !== undefined) {
            expect(error, `${op.id} ${String(error)}`).toBeInstanceOf(ImError);
          }
          if (invalid) {
            refused += 1;
            expect(error, `${op.id}: invalid params must be refused: ${JSON.stringify(params)}`).toBeInstanceOf(
              ImError,
            );
            if (isObject) expect(error).toBeInstanceOf(ValidationError);
            expect(opRequests - before, `${op.id}: nothing may be sent for invalid params`).toBe(0);
          } else {
            sent += opRequests - before;
          }
        }),
        { numRuns: RUNS_PER_OPERATION },
      );
    }
    console.log(
      `[bad-input] ${runs} random calls over ${model.operations.length} methods: ${refused} refused before sending, ${sent} requests sent for valid params`,
    );
    expect(refused).toBeGreaterThan(runs / 3);
  });

  it('random request options: a typed error or a call, never an untyped throw', async () => {
    const client = new ImClient({
      baseUrl,
      appKey: 'org#app',
      clientId: 'cid',
      clientSecret: 'bad-input-secret',
      maxRetries: 0,
      timeoutMs: 2_000,
    });
    const options = fc.oneof(
      fc.anything({ maxDepth: 2 }),
      fc.record(
        {
          timeoutMs: fc.oneof(fc.double(), fc.integer(), fc.string(), fc.constant(undefined)),
          deadlineMs: fc.oneof(fc.double(), fc.integer(), fc.constant(undefined)),
          // At most one resend: a resend waits a real backoff (up to 500 ms).
          maxRetries: fc.oneof(fc.integer({ min: -2, max: 1 }), fc.double(), fc.string()),
          headers: fc.oneof(
            fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string({ maxLength: 8 }), fc.integer())),
            fc.anything({ maxDepth: 1 }),
          ),
          idempotencyKey: fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.constant(undefined)),
          signal: fc.constantFrom(undefined, AbortSignal.abort(), 'not a signal'),
          validate: fc.anything({ maxDepth: 0 }),
        },
        { requiredKeys: [] },
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('get', 'send'), options, async (which, opts) => {
        const call =
          which === 'get'
            ? client.users.get({ username: 'alice' }, opts as never)
            : client.messages.send({ to: ['bob'] }, opts as never);
        const outcome = await settle(call);
        if (!outcome.ok) expect(outcome.error, String(outcome.error)).toBeInstanceOf(ImError);
      }),
      { numRuns: 300 },
    );
  });
});

describe('random headers and bodies to the callback handler', () => {
  const SIGNING = 'whsec_bad_input_Signing_Secret_0';
  const handler = createCallbackHandler({
    secrets: [SIGNING],
    logger: {},
    hookTimeoutSafetyMs: 100,
    onEvent: () => undefined,
    onHook: () => allow(),
  });
  const headerName = fc.oneof(
    fc.constantFrom(
      'content-type',
      'user-agent',
      'x-im-kind',
      'x-im-hook',
      'x-im-request-id',
      'x-im-endpoint-id',
      'x-im-timestamp',
      'x-im-nonce',
      'x-im-signature',
    ),
    fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/),
  );
  const headerValue = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.stringMatching(/^v1=[0-9a-f]{0,70}$/),
    fc.integer().map(String),
  );
  const jsonBody = fc.oneof(
    fc.constantFrom('verify', 'event', 'hook').map((k) => sampleCallbackBody(k as 'event') as unknown),
    fc.record(
      {
        kind: fc.oneof(fc.constantFrom('verify', 'event', 'hook'), fc.string()),
        challenge: fc.anything(),
        events: fc.anything(),
        hook: fc.anything(),
        data: fc.anything(),
        timeout_ms: fc.anything(),
      },
      { requiredKeys: [] },
    ),
    fc.anything(),
  );
  const rawBody = fc.oneof(
    jsonBody.map((b) => JSON.stringify(b) ?? ''),
    fc.string({ maxLength: 200 }),
    fc.uint8Array({ maxLength: 200 }),
  );

  function request(method: string, headers: Record<string, string>, body: string | Uint8Array): Request | undefined {
    try {
      return new Request('https://receiver.example/im', {
        method,
        headers,
        ...(method === 'GET' || method === 'HEAD' ? {} : { body: body as BodyInit }),
      });
    } catch {
      return undefined; // not a request a server could receive (e.g. a header value with CR/LF)
    }
  }

  async function check(req: Request | undefined): Promise<void> {
    fc.pre(req !== undefined);
    const outcome = await settle(handler(req!));
    expect(outcome.ok, outcome.ok ? '' : String((outcome as { error: unknown }).error)).toBe(true);
    const res = (outcome as { value: Response }).value;
    expect(res).toBeInstanceOf(Response);
    expect([2, 4]).toContain(Math.floor(res.status / 100));
    await res.text();
  }

  it('unsigned or badly signed: random headers, random bodies, random methods', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('POST', 'POST', 'POST', 'PUT', 'GET'),
        fc.dictionary(headerName, headerValue, { maxKeys: 9 }),
        rawBody,
        async (method, headers, body) => {
          await check(request(method, headers, body));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('validly signed random bodies (the parsing behind the signature check)', async () => {
    await fc.assert(
      fc.asyncProperty(
        jsonBody,
        fc.dictionary(headerName, headerValue, { maxKeys: 3 }),
        fc.boolean(),
        async (body, extra, tamper) => {
          let signed: { headers: Record<string, string>; body: string };
          try {
            signed = signCallbackRequest({ body: JSON.stringify(body) ?? 'null', secret: SIGNING }) as never;
          } catch {
            return fc.pre(false);
          }
          const headers = { ...extra, ...signed.headers };
          await check(request('POST', headers, tamper ? `${signed.body} ` : signed.body));
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('random URLs to the callback URL validator', () => {
  const RULES = [
    'scheme',
    'host',
    'port',
    'userinfo',
    'fragment',
    'length',
    'masked_query',
    'private_address',
    'resolve_failed',
  ];
  const urlish = fc.oneof(
    fc.webUrl({ withFragments: true, withQueryParameters: true }),
    fc.webUrl().map((u) => u.replace(/^http:/, 'https:')),
    fc
      .tuple(
        fc.constantFrom('https://', 'HTTPS://', 'https:/', 'https:///', 'http://', ''),
        fc.string({ unit: 'grapheme', maxLength: 60 }),
      )
      .map(([a, b]) => a + b),
    fc
      .tuple(
        fc.constantFrom('https://'),
        fc.ipV4(),
        fc.option(fc.integer({ min: -1, max: 70_000 })),
        fc.string({ maxLength: 20 }),
      )
      .map(([s, ip, port, rest]) => `${s}${ip}${port === null ? '' : `:${port}`}/${rest}`),
    fc
      .tuple(fc.constantFrom('https://['), fc.ipV6(), fc.constantFrom(']', ']:443', '', ']x'))
      .map(([a, b, c]) => a + b + c),
    fc.string({ maxLength: 1_100 }),
    fc.anything({ maxDepth: 0 }),
  );

  it('validateCallbackUrlSyntax never throws and answers ok or a rule', () => {
    fc.assert(
      fc.property(urlish, (url) => {
        const verdict = validateCallbackUrlSyntax(url as string);
        if (verdict.ok) {
          expect(verdict.url).toBeInstanceOf(URL);
          expect(typeof verdict.hostname).toBe('string');
        } else {
          expect(RULES).toContain(verdict.rule);
          expect(typeof verdict.detail).toBe('string');
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it('validateCallbackUrl (with a random resolver) never rejects', async () => {
    const addresses = fc.array(fc.oneof(fc.ipV4(), fc.ipV6(), fc.string({ maxLength: 10 })), { maxLength: 3 });
    await fc.assert(
      fc.asyncProperty(urlish, addresses, fc.boolean(), async (url, list, fail) => {
        const outcome = await settle(
          validateCallbackUrl(url as string, {
            resolve: async () => {
              if (fail) throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
              return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
            },
          }),
        );
        expect(outcome.ok).toBe(true);
        const verdict = (outcome as { value: { ok: boolean; rule?: string } }).value;
        if (!verdict.ok) expect(RULES).toContain(verdict.rule);
      }),
      { numRuns: 500 },
    );
  });
});
