/**
 * The extension registry (generator/extensions/): the one source of spec/extensions.schema.json
 * and of the README's extension table, complete (every x- name the generator reads has a module),
 * and each module's checks, model fields, doc lines and change rules as the generator runs them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { checkOperationExtensions } from '../../../generator/check-extensions.js';
import { compareSurfaces } from '../../../generator/diff/compare.js';
import { surfaceOf } from '../../../generator/diff/surface.js';
import { EVENT_EXTENSIONS, EXTENSIONS, extensionsSchema, extensionTable } from '../../../generator/extensions/index.js';
import { specModel } from '../../../generator/generate.js';
import { readGeneratorInput } from '../../../generator/read-inputs.js';
import { SpecError } from '../../../generator/spec-error.js';
import { repoRoot } from '../../helpers/seed.js';

const input = readGeneratorInput(repoRoot);
const miniText = readFileSync(`${repoRoot}test/fixtures/mini-openapi.yaml`, 'utf8');
const SEND = '/{org_name}/{app_name}/messages';
/** The mini spec's model, after `edit` of its raw document. */
const miniModel = (edit: (doc: any) => void = () => {}) => {
  const doc = parse(miniText);
  edit(doc);
  return specModel(stringify(doc), 'mini.yaml', input.extensionsSchema);
};
const refusal = (edit: (doc: any) => void): SpecError => {
  try {
    miniModel(edit);
  } catch (error) {
    if (error instanceof SpecError) return error;
    throw error;
  }
  throw new Error('the spec was accepted');
};

describe('the registry is the one source', () => {
  it('spec/extensions.schema.json is written from it (npx vitest run -u rewrites it)', async () => {
    await expect(`${JSON.stringify(extensionsSchema(), null, 2)}\n`).toMatchFileSnapshot(
      '../../../spec/extensions.schema.json',
    );
  });
  it("the README's extension table is its table (npx vitest run -u rewrites it)", async () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const start = readme.indexOf('| extension | where | meaning |');
    const end = readme.indexOf('\n\n', start);
    expect(start).toBeGreaterThan(0);
    await expect(readme.slice(0, start) + extensionTable() + readme.slice(end)).toMatchFileSnapshot(
      '../../../README.md',
    );
  });
  it('every x- name the generator reads has a module, once', () => {
    const names = EXTENSIONS.map((e) => e.name);
    expect(new Set(names).size).toBe(names.length);
    const sources = readdirSync(join(repoRoot, 'generator'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.startsWith('extensions'))
      .map((f) => readFileSync(join(repoRoot, 'generator', f), 'utf8'));
    const read = new Set(sources.flatMap((text) => [...text.matchAll(/'(x-[a-z-]+)'/g)].map((m) => m[1]!)));
    read.delete('x-im-shared'); // a keyword of the generated validators (emit/shared-validators.ts), never in a spec
    expect([...read].filter((name) => !names.includes(name as `x-${string}`))).toEqual([]);
  });
});

describe('operation checks: each problem once, by its module', () => {
  const ctx = (op: Record<string, unknown>) => ({ op, at: '/paths/~1p/post', id: 'a.b' });
  it('a retry class of the wrong case: one problem, in the retry class words', () => {
    const problems = checkOperationExtensions(ctx({ 'x-retry-class': 'q' }));
    expect(problems).toEqual([expect.objectContaining({ rule: 'unknown-retry-class', hint: 'did you mean Q?' })]);
  });
  it('a missing retry class is refused unless the operation is the token exchange', () => {
    expect(checkOperationExtensions(ctx({})).map((p) => p.rule)).toEqual(['unknown-retry-class']);
    expect(checkOperationExtensions(ctx({ security: [] }))).toEqual([]);
  });
  it('a test without equals or present: the condition module names the test', () => {
    const when = [{ class: 'N', all: [{ field: 'x' }] }];
    const problems = checkOperationExtensions(ctx({ 'x-retry-class': 'I', 'x-retry-class-when': when }));
    expect(problems).toEqual([
      expect.objectContaining({ rule: 'retry-class-condition', pointer: '/paths/~1p/post/x-retry-class-when/0/all/0' }),
    ]);
  });
  it('a bad value without words of its own: the schema says it, once', () => {
    const problems = checkOperationExtensions(ctx({ 'x-retry-class': 'D', 'x-dedupe-key': { in: 'bdy', name: 'k' } }));
    expect(problems).toEqual([
      expect.objectContaining({
        rule: 'extension-value',
        message: expect.stringMatching(/x-dedupe-key\.in must be one of body, header/),
      }),
    ]);
  });
  it('cross-checks: D needs a dedupe key; a dedupe header is an HTTP token', () => {
    expect(checkOperationExtensions(ctx({ 'x-retry-class': 'D' })).map((p) => p.rule)).toEqual(['dedupe-key-missing']);
    const header = { 'x-retry-class': 'D', 'x-dedupe-key': { in: 'header', name: 'Idem Key' } };
    expect(checkOperationExtensions(ctx(header)).map((p) => p.rule)).toEqual(['parameter-name']);
  });
  it('a whole spec with a bad extension value reports it once (no schema copy of the module problem)', () => {
    const error = refusal((d) => (d.paths[SEND].post['x-retry-class'] = 'X'));
    expect(error.problems.map((p) => p.rule)).toEqual(['unknown-retry-class']);
  });
});

describe('model readers', () => {
  it('fill the OperationModel fields, and refuse what the operation does not declare', () => {
    const send = miniModel().operations.find((o) => o.id === 'messages.send')!;
    expect(send.retryClass).toBe('D');
    expect(send.dedupeKey).toBeDefined();
    const batch = refusal((d) => (d.paths[SEND].post['x-batch-split'] = { field: 'nope', max: 2 }));
    expect(batch.problems.map((p) => p.rule)).toEqual(['batch-split-undeclared']);
    const dedupe = refusal((d) => (d.paths[SEND].post['x-dedupe-key'] = { in: 'body', name: 'nope' }));
    expect(dedupe.problems.map((p) => p.rule)).toEqual(['dedupe-key-undeclared']);
  });
  it('x-params-required makes the params object required', () => {
    const model = miniModel((d) => {
      for (const item of Object.values<any>(d.paths))
        for (const op of Object.values<any>(item)) if (op && typeof op === 'object') op['x-params-required'] = 'why';
    });
    expect(model.operations.every((o) => o.paramsRequired)).toBe(true);
  });
});

describe('change rules', () => {
  it('a retry class made less safe is breaking, with the module rule', () => {
    const base = surfaceOf(miniModel());
    const head = surfaceOf(miniModel((d) => (d.paths[SEND].post['x-retry-class'] = 'N')));
    const changes = compareSurfaces(base, head);
    expect(changes).toEqual([
      expect.objectContaining({ kind: 'retry-class-changed', class: 'breaking', before: 'D', after: 'N' }),
    ]);
  });
});

describe('callbacks event readers', () => {
  const read = (schema: Record<string, unknown>, data: Record<string, unknown> = {}) =>
    Object.assign(
      {},
      ...EVENT_EXTENSIONS.map((e) => e.readEvent!({ schema, data, at: '/components/schemas/E', source: 'cb.yaml' })),
    );
  it('fill the event type in the model order: ordering field, best effort, refetch', () => {
    const schema = { 'x-best-effort': true, 'x-truncated-refetch': { operationId: 'a.get', params: { id: 'id' } } };
    const event = read(schema, { properties: { version: { 'x-ordering-version': true } } });
    expect(event).toEqual({
      orderingField: 'version',
      bestEffort: true,
      refetch: { operationId: 'a.get', params: { id: 'id' } },
    });
    expect(Object.keys(event)).toEqual(['orderingField', 'bestEffort', 'refetch']);
    expect(read({})).toEqual({ bestEffort: false });
  });
  it('a refetch without string params is refused where it stands', () => {
    expect(() => read({ 'x-truncated-refetch': { operationId: 'a.get', params: { id: 1 } } })).toThrow(
      expect.objectContaining({ rule: 'truncated-refetch', pointer: '/components/schemas/E/x-truncated-refetch' }),
    );
  });
});
