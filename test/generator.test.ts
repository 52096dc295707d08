/**
 * The generator: refuses bad specs with the path and the rule, is deterministic, and its output
 * is pinned by snapshots that read as code (a fixture spec and the real one).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import {
  DELIVERY_RULES_FILE,
  SDK_VERSION_FILE,
  isRuntimeFileShipped,
  runtimeHeader,
} from '../generator/emit/emit-runtime-copy.js';
import { generate } from '../generator/generate.js';
import { readGeneratorInput } from '../generator/read-inputs.js';
import { SpecError } from '../generator/spec-error.js';
import { repoRoot } from './helpers/seed.js';

const realInput = readGeneratorInput(repoRoot);
const miniText = readFileSync(`${repoRoot}test/fixtures/mini-openapi.yaml`, 'utf8');
const mini = (edit?: (doc: any) => void) => {
  const doc = parse(miniText);
  edit?.(doc);
  return generate({ ...realInput, openapiText: stringify(doc), openapiSource: 'test/fixtures/mini-openapi.yaml' });
};

describe('refusals: a bad spec is refused with its JSON pointer and rule', () => {
  const send = (doc: any) => doc.paths['/{org_name}/{app_name}/messages'].post;
  const cases: [string, (doc: any) => void, string, string][] = [
    [
      'unknown retry class',
      (d) => (send(d)['x-retry-class'] = 'X'),
      'unknown-retry-class',
      '/paths/~1{org_name}~1{app_name}~1messages/post/x-retry-class',
    ],
    [
      'missing retry class',
      (d) => delete send(d)['x-retry-class'],
      'unknown-retry-class',
      '/paths/~1{org_name}~1{app_name}~1messages/post/x-retry-class',
    ],
    ['duplicate operationId', (d) => (send(d).operationId = 'users.get'), 'duplicate-operation-id', '/operationId'],
    [
      'unresolved $ref',
      (d) =>
        (d.paths['/{org_name}/{app_name}/users/{username}'].get.responses['200'].content[
          'application/json'
        ].schema.$ref = '#/components/schemas/Nope'),
      'unresolved-ref',
      '/$ref',
    ],
    [
      'bad condition',
      (d) => (send(d)['x-retry-class-when'] = [{ class: 'N', all: [{ field: 'online_only' }] }]),
      'retry-class-condition',
      '/x-retry-class-when/0/all/0',
    ],
    ['D without dedupe key', (d) => delete send(d)['x-dedupe-key'], 'dedupe-key-missing', '/x-dedupe-key'],
    ['bad operationId', (d) => (send(d).operationId = 'Send'), 'operation-id', '/operationId'],
  ];
  it.each(cases)('%s', async (_name, edit, rule, pointerEnd) => {
    const error = await mini(edit).catch((e) => e);
    expect(error).toBeInstanceOf(SpecError);
    expect(error.rule).toBe(rule);
    expect(error.pointer.endsWith(pointerEnd)).toBe(true);
    expect(error.message).toContain(rule);
  });
  it('a path parameter and a body field of one name: the body goes whole under `body` (issue 26), with a warning at the request body', async () => {
    const { model } = await mini((d) => {
      const p = d.paths['/{org_name}/{app_name}/users/{username}'];
      p.put = {
        operationId: 'users.update',
        'x-retry-class': 'I',
        requestBody: {
          content: { 'application/json': { schema: { type: 'object', properties: { username: { type: 'string' } } } } },
        },
        responses: { 200: { description: 'ok' } },
      };
    });
    const update = model.operations.find((o) => o.id === 'users.update')!;
    expect(update.body).toMatchObject({ whole: true, fields: [{ name: 'body' }] });
    expect(model.warnings).toContainEqual(
      expect.objectContaining({
        rule: 'body-whole',
        pointer: '/paths/~1{org_name}~1{app_name}~1users~1{username}/put/requestBody',
      }),
    );
  });
  it('refuses YAML that is not a mapping', async () => {
    await expect(generate({ ...realInput, openapiText: '- a\n- b\n' })).rejects.toThrow(/openapi-version|mapping/);
  });
});

describe('fixture spec snapshots', async () => {
  const { files } = await mini();
  it.each([
    'src/resources/messages.ts',
    'src/funcs/friends.ts',
    'src/types/messages.ts',
    'src/types/friends.ts',
    'src/operations.ts',
    'src/client.ts',
    'src/index.ts',
  ])('%s', async (path) => {
    expect(files.get(path)).toBeDefined();
    await expect(files.get(path)).toMatchFileSnapshot(`__snapshots__/mini/${path.replace(/\//g, '__')}`);
  });
  it('every generated file starts with a do-not-edit header naming its source', () => {
    for (const [path, text] of files) {
      if (path.endsWith('.json')) continue; // JSON has no comments: package.json and tsconfigs say so in their fields
      if (path === 'CHANGELOG.md') continue; // the maintainer's (written by npm run release), carried through generate
      const first = text.replace(/^#!.*\n/, '').split('\n')[0]!;
      if (path.endsWith('.yaml') || path === '.npmrc') {
        expect(first, path).toMatch(/^# (Copied|Written) by im-openapi.*Do not edit/);
        continue;
      }
      if (path.endsWith('.md')) {
        expect(first, path).toMatch(
          /^<!-- Generated by im-openapi from (test\/fixtures\/mini-openapi\.yaml|spec\/callbacks\.asyncapi\.yaml).*Do not edit/,
        );
        continue;
      }
      expect(first, path).toMatch(
        /^\/\/ (Generated by im-openapi from (test\/fixtures\/mini-openapi\.yaml|spec\/callbacks\.asyncapi\.yaml)|Copied by im-openapi from templates\/(runtime|examples|package)\/).*Do not edit/,
      );
    }
  });
});

describe('the real spec', async () => {
  const first = await generate(realInput);
  it("states each provenance mark once per doc comment, after the retry class (the spec's descriptions state them too, for viewers)", () => {
    const twice: string[] = [];
    for (const [path, text] of first.files) {
      if (!path.endsWith('.ts')) continue;
      for (const comment of text.match(/\/\*\*[\s\S]*?\*\//g) ?? []) {
        const reasons = [
          ...comment.matchAll(/(?:Assumed(?: \(the seed is silent\))?|Not documented by the service): ([^;*]{12,80})/g),
        ].map((m) => m[1]!.replace(/\s*\n\s*\*\s*/g, ' ').split('.')[0]);
        if (new Set(reasons).size !== reasons.length) twice.push(`${path}: ${comment.slice(0, 160)}`);
      }
    }
    expect(twice).toEqual([]);
    const list = first.files.get('src/resources/users.ts')!;
    const doc = list.slice(list.lastIndexOf('/**', list.indexOf('  list(')), list.indexOf('  list('));
    expect(doc.indexOf('Retry class Q')).toBeLessThan(doc.indexOf('Assumed'));
  });
  it('emits a method for every one of the 178 operations', () => {
    expect(first.model.operations).toHaveLength(178);
    const resources = [...first.files]
      .filter(([p]) => p.startsWith('src/resources/'))
      .map(([, t]) => t)
      .join('\n');
    for (const op of first.model.operations) expect(resources).toContain(`  ${op.methodName}(`);
  });
  it('is deterministic: the same spec gives byte-identical output', async () => {
    const second = await generate(realInput);
    expect([...second.files.keys()]).toEqual([...first.files.keys()]);
    for (const [path, text] of first.files) expect(second.files.get(path), path).toBe(text);
  });
  it('a cache (formatting, validators, parsed YAML) never changes the output, and a spec edit gets through it', async () => {
    const entries = new Map<string, string>();
    const cache = { get: (k: string) => entries.get(k), set: (k: string, v: string) => void entries.set(k, v) };
    const cold = await generate(realInput, cache);
    const warm = await generate(realInput, cache);
    // every file, byte for byte, and no file more or less
    for (const run of [cold, warm]) expect([...run.files.keys()]).toEqual([...first.files.keys()]);
    for (const [path, text] of first.files) {
      expect(cold.files.get(path), path).toBe(text);
      expect(warm.files.get(path), path).toBe(text);
    }
    const edited = realInput.openapiText.replace('description: Username.', 'description: The username, edited.');
    expect(edited).not.toBe(realInput.openapiText);
    const afterEdit = await generate({ ...realInput, openapiText: edited }, cache);
    const uncached = await generate({ ...realInput, openapiText: edited });
    const changed = [...afterEdit.files].filter(([p, t]) => first.files.get(p) !== t).map(([p]) => p);
    expect(changed.length).toBeGreaterThan(0);
    expect([...afterEdit.files.keys()]).toEqual([...uncached.files.keys()]);
    for (const [path, text] of uncached.files) expect(afterEdit.files.get(path), path).toBe(text);
    // the cache holds the spec in pieces: the edit re-parsed one of them, not the whole spec
    expect([...entries.keys()].filter((k) => k.startsWith('yaml-piece\0')).length).toBeGreaterThan(300);
  }, 60_000);
  it('copies the runtime unchanged but for its header', () => {
    for (const [rel, text] of realInput.runtimeFiles) {
      if (rel === SDK_VERSION_FILE) {
        // the placeholder stays behind; the package's own version is written in its place
        const version = JSON.parse(first.files.get('package.json')!).version as string;
        expect(first.files.get(`src/${rel}`)).toContain(`export const SDK_VERSION = '${version}';`);
        continue;
      }
      if (rel === DELIVERY_RULES_FILE) {
        // emitted from the callbacks spec, not copied: the template is that output (test/delivery-rules.test.ts)
        expect(first.files.get(`src/${rel}`), 'run `npm run generate`: it rewrites the template').toBe(text);
        continue;
      }
      if (!isRuntimeFileShipped(rel)) {
        expect(first.files.has(`src/${rel}`)).toBe(false);
        continue;
      }
      // Byte for byte: the header line, then the template exactly as written (not re-formatted).
      expect(first.files.get(`src/${rel}`), rel).toBe(runtimeHeader(rel) + text);
    }
  });
  it.each(['src/resources/users.ts', 'src/operations.ts', 'src/index.ts'])('snapshot %s', async (path) => {
    await expect(first.files.get(path)).toMatchFileSnapshot(`__snapshots__/real/${path.replace(/\//g, '__')}`);
  });
  it("the package README lists every assumption and every operation's retry class", () => {
    const readme = first.files.get('README.md')!;
    for (const op of first.model.operations) expect(readme).toContain(`\`${op.namespace}.${op.methodName}\``);
    for (const mark of first.model.provenance) expect(readme).toContain(mark.pointer.replace(/\|/g, '\\|'));
    expect(first.files.get('api.md')).toContain('client.users.batchCreate()');
  });
  it('callback payload types come from the callbacks spec, ordering fields from its marks', async () => {
    const payloads = first.files.get('src/callbacks/payloads.ts')!;
    expect(payloads).toMatch(/export type KnownCallbackEvent =/);
    const mod = await import('../generated/src/callbacks.js');
    expect(mod.knownEventTypes.size).toBe(17);
    expect(mod.eventOrderingFields).toEqual({
      'friend.added': 'version',
      'group.members_added': 'member_version',
      'presence.changed': 'version',
    });
    expect([...mod.bestEffortEventTypes].sort()).toEqual([
      'chatroom.message_recalled',
      'chatroom.message_sent',
      'presence.changed',
    ]);
    expect(mod.isEventType({ type: 'friend.added' }, 'friend.added')).toBe(true);
    expect(mod.isKnownEvent({ type: 'group.renamed' } as never)).toBe(false);
    // The hand-written default table of the receiver kit agrees with the spec's marks.
    expect(mod.orderingVersionFields).toEqual(mod.eventOrderingFields);
    // … and so does the inbox's table of REST calls for truncated events (x-truncated-refetch).
    expect(mod.eventRefetchOperations).toEqual({
      'group.members_added': { operationId: 'groups.members', params: { group_id: 'group_id' } },
    });
    expect(mod.truncatedRefetch).toEqual(mod.eventRefetchOperations);
  });
  it('generated/ on disk is what the spec gives (npm run generate -- --check)', () => {
    for (const [path, text] of first.files) {
      expect(
        readFileSync(`${repoRoot}generated/${path}`, 'utf8'),
        `generated/${path} is stale: run npm run generate`,
      ).toBe(text);
    }
  });
});
