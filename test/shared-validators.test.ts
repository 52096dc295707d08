/**
 * Validators share the compiled code of shared component schemas (issues 15 and 18):
 * src/validators/shared/<Name>.<request|response>.ts, imported by the operation modules that
 * reach the component.
 *
 * (a) layout: every import resolves, shared modules import no cycle, each is reached by two or
 *     more operations, and the emitted text is the same twice;
 * (b) the shared layout says exactly what the fully inlined validator says (valid params, every
 *     invalid variant, random params and response bodies) for every operation;
 * (c) an error inside a shared component (two modules deep, inside an anyOf) is worded with the
 *     pointer of the field in the operation's params or response;
 * (d) one optional field added to the most shared schema changes a handful of generated files;
 * (e) the constructs fixture with every operation twice (so its components are shared):
 *     discriminated unions, allOf merges, read/write views, formats, and a shared component that
 *     reaches a recursive one (kept as `$defs`), checked against the fully inlined validators;
 * (f) still lazy: an app calling one operation bundles its module and the shared ones it imports.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse, stringify } from 'yaml';
import { build } from 'esbuild';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApiModel } from '../generator/build-model.js';
import { compileValidatorCode, emitValidators, sharedFile, validatorFile } from '../generator/emit/emit-validators.js';
import { generate } from '../generator/generate.js';
import { parseSpec } from '../generator/load-spec.js';
import type { ApiModel, OperationModel } from '../generator/model.js';
import { readGeneratorInput } from '../generator/read-inputs.js';
import { operations } from '../generated/src/operations.js';
import type { ValidationIssue } from '../generated/src/operation.js';
import * as ajvHelpers from '../templates/runtime/internal/ajv-runtime.js';
import * as ajvFormatChecks from '../templates/runtime/internal/ajv-formats.js';
import { issuesFromAjv } from '../templates/runtime/internal/validation-issues.js';
import { measureSharedEdit, withProbeField } from '../scripts/lib/shared-edit.js';
import { fieldsOf, invalidVariants, validParams } from './helpers/sample-params.js';
import { repoRoot } from './helpers/seed.js';

/** What the generated code imports, by name (ajv-runtime.ts helpers and the ajv-formats.ts table). */
const runtime = { ...ajvHelpers, ...ajvFormatChecks };

const model: ApiModel = buildApiModel(
  parseSpec(readFileSync(join(repoRoot, 'spec/openapi.yaml'), 'utf8'), 'spec/openapi.yaml'),
);
const files = emitValidators(model);
const sharedPaths = [...files.keys()].filter((p) => p.startsWith('src/validators/shared/'));

type Loaded = {
  validate(p: unknown): ValidationIssue[] | null;
  validateResponse(b: unknown): ValidationIssue[] | null;
};
const loaded = new Map<string, Loaded>();
beforeAll(async () => {
  for (const o of model.operations)
    loaded.set(
      o.id,
      await (operations as Record<string, { loadValidator: () => Promise<Loaded> }>)[o.id]!.loadValidator(),
    );
});

/** The same operation's validator with every component inlined (no shared module): the reference. */
function inlined(o: OperationModel, m: ApiModel = model): Loaded {
  const { code, imports } = compileValidatorCode(m, o);
  const [params, response] = new Function(...imports, `${code}\nreturn [validateParams, validateResponseBody];`)(
    ...imports.map((n) => (runtime as Record<string, unknown>)[n]),
  );
  return {
    validate: (p) =>
      params(p) ? null : issuesFromAjv(params.errors, p, { pathParams: o.pathParams.map((x) => x.name) }),
    validateResponse: (b) =>
      response(b) ? null : issuesFromAjv(response.errors, b, { pathParams: [], response: true }),
  };
}

const importsOf = (text: string) => [...text.matchAll(/^import .* from '(\.[^']*)';$/gm)].map((m) => m[1]!);

describe('(a) the shared modules', () => {
  it('exist, and every import of a validator module resolves to an emitted file', () => {
    expect(sharedPaths.length).toBeGreaterThan(5);
    for (const [path, text] of files) {
      const dir = path.slice(0, path.lastIndexOf('/'));
      for (const spec of importsOf(text).filter((s) => s.includes('shared/') || path.includes('/shared/'))) {
        if (spec.includes('/internal/')) continue;
        const target = join(dir, spec).replace(/\.js$/, '.ts');
        expect(files.has(target), `${path} imports ${spec}`).toBe(true);
      }
    }
  });

  it('import no cycle, and each is reached by two or more operations', () => {
    const sharedImports = (path: string) =>
      importsOf(files.get(path)!)
        .filter((s) => !s.includes('/internal/'))
        .map((s) => join(path.slice(0, path.lastIndexOf('/')), s).replace(/\.js$/, '.ts'));
    const reachedFrom = (path: string, seen = new Set<string>(), stack: string[] = []): Set<string> => {
      for (const next of sharedImports(path).filter((p) => p.includes('/shared/'))) {
        expect(stack, `import cycle through ${next}`).not.toContain(next);
        if (!seen.has(next)) {
          seen.add(next);
          reachedFrom(next, seen, [...stack, path]);
        }
      }
      return seen;
    };
    const users = new Map<string, number>();
    for (const o of model.operations)
      for (const p of reachedFrom(validatorFile(o))) users.set(p, (users.get(p) ?? 0) + 1);
    for (const p of sharedPaths) expect(users.get(p) ?? 0, p).toBeGreaterThanOrEqual(2);
  });

  it('are the same text when emitted again', () => {
    const again = emitValidators(model);
    expect([...again.keys()]).toEqual([...files.keys()]);
    for (const [path, text] of again) expect(text, path).toBe(files.get(path));
    expect(sharedFile('OpenResult.response')).toBe('src/validators/shared/OpenResult.response.ts');
  });
});

describe('(b) the shared layout says what the fully inlined validator says', () => {
  it('for every operation: valid params, each invalid variant, random params and responses', () => {
    const json = fc.jsonValue({ maxDepth: 3 });
    for (const o of model.operations) {
      const shared = loaded.get(o.id)!;
      const reference = inlined(o);
      const same = (what: string, params: unknown) =>
        expect(shared.validate(params), `${o.id} ${what}`).toEqual(reference.validate(params));
      same('valid params', validParams(model, o));
      for (const bad of invalidVariants(model, o)) same(bad.what, bad.params);
      const names = fieldsOf(o).map((f) => f.name);
      const near = fc.dictionary(fc.constantFrom(...names, 'extra'), json, { maxKeys: 5 });
      fc.assert(
        fc.property(names.length ? fc.oneof(json, near) : json, (p) => {
          same('random params', p);
        }),
        { numRuns: 25, seed: 7 },
      );
      // response bodies: random JSON inside the documented top-level fields (items of pages, etc.)
      const body = fc.dictionary(
        fc.constantFrom('items', 'next_cursor', 'id', 'version', 'status', 'extra'),
        fc.oneof(
          json,
          fc.array(fc.dictionary(fc.constantFrom('id', 'version', 'status', 'scene', 'note'), json, { maxKeys: 4 }), {
            maxLength: 2,
          }),
        ),
        { maxKeys: 4 },
      );
      fc.assert(
        fc.property(fc.oneof(json, body), (b) => {
          expect(shared.validateResponse(b), `${o.id} response ${JSON.stringify(b)}`).toEqual(
            reference.validateResponse(b),
          );
        }),
        { numRuns: 25, seed: 11 },
      );
    }
  });
});

describe('(c) an error inside a shared component names the field from the operation', () => {
  it('a response: ModerationItem.response → ItemVersion.response (an anyOf), inside the items list', async () => {
    const text = files.get(validatorFile(model.operations.find((o) => o.id === 'moderation.items')!))!;
    expect(text).toContain("from './shared/ModerationItem.response.js'");
    expect(files.get(sharedFile('ModerationItem.response'))).toContain("from './ItemVersion.response.js'");
    const body = {
      items: [
        { id: 'i1', version: 2 },
        { id: 'i2', version: true },
      ],
      next_cursor: null,
    };
    const issues = loaded.get('moderation.items')!.validateResponse(body);
    // the anyOf of the shared ItemVersion folds into one type issue, at the item's field
    expect(issues).toEqual([
      {
        pointer: '/items/1/version',
        rule: 'type',
        message: '`items[1].version` must be an integer or a string (got true)',
      },
    ]);
    expect(loaded.get('moderation.items')!.validateResponse({ ...body, items: [{ id: 'i1', version: '' }] })).toEqual([
      { pointer: '/items/0/version', rule: 'minLength', message: '`items[0].version` must not be empty' },
    ]);
  });

  it('request params: a shared union (UserMuteScope.request) behind a path parameter', () => {
    const text = files.get(validatorFile(model.operations.find((o) => o.id === 'users.mute')!))!;
    expect(text).toContain("from './shared/UserMuteScope.request.js'");
    const v = loaded.get('users.mute')!;
    expect(v.validate({ username: 'a', scope: 5 })).toEqual([
      { pointer: '/scope', rule: 'type', message: 'path parameter `scope` must be a string (got 5)' },
    ]);
    expect(v.validate({ username: 'a', scope: 'chat/x' })?.[0]).toMatchObject({ pointer: '/scope', rule: 'pattern' });
  });

  it('request params: a shared list (UsernameList.request) reports the bad item by its index', () => {
    const o = model.operations.find((x) =>
      files.get(validatorFile(x))!.includes("from './shared/UsernameList.request.js'"),
    )!;
    const field = fieldsOf(o).find((f) => JSON.stringify(f.schema).includes('UsernameList'))!;
    const valid = validParams(model, o) as Record<string, unknown>;
    const issues = loaded.get(o.id)!.validate({ ...valid, [field.name]: ['alice', ''] });
    expect(issues).toEqual([
      { pointer: `/${field.name}/1`, rule: 'minLength', message: `\`${field.name}[1]\` must not be empty` },
    ]);
  });
});

describe('(d) review cost of a small spec edit', () => {
  it('one optional field added to the most shared schema changes at most 10 generated files', async () => {
    const result = await measureSharedEdit(readGeneratorInput(repoRoot));
    expect(result.reachedBy).toBeGreaterThan(50);
    expect(result.changed).toContain('src/validators/shared/OpenResult.response.ts');
    expect(result.filesChanged, result.changed.join('\n')).toBeLessThanOrEqual(10);
  }, 60_000);

  it('through the generator cache, the edit recompiles only the changed shared module and gives the uncached output', async () => {
    const input = readGeneratorInput(repoRoot);
    const entries = new Map<string, string>();
    let compiled = 0;
    const cache = {
      get: (k: string) => entries.get(k),
      set: (k: string, v: string) => void (k.startsWith('validator\0') && compiled++, entries.set(k, v)),
    };
    await generate(input, cache);
    compiled = 0;
    const edited = { ...input, openapiText: withProbeField(input.openapiText, 'OpenResult') };
    const warm = await generate(edited, cache);
    expect(compiled).toBe(1);
    const cold = await generate(edited);
    expect([...warm.files.keys()]).toEqual([...cold.files.keys()]);
    for (const [path, text] of cold.files) expect(warm.files.get(path), path).toBe(text);
  }, 60_000);
});

describe('(e) the constructs fixture, every operation twice', () => {
  const SOURCE = 'test/fixtures/constructs-openapi.yaml';
  let dir: string;
  let out: Awaited<ReturnType<typeof generate>>;
  const mods = new Map<string, Loaded>();
  beforeAll(async () => {
    const doc = parse(readFileSync(join(repoRoot, SOURCE), 'utf8'));
    // a shared component that reaches the recursive LabTreeNode, returned by lab.save_tree
    doc.components.schemas.LabForest = {
      type: 'object',
      required: ['trees'],
      additionalProperties: false,
      properties: {
        trees: { type: 'array', items: { $ref: '#/components/schemas/LabTreeNode' } },
        title: { type: 'string', minLength: 1 },
      },
    };
    for (const [path, item] of Object.entries<any>({ ...doc.paths })) {
      if (path.endsWith('/lab/trees'))
        item.post.responses['200'].content['application/json'].schema = { $ref: '#/components/schemas/LabForest' };
      if (path.endsWith('/token')) continue;
      const twin = structuredClone(item);
      for (const o of Object.values<any>(twin))
        if (o && typeof o === 'object' && o.operationId) o.operationId += '_twin';
      doc.paths[`${path}/twin`] = twin;
    }
    out = await generate({ ...readGeneratorInput(repoRoot), openapiText: stringify(doc), openapiSource: SOURCE });
    dir = mkdtempSync(join(tmpdir(), 'im-openapi-shared-'));
    for (const [path, text] of out.files) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    for (const o of out.model.operations) mods.set(o.id, await import(join(dir, validatorFile(o))));
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('shares the fixture components; the recursive one stays $defs, also inside a shared module', () => {
    const shared = [...out.files.keys()].filter((p) => p.includes('/shared/'));
    expect(shared).toEqual(
      expect.arrayContaining(
        [
          'LabForest.response',
          'LabPost.response',
          'LabImage.request',
          'LabAccount.response',
          'LabMessage.response',
        ].map(sharedFile),
      ),
    );
    expect(shared.some((p) => p.includes('LabTreeNode'))).toBe(false);
    const forest = out.files.get(sharedFile('LabForest.response'))!;
    // the recursive LabTreeNode is compiled inside the module (Ajv's $defs), not imported
    expect(importsOf(forest)).toEqual(['../../internal/ajv-runtime.js']);
    // the whole response is the component (with its own $defs): the operation calls the module
    expect(out.files.get(validatorFile(out.model.operations.find((o) => o.id === 'lab.save_tree')!))).toContain(
      "from './shared/LabForest.response.js'",
    );
    const tree = mods.get('lab.save_tree')!;
    const body = { trees: [{ label: 'a', children: [{ label: 'b' }, { label: 5, extra: 1 }] }], title: '' };
    expect(tree.validateResponse(body)).toEqual([
      expect.objectContaining({ pointer: '/trees/0/children/1/extra', rule: 'additionalProperties' }),
      expect.objectContaining({ pointer: '/trees/0/children/1/label', rule: 'type' }),
      expect.objectContaining({ pointer: '/title', rule: 'minLength' }),
    ]);
    expect(tree.validateResponse(body)).toEqual(
      inlined(out.model.operations.find((o) => o.id === 'lab.save_tree')!, out.model).validateResponse(body),
    );
  });

  it('every operation says what its fully inlined validator says', () => {
    const json = fc.jsonValue({ maxDepth: 4 });
    for (const o of out.model.operations) {
      const shared = mods.get(o.id)!;
      const reference = inlined(o, out.model);
      const same = (what: string, params: unknown) =>
        expect(shared.validate(params), `${o.id} ${what}`).toEqual(reference.validate(params));
      same('valid params', validParams(out.model, o));
      for (const bad of invalidVariants(out.model, o)) same(bad.what, bad.params);
      const names = fieldsOf(o).map((f) => f.name);
      const near = fc.dictionary(
        fc.constantFrom(...names, 'type', 'kind', 'extra'),
        fc.oneof(
          json,
          fc.dictionary(fc.constantFrom(...names, 'type', 'label', 'url', 'text', 'id'), json, { maxKeys: 4 }),
        ),
        { maxKeys: 6 },
      );
      fc.assert(
        fc.property(names.length ? fc.oneof(json, near) : json, (p) => {
          same('random params', p);
          expect(shared.validateResponse(p), `${o.id} response ${JSON.stringify(p)}`).toEqual(
            reference.validateResponse(p),
          );
        }),
        { numRuns: 60, seed: 3 },
      );
    }
  });
});

describe('(f) still lazy', () => {
  /** The validator modules an esbuild bundle of an app calling `funcName` holds (generated/src sources). */
  async function bundledValidators(funcName: string): Promise<string[]> {
    const funcs = join(repoRoot, 'generated/src/funcs/index.ts');
    const result = await build({
      stdin: {
        contents: `import { ImCore, ${funcName} } from ${JSON.stringify(funcs)};\nconst core = new ImCore({ baseUrl: 'http://127.0.0.1:1', appKey: 'o#a', clientId: 'i', clientSecret: 's' });\n${funcName}(core, {}).catch(() => {});\n`,
        resolveDir: repoRoot,
        loader: 'ts',
      },
      bundle: true,
      format: 'esm',
      platform: 'node',
      write: false,
      treeShaking: true,
      metafile: true,
      logLevel: 'silent',
    });
    const [output] = Object.values(result.metafile.outputs);
    return Object.entries(output!.inputs)
      .filter(([p, v]) => v.bytesInOutput > 0 && p.includes('src/validators/'))
      .map(([p]) => p)
      .map((p) => p.slice(p.indexOf('src/validators/')))
      .sort();
  }

  it('one operation bundles its validator and the shared modules it reaches, nothing else', async () => {
    expect(await bundledValidators('usersGet')).toEqual([
      'src/validators/shared/User.response.ts',
      'src/validators/usersGet.ts',
    ]);
    expect(await bundledValidators('moderationItems')).toEqual([
      'src/validators/moderationItems.ts',
      'src/validators/shared/ItemVersion.response.ts',
      'src/validators/shared/ModerationItem.response.ts',
    ]);
  }, 60_000);
});
