/**
 * Issue 14, schema constructs: the `lab` operations of test/fixtures/constructs-openapi.yaml are
 * generated into a temp package, type-checked with a consumer (narrowing, views, int64), and
 * their request validators and response drift checks are loaded and run.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { generate } from '../../generator/generate.js';
import { parseSpec } from '../../generator/load-spec.js';
import { normalizeDocument } from '../../generator/normalize-schema.js';
import { readGeneratorInput } from '../../generator/read-inputs.js';
import { SpecError } from '../../generator/spec-error.js';
import type { ValidationIssue } from '../../templates/runtime/operation.js';
import { jsonParseLossless } from '../../templates/runtime/internal/lossless-json.js';
import { repoRoot } from '../helpers/seed.js';

const SOURCE = 'test/fixtures/constructs-openapi.yaml';
const fixtureText = readFileSync(join(repoRoot, SOURCE), 'utf8');
const input = readGeneratorInput(repoRoot);
const generateFixture = (edit?: (doc: any) => void) => {
  const doc = parse(fixtureText);
  edit?.(doc);
  return generate({ ...input, openapiText: stringify(doc), openapiSource: SOURCE });
};

type Validator = {
  validate(p: unknown): ValidationIssue[] | null;
  validateResponse(b: unknown): ValidationIssue[] | null;
};
let dir: string;
let output: Awaited<ReturnType<typeof generate>>;
const validators = new Map<string, Validator>();
const v = (funcName: string) => validators.get(funcName)!;

beforeAll(async () => {
  output = await generateFixture();
  dir = mkdtempSync(join(tmpdir(), 'im-openapi-constructs-'));
  for (const [path, text] of output.files) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  // the package's optional peers (@opentelemetry/api of ./otel) resolve as in the repository
  symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
  for (const op of output.model.operations)
    validators.set(op.funcName, await import(join(dir, `src/validators/${op.funcName}.ts`)));
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rules = (issues: ValidationIssue[] | null) => (issues ?? []).map((i) => `${i.pointer} ${i.rule}`);

describe('generation', () => {
  it('the fixture generates with zero warnings', () => {
    expect(output.model.warnings).toEqual([]);
  });
  it('the real spec normalises with zero warnings (and has no 3.0 leftovers to translate)', () => {
    const real = parseSpec(readFileSync(join(repoRoot, 'spec/openapi.yaml'), 'utf8'));
    const { doc, warnings } = normalizeDocument(real);
    expect(warnings).toEqual([]);
    expect(doc).toEqual(real);
  });
  it('an unknown format is a warning naming its pointer, and still generates', async () => {
    const { model } = await generateFixture(
      (d) => (d.components.schemas.LabSearchHit.properties.id.format = 'snowflake'),
    );
    expect(model.warnings).toEqual([
      {
        pointer: '/components/schemas/LabSearchHit/properties/id/format',
        rule: 'unknown-format',
        message: expect.stringContaining('unknown format "snowflake"'),
      },
    ]);
  });
  it('a schema named like a derived type (LabSearchResult beside lab.search): the derived names take Op, with a warning naming both (issue 26)', async () => {
    const { model, files } = await generateFixture((d) => {
      d.components.schemas.LabSearchResult = d.components.schemas.LabSearchHit;
    });
    expect(model.warnings).toContainEqual(
      expect.objectContaining({
        rule: 'derived-name-suffixed',
        pointer: '/paths/~1{org_name}~1{app_name}~1lab~1search/get/operationId',
        message: expect.stringContaining('LabSearchResult is already the component schema LabSearchResult'),
      }),
    );
    expect(files.get('src/types/lab.ts')).toMatch(/export type LabSearchOpResult\b/);
    expect(files.get('src/types/schemas.ts')).toMatch(/export (?:type|interface) LabSearchResult\b/);
  });
  it('a schema named like a Writable view is refused', async () => {
    const error = await generateFixture((d) => (d.components.schemas.LabAccountWritable = { type: 'string' })).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(SpecError);
    expect(error.message).toMatch(
      /LabAccountWritable is both the component schema LabAccountWritable .* and the write view/,
    );
  });
  it('3.0 nullable is translated, never half-applied', () => {
    const schemas = output.files.get('src/types/schemas.ts')!;
    expect(schemas).toContain('bio: string | null;');
    expect(schemas).toContain("nickname?: 'ace' | 'pro' | null;");
    expect(schemas).toContain('manager?: LabNamed | null;');
  });
  it('deprecated and default reach the JSDoc, in params and schema types', () => {
    const lab = output.files.get('src/types/lab.ts')!;
    expect(lab).toMatch(/Use tags instead\. \(body\)\n\s+\* @deprecated\n\s+\*\/\n\s+legacy_tag\?: string;/);
    expect(lab).toMatch(/@default 5\n\s+\*\/\n\s+priority\?: number;/);
  });
  it('the package and a consumer type-check: unions narrow, views differ, int64 takes a bigint', () => {
    writeFileSync(join(dir, 'consumer.ts'), CONSUMER);
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2023', 'DOM'],
          types: ['node'],
          typeRoots: [join(repoRoot, 'node_modules/@types')],
          strict: true,
          noEmit: true,
          skipLibCheck: true,
        },
        include: ['src', 'consumer.ts'],
      }),
    );
    const result = spawnSync(
      process.execPath,
      [join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')],
      { encoding: 'utf8' },
    );
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  }, 120_000);
});

const CONSUMER = `
import type { LabNotifyParams, LabAccount, LabAccountWritable, LabCreatePostParams, LabMessage, LabSendMessageParams, LabCheckFormatsParams, LabTreeNode } from './src/index.js';
export function size(m: LabMessage): number {
  if (m.type === 'image') return m.width; // narrowed to the image branch
  return m.text.length;
}
export function contentWidth(p: LabCreatePostParams): number {
  return p.content.kind === 'LabImage' ? p.content.width : p.content.text.length;
}
export const text: LabSendMessageParams = { channel: 'c', type: 'text', to: 'u', text: 'hi' };
export const notice: LabNotifyParams = { group: 3, text: 'x' };
// @ts-expect-error neither branch
export const noNotice: LabNotifyParams = { text: 'x' };
// @ts-expect-error a text message has no width
export const wrong: LabSendMessageParams = { type: 'text', to: 'u', text: 'hi', width: 3 };
// @ts-expect-error an unknown kind
export const video: LabSendMessageParams = { type: 'video', to: 'u' };
export const sent: LabAccountWritable = { email: 'a@b.co', password: 'secret-123' };
// @ts-expect-error the write view has no readOnly id
export const withId: LabAccountWritable = { id: 'x', email: 'a@b.co', password: 'secret-123' };
export const got: LabAccount = { id: 'x', email: 'a@b.co' };
// @ts-expect-error the read view has no writeOnly password
export const pw: string = got.password;
export const big: LabCheckFormatsParams = { i64: 9007199254740993n, ids: [1, 2n] };
export const tree: LabTreeNode = { label: 'a', children: [{ label: 'b', children: [{ label: 'c' }] }] };
`;

describe('discriminated unions', () => {
  it('top-level oneOf body: a valid branch of each kind passes, with path/query fields beside it', () => {
    expect(v('labSendMessage').validate({ channel: 'c', type: 'text', to: 'u', text: 'hi' })).toBeNull();
    expect(v('labSendMessage').validate({ type: 'image', to: 'u', url: 'https://x.test/a.png', width: 3 })).toBeNull();
  });
  it('an unknown kind is named as such, and nothing else is reported', () => {
    const issues = v('labSendMessage').validate({ type: 'video', to: 'u' })!;
    expect(issues).toEqual([
      {
        pointer: '/type',
        rule: 'enum',
        message: '`type` must be one of "text", "image" (got "video")',
        allowed: ['text', 'image'],
      },
    ]);
  });
  it('a bad width on an image reports the image branch only', () => {
    expect(
      rules(v('labSendMessage').validate({ type: 'image', to: 'u', url: 'https://x.test/a.png', width: 0 })),
    ).toEqual(['/width minimum']);
    const nested = v('labCreatePost').validate({
      title: 't',
      content: { kind: 'LabImage', url: 'https://x.test/a.png', width: 'wide' },
    })!;
    expect(rules(nested)).toEqual(['/content/width type']);
    expect(nested[0]!.message).toBe('`content.width` must be an integer (got "wide")');
  });
  it('the branch is selected by the value, not by which branch has fewer errors', () => {
    // the text branch would have as few errors (kind, text); the image branch is the one named
    expect(rules(v('labCreatePost').validate({ title: 't', content: { kind: 'LabImage' } }))).toEqual([
      '/content/url required',
      '/content/width required',
    ]);
    expect(rules(v('labCreatePost').validate({ title: 't', content: { kind: 'LabVideo', text: 'x' } }))).toEqual([
      '/content/kind enum',
    ]);
  });
  it('a field of the other branch is refused as unknown for the selected one', () => {
    expect(rules(v('labSendMessage').validate({ type: 'text', to: 'u', text: 'hi', width: 3 }))).toEqual([
      '/width additionalProperties',
    ]);
  });
  it('a missing discriminator is one required issue', () => {
    expect(rules(v('labCreatePost').validate({ title: 't', content: { text: 'x' } }))).toEqual([
      '/content/kind required',
    ]);
  });
  it('anyOf without discriminator: the closest branch speaks', () => {
    expect(
      v('labCreatePost').validate({ title: 't', content: { kind: 'LabText', text: 'x' }, target: { group: 7 } }),
    ).toBeNull();
    expect(
      rules(v('labCreatePost').validate({ title: 't', content: { kind: 'LabText', text: 'x' }, target: { group: 0 } })),
    ).toEqual(['/target/group minimum']);
  });
  it('top-level anyOf body without discriminator: either branch, the closest one speaks', () => {
    expect(v('labNotify').validate({ user: 'u', text: 't' })).toBeNull();
    expect(v('labNotify').validate({ group: 3, text: 't' })).toBeNull();
    expect(rules(v('labNotify').validate({ group: 0, text: 't' }))).toEqual(['/group minimum']);
    expect(v('labNotify').validate({ text: 't' })).not.toBeNull();
  });
  it('the response drift check selects the branch too', () => {
    expect(
      v('labSendMessage').validateResponse({ type: 'image', to: 'u', url: 'https://x.test/a', width: 2 }),
    ).toBeNull();
    expect(
      rules(
        v('labSendMessage').validateResponse({ type: 'image', to: 'u', url: 'https://x.test/a', width: 2, alt: 'x' }),
      ),
    ).toEqual(['/alt additionalProperties']);
  });
});

describe('allOf', () => {
  it('a request accepts the fields of every part of a closed allOf, and refuses others', () => {
    expect(
      v('labUpdateProfile').validate({ name: 'n', bio: null, nickname: 'ace', manager: { name: 'm' } }),
    ).toBeNull();
    expect(rules(v('labUpdateProfile').validate({ name: 'n', bio: 'b', extra: 1 }))).toEqual([
      '/extra additionalProperties',
    ]);
    expect(rules(v('labUpdateProfile').validate({ bio: 'b' }))).toEqual(['/name required']);
  });
  it('response drift does not flag a field that another part declares, and never speaks of params', () => {
    expect(v('labUpdateProfile').validateResponse({ name: 'n', bio: 'b' })).toBeNull();
    const issues = v('labUpdateProfile').validateResponse({ name: 'n', bio: 'b', added: 1 })!;
    expect(rules(issues)).toEqual(['/added additionalProperties']);
    expect(issues[0]!.message).not.toMatch(/param/);
    expect(issues[0]!.message).toContain('response');
  });
  it('3.0 leftovers validate as translated (nullable, exclusiveMinimum: true)', () => {
    expect(rules(v('labUpdateProfile').validate({ name: 'n', bio: 'b', nickname: 'x' }))).toEqual(['/nickname enum']);
    expect(rules(v('labUpdateProfile').validate({ name: 'n', bio: 'b', score: 0 }))).toEqual([
      '/score exclusiveMinimum',
    ]);
    expect(v('labUpdateProfile').validate({ name: 'n', bio: 'b', score: 0.1, manager: null })).toBeNull();
  });
});

describe('recursion', () => {
  const deep = (n: number): any =>
    n === 0 ? { label: 'leaf' } : { label: `n${n}`, children: [deep(n - 1), { label: 'x' }] };
  it('a deep tree is accepted in a request and a response', () => {
    expect(v('labSaveTree').validate({ root: deep(200) })).toBeNull();
    expect(v('labSaveTree').validateResponse(deep(200))).toBeNull();
  });
  it('an error deep in the tree names its pointer', () => {
    const bad = deep(3);
    bad.children[0].children[0].children[0].label = 7;
    expect(rules(v('labSaveTree').validate({ root: bad }))).toEqual([
      '/root/children/0/children/0/children/0/label type',
    ]);
  });
});

describe('formats and int64', () => {
  const ok = {
    i32: 5,
    i64: 9007199254740993n,
    f: 1.5,
    d: 2.5,
    byte: 'aGk=',
    bin: 'raw',
    date: '2024-02-29',
    date_time: '2025-01-31T12:00:00Z',
    time: '12:00:00Z',
    duration: 'P1D',
    email: 'a@b.co',
    idn_email: '用户@例子.广告',
    uri: 'https://x.test/',
    uri_reference: '/a',
    iri: 'https://例子.广告/',
    uuid: '123e4567-e89b-12d3-a456-426614174000',
    hostname: 'x.test',
    idn_hostname: '例子.广告',
    ipv4: '10.0.0.1',
    ipv6: '::1',
    password: 'anything',
    regex: '^a+$',
    json_pointer: '/a/b',
    ids: [1, 9223372036854775807n],
  };
  it('every format accepts a good value; int64 above 2^53 as a bigint', () => {
    expect(v('labCheckFormats').validate(ok)).toBeNull();
  });
  it.each([
    ['i32', 2 ** 31],
    ['byte', 'a$=='],
    ['date', '2025-02-29'],
    ['date_time', 'tomorrow'],
    ['time', '12:00'],
    ['duration', 'P'],
    ['email', 'a@'],
    ['idn_email', 'nope'],
    ['uri', '/relative'],
    ['uri_reference', 'a b'],
    ['iri', 'nope'],
    ['uuid', '123'],
    ['hostname', '-x'],
    ['idn_hostname', 'a b'],
    ['ipv4', '1.2.3'],
    ['ipv6', '1::2::3'],
    ['regex', '('],
    ['json_pointer', 'a'],
    ['i64', 1.5],
  ])('%s refuses %j naming the field', (field, value) => {
    const issues = v('labCheckFormats').validate({ ...ok, [field]: value });
    expect(issues?.map((i) => i.pointer)).toEqual([`/${field}`]);
  });
  it('a response with an int64 above 2^53 parses without loss and passes the drift check', () => {
    const body = jsonParseLossless('{"i64":9007199254740993,"ids":[9007199254740993]}') as any;
    expect(body.i64).toBe(9007199254740993n);
    expect(v('labCheckFormats').validateResponse(body)).toBeNull();
  });
});

describe('readOnly / writeOnly', () => {
  it('a request refuses a readOnly property with a clear message and accepts the writeOnly one', () => {
    expect(v('labCreateAccount').validate({ email: 'a@b.co', password: 'secret-123' })).toBeNull();
    const issues = v('labCreateAccount').validate({ id: 'x', email: 'a@b.co', password: 'secret-123' })!;
    expect(issues).toEqual([{ pointer: '/id', rule: 'readOnly', message: '`id` is read-only: the service sets it' }]);
  });
  it('response drift does not flag a missing writeOnly property', () => {
    expect(
      v('labCreateAccount').validateResponse({ id: 'x', email: 'a@b.co', created_at: '2025-01-31T12:00:00Z' }),
    ).toBeNull();
    expect(rules(v('labCreateAccount').validateResponse({ email: 'a@b.co' }))).toEqual(['/id required']);
  });
});

describe('through the client, against a local server (127.0.0.1)', () => {
  const opsOf = async () => (await import(join(dir, 'src/operations.ts'))).operations as Record<string, any>;
  it('a discriminated message is sent as its branch; a bad one is refused before anything is sent', async () => {
    const { makeClient, startFakeService } = await import('../../templates/runtime/test-support/fake-service.js');
    const { ValidationError } = await import('../../templates/runtime/core/errors.js');
    const ops = await opsOf();
    const svc = await startFakeService({ handle: (req) => ({ status: 200, body: req.json }) });
    const client = makeClient(svc.baseUrl);
    const sent = await client.request(ops['lab.send_message'], {
      channel: 'c1',
      type: 'image',
      to: 'u',
      url: 'https://x.test/a.png',
      width: 3,
    });
    expect(svc.calls[0]!.json).toEqual({ type: 'image', to: 'u', url: 'https://x.test/a.png', width: 3 });
    expect(svc.calls[0]!.query.get('channel')).toBe('c1');
    expect(sent).toEqual({ type: 'image', to: 'u', url: 'https://x.test/a.png', width: 3 });
    const error = await client
      .request(ops['lab.send_message'], { type: 'image', to: 'u', url: 'https://x.test/a.png', width: 0 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(rules((error as InstanceType<typeof ValidationError>).issues as ValidationIssue[])).toEqual([
      '/width minimum',
    ]);
    expect(svc.calls).toHaveLength(1);
    await svc.close();
  });
  it('an int64 above 2^53 in a response arrives exact, and the drift check does not flag it', async () => {
    const { makeClient, startFakeService } = await import('../../templates/runtime/test-support/fake-service.js');
    const ops = await opsOf();
    const svc = await startFakeService({
      handle: () => ({ status: 200, body: '{"i64":9007199254740993,"ids":[1,9223372036854775807]}' }),
    });
    const drift: unknown[] = [];
    const client = makeClient(svc.baseUrl, { validateResponses: true, onResponseDrift: (d) => drift.push(d) });
    const data = (await client.request(ops['lab.check_formats'], {})) as any;
    expect(data.i64).toBe(9007199254740993n);
    expect(data.ids).toEqual([1, 9223372036854775807n]);
    expect(drift).toEqual([]);
    // the check is on: a field the spec does not declare is reported
    const svc2 = await startFakeService({
      handle: () => ({ status: 200, body: '{"i64":9007199254740993,"extra":1}' }),
    });
    await makeClient(svc2.baseUrl, { validateResponses: true, onResponseDrift: (d) => drift.push(d) }).request(
      ops['lab.check_formats'],
      {},
    );
    expect(JSON.stringify(drift, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).toContain('/extra');
    await svc.close();
    await svc2.close();
  });
});
