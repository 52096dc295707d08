/**
 * Every one of the 178 operations, called through the generated client with valid params built
 * from the spec, is accepted by the request validation of a Prism mock started from the same
 * spec (a refusal is a 4xx problem answer or an `sl-violations` header). Writes a report to
 * dist-artifacts/ecosystem/prism-report.{json,md} and fails on any refused operation.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type MockServer } from '../../scripts/lib/mock-server.js';
import { buildApiModel } from '../../generator/build-model.js';
import { parseSpec } from '../../generator/load-spec.js';
import { AlreadyExistsError, ImClient, NotFoundError, VersionConflictError } from '../../generated/src/index.js';
import { validParams } from '../helpers/sample-params.js';
import { repoRoot } from '../helpers/seed.js';

// Valid params per operation from the shared helper (path params, required query and body fields).
const model = buildApiModel(parseSpec(readFileSync(join(repoRoot, 'spec/openapi.yaml'), 'utf8'), 'spec/openapi.yaml'));
const samples = model.operations.map((op) => ({
  operationId: op.id,
  method: op.method,
  path: op.specPath,
  namespace: op.namespace,
  methodName: op.methodName,
  params: validParams(model, op),
}));
const reportDir = join(repoRoot, 'dist-artifacts/ecosystem');
/** The client's opt-in response validation, once the runtime has it (issue 5). */
const hasResponseValidation = /\bvalidateResponses\b/.test(
  readFileSync(join(repoRoot, 'templates/runtime/core/options.ts'), 'utf8'),
);

interface Drift {
  operationId: string;
  status: number;
  issues: unknown[];
}

interface Exchange {
  method: string;
  url: string;
  status: number;
  violations: unknown[] | null;
  body: string;
}

interface Outcome {
  operationId: string;
  request: string;
  accepted: boolean;
  status: number | null;
  violations?: unknown[];
  drift?: unknown[];
  error?: string;
}

let mock: MockServer;
beforeAll(async () => {
  mock = await startMock({ timeoutMs: 90_000 });
}, 100_000);
afterAll(async () => {
  await mock?.stop();
});

describe('Prism mock of spec/openapi.yaml', () => {
  it('issue 31: Prefer code=404 / 409 answers the x-assumed not_found / already_exists / version_conflict example, which the client types', async () => {
    const im = new ImClient({
      baseUrl: mock.baseUrl,
      appKey: 'acme#chat',
      clientId: 'demo-client',
      clientSecret: 'demo-secret',
      maxRetries: 0,
    });
    const prefer = (code: number, example?: string) => ({
      headers: { prefer: `code=${code}${example ? `, example=${example}` : ''}` },
    });
    await expect(im.users.get({ username: 'ghost' }, prefer(404))).rejects.toBeInstanceOf(NotFoundError);
    await expect(im.users.create({ username: 'alice' }, prefer(409, 'already_exists'))).rejects.toBeInstanceOf(
      AlreadyExistsError,
    );
    await expect(
      im.moderation.decide({ item_id: 'i1', decision: 'no_violation', version: 3 }, prefer(409, 'version_conflict')),
    ).rejects.toBeInstanceOf(VersionConflictError);
  }, 60_000);

  it('builds one valid call per operation (178)', () => {
    expect(samples).toHaveLength(178);
    expect(hasResponseValidation).toBe(true);
  });

  it('refuses an invalid request (control: the refusal detection below can see a refusal)', async () => {
    const res = await fetch(`${mock.baseUrl}/acme/chat/users`, {
      method: 'POST',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(422);
    expect(res.headers.get('sl-violations')).toMatch(/username/);
  });

  it('reports response drift (control: the response check below is live)', async () => {
    const drifts: Drift[] = [];
    const stub = async (url: string): Promise<Response> =>
      new Response(url.endsWith('/token') ? '{"access_token":"t","expires_in":3600}' : '{"items":5,"next_cursor":7}', {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    const im = new ImClient({
      baseUrl: 'http://127.0.0.1:9',
      appKey: 'acme#chat',
      clientId: 'c',
      clientSecret: 's',
      validateResponses: true,
      onResponseDrift: (d: Drift) => drifts.push(d),
      fetch: stub,
    } as unknown as ConstructorParameters<typeof ImClient>[0]);
    await im.users.list();
    expect(drifts.map((d) => d.operationId)).toEqual(['users.list']);
  });

  it('accepts every operation called through the generated client', async () => {
    const exchanges: Exchange[] = [];
    const recordingFetch = async (input: string, init: RequestInit): Promise<Response> => {
      const res = await fetch(input, init);
      const body = await res.clone().text();
      const header = res.headers.get('sl-violations');
      exchanges.push({
        method: init.method ?? 'GET',
        url: input,
        status: res.status,
        violations: header ? JSON.parse(header) : null,
        body,
      });
      return res;
    };
    const options: Record<string, unknown> = {
      baseUrl: mock.baseUrl,
      appKey: 'acme#chat',
      clientId: 'demo-client',
      clientSecret: 'demo-secret',
      maxRetries: 0,
      timeoutMs: 10_000,
      fetch: recordingFetch,
    };
    const drifts: Drift[] = [];
    if (hasResponseValidation) {
      options.validateResponses = true;
      options.onResponseDrift = (d: Drift) => drifts.push(d);
    }
    // A fresh client per operation: a refused call answered with the mock's static error example
    // (details.reason app_deleted) would otherwise make the client discard its credentials.
    const newClient = (): any => new ImClient(options as unknown as ConstructorParameters<typeof ImClient>[0]);

    const outcomes: Outcome[] = [];
    for (const sample of samples) {
      const im = newClient();
      const fn = im[sample.namespace]?.[sample.methodName];
      const request = `${sample.method} ${sample.path}`;
      if (typeof fn !== 'function') {
        outcomes.push({
          operationId: sample.operationId,
          request,
          accepted: false,
          status: null,
          error: `no method im.${sample.namespace}.${sample.methodName}`,
        });
        continue;
      }
      const before = exchanges.length;
      const driftsBefore = drifts.length;
      let error: string | undefined;
      try {
        await fn.call(im[sample.namespace], structuredClone(sample.params));
      } catch (e) {
        error = `${(e as Error).name}: ${(e as Error).message}`;
      }
      const mine = exchanges.slice(before);
      const refused = mine.filter((x) => x.violations || x.status >= 400);
      const drift = drifts.slice(driftsBefore).flatMap((d) => d.issues);
      outcomes.push({
        operationId: sample.operationId,
        request,
        accepted: !error && mine.length > 0 && refused.length === 0 && drift.length === 0,
        status: mine.at(-1)?.status ?? null,
        ...(refused.length
          ? { violations: refused.flatMap((x) => x.violations ?? [{ status: x.status, body: x.body.slice(0, 300) }]) }
          : {}),
        ...(drift.length ? { drift } : {}),
        ...(error ? { error } : {}),
      });
    }

    const refused = outcomes.filter((o) => !o.accepted);
    mkdirSync(reportDir, { recursive: true });
    const report = {
      tool: '@stoplight/prism-cli 5.16.0 (prism mock, static responses)',
      spec: 'spec/openapi.yaml',
      operations: outcomes.length,
      accepted: outcomes.length - refused.length,
      refused: refused.length,
      responseValidation: hasResponseValidation
        ? 'client option validateResponses: true (drift reported through onResponseDrift fails the operation)'
        : 'not available in the runtime yet (no validateResponses in ClientOptions)',
      outcomes,
    };
    writeFileSync(join(reportDir, 'prism-report.json'), `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(
      join(reportDir, 'prism-report.md'),
      [
        '# Prism mock: every operation through the generated client',
        '',
        `${report.accepted} of ${report.operations} operations accepted; response validation: ${report.responseValidation}.`,
        '',
        refused.length ? '| operation | request | status | problem |\n|---|---|---|---|' : 'No operation was refused.',
        ...refused.map(
          (o) =>
            `| ${o.operationId} | ${o.request} | ${o.status ?? ''} | ${(o.error ?? JSON.stringify(o.violations ?? o.drift)).replace(/\|/g, '\\|').replace(/\n/g, ' ')} |`,
        ),
        '',
      ].join('\n'),
    );

    expect(outcomes).toHaveLength(178);
    expect(refused, `refused operations (see dist-artifacts/ecosystem/prism-report.md)`).toEqual([]);
  }, 120_000);
});
