/**
 * Shapes of public OpenAPI documents (issue 26, test/fixtures/real-world-openapi.yaml) end to
 * end: the fixture is generated into a temp package, called against a recording server on
 * 127.0.0.1, and a strict consumer of it is type-checked by tsc (run async, never blocking the
 * worker). What arrives (method, path, query, Accept, parts, body) is compared exactly.
 */
import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transportUnderTest } from '../../templates/runtime/test-support/fake-service.js';
import { generateToTempDir } from '../../scripts/lib/generate-to-dir.js';
import { repoRoot } from '../helpers/seed.js';
import { APP, json, ORG, startWireServer, type WireServer } from './wire-server.js';
import type { GeneratorOutput } from '../../generator/generate.js';

const SOURCE = 'test/fixtures/real-world-openapi.yaml';
let pkg: any;
let dir: string;
let output: GeneratorOutput;
let server: WireServer;
let client: any;

beforeAll(async () => {
  ({ dir, output } = await generateToTempDir(repoRoot, SOURCE));
  pkg = await import(`${dir}/src/index.ts`);
  server = await startWireServer();
  client = new pkg.ImClient({
    baseUrl: server.baseUrl,
    orgName: ORG,
    appName: APP,
    clientId: 'rw',
    clientSecret: 'rw-secret',
    transport: transportUnderTest(),
    internals: { sleep: async () => {}, random: () => 0 },
  });
}, 120_000);
afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const echo = (_req: unknown, res: any) => json(res, 200, { ok: true });

describe('generation', () => {
  it('every operation generates; what was read in a defined way is a located warning', () => {
    expect(output.model.operations.map((o) => o.id).sort()).toEqual([
      'app.token',
      'rw.create_batch',
      'rw.create_moderation',
      'rw.create_transcription',
      'rw.create_users',
      'rw.get_image',
      'rw.image_exists',
      'rw.update_user',
    ]);
    const rules = output.model.warnings.map((w) => `${w.rule} ${w.pointer}`);
    expect(rules).toEqual(
      expect.arrayContaining([
        'component-renamed /components/schemas/user-profile',
        'unknown-keyword /components/schemas/user-profile/properties/username/min_length',
        'path-query /paths/~1{org_name}~1{app_name}~1rw~1users~1batch?beta=true',
        expect.stringMatching(/^body-whole \/paths\/.*batch\?beta=true\/post\/requestBody$/),
        expect.stringMatching(/^body-whole \/paths\/.*\{username\}\/put\/requestBody$/),
        expect.stringMatching(/^no-success-response /),
      ]),
    );
    // none of these is a fallback: each has a type and a validator
    expect(output.model.warnings.filter((w) => w.fallback)).toEqual([]);
  });

  it('webhooks and callbacks: payload types beside the REST types; what is skipped is a located warning', () => {
    expect(output.model.webhooks.map((w) => [w.kind, w.name, w.typeName])).toEqual([
      ['webhook', 'user-created', 'UserCreatedWebhookPayload'],
      ['callback', 'rw.create_users done', 'RwCreateUsersDoneCallbackPayload'],
    ]);
    expect(output.model.warnings).toContainEqual(
      expect.objectContaining({
        rule: 'webhook-skipped',
        pointer: '/webhooks/ping/post',
        message: expect.stringContaining('text/plain'),
      }),
    );
    const types = output.files.get('src/types/webhooks.ts')!;
    expect(types).toMatch(/export type UserCreatedWebhookPayload = UserProfile;/);
    expect(types).toMatch(/export type RwCreateUsersDoneCallbackPayload = \{\s*count: number;/);
    expect(output.files.get('src/index.ts')).toContain(`export type * from './types/webhooks.js';`);
  });
});

describe('Accept', () => {
  it('an image/png-only operation accepts image/png, and a strict server that would answer 406 answers it', async () => {
    server.on('GET /rw/images/*', (req, res) => {
      if (!String(req.headers.accept).includes('image/png'))
        return json(res, 406, { error: { code: 'not_acceptable', message: 'no' } });
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    });
    const image = await client.rw.getImage({ id: 'a' });
    expect([...(await image.bytes())]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect(server.hits('GET /rw/images/*')[0]!.headers.accept).toBe('image/png');
  });

  it('a JSON operation still accepts application/json', async () => {
    server.on('POST /rw/moderations', echo);
    await client.rw.createModeration({ input: 'hello' });
    expect(server.hits('POST /rw/moderations').at(-1)!.headers.accept).toBe('application/json');
  });

  it('HEAD is sent as HEAD and reads no body', async () => {
    server.on('HEAD /rw/images/*', (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': '4' });
      res.end();
    });
    await expect(client.rw.imageExists({ id: 'a' })).resolves.toBeUndefined();
    expect(server.hits('HEAD /rw/images/*')).toHaveLength(1);
  });
});

describe('an array of an inline oneOf', () => {
  it('a valid array goes out as written; a bare object is refused naming the field, before sending', async () => {
    server.on('POST /rw/moderations', echo);
    const input = [
      { type: 'text', text: 'a' },
      { type: 'image_url', image_url: 'https://x/y.png' },
    ];
    await client.rw.createModeration({ input });
    expect(JSON.parse(server.hits('POST /rw/moderations').at(-1)!.body.toString())).toEqual({ input });
    const before = server.hits('POST /rw/moderations').length;
    const error = await client.rw.createModeration({ input: { type: 'text', text: 'a' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(pkg.ValidationError);
    expect(error.issues.map((i: { pointer: string }) => i.pointer)).toContain('/input');
    expect(server.hits('POST /rw/moderations')).toHaveLength(before);
  });
});

describe('required-only anyOf branches', () => {
  it('the fields are flat params; the constraint is checked before sending', async () => {
    server.on('POST /rw/batches', echo);
    await client.rw.createBatch({ file_ids: ['f1'] });
    expect(JSON.parse(server.hits('POST /rw/batches').at(-1)!.body.toString())).toEqual({ file_ids: ['f1'] });
    const before = server.hits('POST /rw/batches').length;
    await expect(client.rw.createBatch({})).rejects.toBeInstanceOf(pkg.ValidationError);
    expect(server.hits('POST /rw/batches')).toHaveLength(before);
  });
});

describe('multipart file fields under anyOf of format binary', () => {
  it('a Blob is sent as a file part (the validator does not refuse it)', async () => {
    server.on('POST /rw/transcriptions', echo);
    await client.rw.createTranscription({
      file: { data: new Blob([Buffer.from('ID3audio')]), filename: 'a.mp3', contentType: 'audio/mpeg' },
      model: 'm1',
    });
    const hit = server.hits('POST /rw/transcriptions').at(-1)!;
    expect(hit.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const text = hit.body.toString('latin1');
    expect(text).toContain(
      'content-disposition: form-data; name="file"; filename="a.mp3"\r\ncontent-type: audio/mpeg\r\n',
    );
    expect(text).toContain('ID3audio');
    expect(text).toContain('name="model"');
  });
});

describe('bodies carried whole under `body`', () => {
  it('an array body is sent as the array, after the fixed query of the path key', async () => {
    server.on('POST /rw/users/batch', echo);
    const users = [{ username: 'a' }, { username: 'b', role: 'admin' }];
    await client.rw.createUsers({ dry_run: true, body: users });
    const hit = server.hits('POST /rw/users/batch').at(-1)!;
    expect(hit.query).toBe('beta=true&dry_run=true');
    expect(JSON.parse(hit.body.toString())).toEqual(users);
  });

  it('a path parameter and a body field of one name: each goes where the spec says; JSON is the default media type', async () => {
    server.on('PUT /rw/users/*', echo);
    await client.rw.updateUser({ username: 'path-name', body: { username: 'body-name', role: 'member' } });
    const hit = server.hits('PUT /rw/users/*').at(-1)!;
    expect(hit.path).toBe('/rw/users/path-name');
    expect(hit.headers['content-type']).toBe('application/json');
    expect(JSON.parse(hit.body.toString())).toEqual({ username: 'body-name', role: 'member' });
  });

  it('the XML media type is picked with contentType and sent as the text given', async () => {
    await client.rw.updateUser(
      { username: 'x', body: '<user><username>x</username></user>' },
      { contentType: 'application/xml' },
    );
    const hit = server.hits('PUT /rw/users/*').at(-1)!;
    expect(hit.headers['content-type']).toMatch(/^application\/xml/);
    expect(hit.body.toString()).toBe('<user><username>x</username></user>');
  });
});

describe('types', () => {
  it('a strict consumer type-checks; a bare object for the array of union and a string for a file do not', async () => {
    const consumer = join(dir, 'src', 'rw-consumer.ts');
    writeFileSync(
      consumer,
      `
import { ImClient, type UserProfile, type RwCreateModerationParams, type UserCreatedWebhookPayload } from './index.js';
declare const im: ImClient;
export async function run(): Promise<void> {
  const ok: RwCreateModerationParams = { input: [{ type: 'text', text: 'a' }, { type: 'image_url', image_url: 'u' }] };
  await im.rw.createModeration(ok);
  // @ts-expect-error a bare object is not an array of the union (it was: A | B[])
  await im.rw.createModeration({ input: { type: 'text', text: 'a' } });
  await im.rw.createTranscription({ file: new Blob(['x']), model: 'm' });
  // @ts-expect-error a file part is bytes, not a string (it was typed string)
  await im.rw.createTranscription({ file: 'x', model: 'm' });
  const users: UserProfile[] = [{ username: 'a', role: 'admin' }];
  await im.rw.createUsers({ body: users });
  await im.rw.updateUser({ username: 'a', body: users[0]! });
  const created: UserCreatedWebhookPayload = { username: 'a' };
  void created;
  const png = await im.rw.getImage({ id: 'a' });
  await png.bytes();
}
`,
    );
    const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');
    const run = await promisify(execFile)(process.execPath, [tsc, '--noEmit', '-p', 'tsconfig.esm.json'], {
      cwd: dir,
    }).then(
      () => ({ ok: true, out: '' }),
      (e: { stdout?: string }) => ({ ok: false, out: e.stdout ?? '' }),
    );
    expect(run.out).toBe('');
    expect(run.ok).toBe(true);
    expect(readFileSync(join(dir, 'src/types/schemas.ts'), 'utf8')).toMatch(
      /export (?:type UserProfile = |interface UserProfile )\{/,
    );
  }, 120_000);
});
