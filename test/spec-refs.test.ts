/**
 * Lint and generate read only the spec files (issue 25): a `$ref` to a URL or to a file outside
 * the repository is refused, with file:line:col and a fix, and never followed. A loopback HTTP
 * listener must see no request; the file outside is a FIFO, so any attempt to open it shows (a
 * writer's non-blocking open succeeds only while a reader has it open).
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, constants, mkdirSync, mkdtempSync, openSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../generator/generate.js';
import { readGeneratorInput } from '../generator/read-inputs.js';
import { SpecError } from '../generator/spec-error.js';
import { formatSpecError } from '../generator/spec-location.js';
import { localOnlyAsyncApiParser } from '../scripts/lint/asyncapi-local-refs.js';
import { repoRoot } from './helpers/seed.js';

const input = readGeneratorInput(repoRoot);
const work = mkdtempSync(join(tmpdir(), 'im-refs-'));
const outside = join(work, 'outside', 'secret.yaml');
let server: Server;
let requests: string[] = [];
let url = '';
/** Opens of the FIFO noticed by the watcher. */
let opened = 0;
let watching: NodeJS.Timeout | undefined;

beforeAll(async () => {
  mkdirSync(join(work, 'outside'));
  mkdirSync(join(work, 'spec'));
  expect(spawnSync('mkfifo', [outside]).status).toBe(0);
  symlinkSync(outside, join(work, 'spec', 'link.yaml'));
  server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/yaml' }).end('type: string\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // a reader blocked on the FIFO is let go (and counted) within 20 ms
  watching = setInterval(() => {
    try {
      closeSync(openSync(outside, constants.O_WRONLY | constants.O_NONBLOCK));
      opened++;
    } catch {
      // ENXIO: nobody has it open for reading
    }
  }, 20);
});

afterAll(async () => {
  clearInterval(watching);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(work, { recursive: true, force: true });
});

/** Replaces the first `$ref` of a schema after `after` with `ref`. */
function withRef(text: string, after: string, ref: string): string {
  const at = text.indexOf(after);
  const refAt = text.indexOf('$ref:', at);
  const end = text.indexOf('\n', refAt);
  return `${text.slice(0, refAt)}$ref: ${JSON.stringify(ref)}${text.slice(end)}`;
}

const openapiWithRefs = () => {
  let text = withRef(input.openapiText, 'operationId: users.get', `${url}/user.yaml`);
  text = withRef(text, 'operationId: users.create', '../outside/secret.yaml');
  text = withRef(text, 'operationId: users.delete', './link.yaml');
  return withRef(text, 'operationId: users.update', 'file:///etc/passwd');
};
const callbacksWithRefs = () => {
  const text = withRef(input.callbacksText!, 'GroupMembersAddedEvent:', `${url}/event.yaml`);
  return withRef(text, 'FriendAddedEvent:', '../outside/secret.yaml');
};

function run(command: string, args: string[]): Promise<{ status: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: repoRoot,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', CI: 'true' },
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, out });
    });
  });
}

function expectNothingFollowed(): void {
  expect(requests).toEqual([]);
  expect(opened).toBe(0);
}

describe('generate refuses references out of the spec', () => {
  it('in the OpenAPI spec: each at its line, rule external-ref, with the fix; nothing fetched or read', async () => {
    requests = [];
    opened = 0;
    const text = openapiWithRefs();
    const error = await generate({ ...input, openapiText: text }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SpecError);
    const report = formatSpecError(error as SpecError, { 'spec/openapi.yaml': text }, 'spec/openapi.yaml');
    expect((error as SpecError).problems.map((p) => p.rule)).toEqual([
      'external-ref',
      'external-ref',
      'external-ref',
      'external-ref',
    ]);
    for (const ref of [`${url}/user.yaml`, '../outside/secret.yaml', './link.yaml', 'file:///etc/passwd']) {
      const line = text.slice(0, text.indexOf(JSON.stringify(ref))).split('\n').length;
      expect(report).toMatch(new RegExp(`^spec/openapi\\.yaml:${line}:\\d+ `, 'm'));
    }
    expect(report).toContain('fix: copy what it points at into components');
    expectNothingFollowed();
  });

  it('in the callbacks spec too', async () => {
    requests = [];
    opened = 0;
    const text = callbacksWithRefs();
    const error = await generate({ ...input, callbacksText: text }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SpecError);
    expect((error as SpecError).problems).toHaveLength(2);
    expect(
      (error as SpecError).problems.every(
        (p) => p.rule === 'external-ref' && p.file === 'spec/callbacks.asyncapi.yaml',
      ),
    ).toBe(true);
    expect(formatSpecError(error as SpecError, { 'spec/callbacks.asyncapi.yaml': text }, 'spec/openapi.yaml')).toMatch(
      /^spec\/callbacks\.asyncapi\.yaml:\d+:\d+ {2}components\.schemas\.GroupMembersAddedEvent/m,
    );
    expectNothingFollowed();
  });
});

describe('the spec lint refuses them, and its tools cannot follow them', () => {
  it('npm run lint:spec stops at the references, before Redocly or the AsyncAPI parser run', async () => {
    requests = [];
    opened = 0;
    writeFileSync(join(work, 'spec', 'openapi.yaml'), openapiWithRefs());
    writeFileSync(join(work, 'spec', 'callbacks.asyncapi.yaml'), callbacksWithRefs());
    const r = await run(process.execPath, [
      '--import',
      'tsx',
      'scripts/lint-spec.ts',
      '--openapi',
      join(work, 'spec', 'openapi.yaml'),
      '--callbacks',
      join(work, 'spec', 'callbacks.asyncapi.yaml'),
    ]);
    expect(r.status).toBe(1);
    expect(r.out.match(/:\d+:\d+ {2}paths\.[^\n]*\n {2}external-ref: /g)).toHaveLength(4);
    expect(r.out.match(/:\d+:\d+ {2}components\.schemas\.[^\n]*\n {2}external-ref: /g)).toHaveLength(2);
    expect(r.out).not.toContain('redocly lint');
    expectNothingFollowed();
  }, 120_000);

  it('Redocly alone, with the repository config, reports them and follows none (the plugin guards fetch and file reads)', async () => {
    requests = [];
    opened = 0;
    writeFileSync(join(work, 'spec', 'openapi.yaml'), openapiWithRefs());
    const r = await run(join(repoRoot, 'node_modules/.bin/redocly'), [
      'lint',
      join(work, 'spec', 'openapi.yaml'),
      '--config',
      join(repoRoot, 'redocly.yaml'),
      '--format',
      'stylish',
    ]);
    expect(r.status).toBe(1);
    expect(r.out.match(/im-openapi-refs\/local-refs\s+external-ref/g)).toHaveLength(4);
    expect(r.out).toContain(`refused to fetch ${url}/user.yaml`);
    expect(r.out).toMatch(/refused to read \S*outside\/secret\.yaml/);
    expect(r.out).toMatch(/refused to read \S*link\.yaml/);
    expect(r.out).toContain('refused to read /etc/passwd');
    expect(r.out).not.toMatch(/root:x:0/);
    expectNothingFollowed();
  }, 120_000);

  it('the AsyncAPI parser as the lint configures it resolves no reference out of the document', async () => {
    requests = [];
    opened = 0;
    const refused: string[] = [];
    await localOnlyAsyncApiParser(refused).parse(callbacksWithRefs());
    expect(refused.sort()).toEqual([`${url}/event.yaml`, expect.stringMatching(/outside\/secret\.yaml$/)].sort());
    expectNothingFollowed();
  }, 60_000);

  it('and without that configuration it would have (the check can fail)', async () => {
    requests = [];
    const { Parser } = await import('@asyncapi/parser');
    await new Parser().parse(withRef(input.callbacksText!, 'GroupMembersAddedEvent:', `${url}/event.yaml`));
    expect(requests).toEqual(['GET /event.yaml']);
  }, 60_000);
});
