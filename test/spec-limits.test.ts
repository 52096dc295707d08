/**
 * Every refusal is a SpecError with a location, a rule and a fix, never a stack trace (issue 25):
 * input size (refused before parsing, the limit an option), YAML alias bombs and deep nesting,
 * `$ref` amplification, unsafe names (a schema name with `../`, a header name with U+2028, a path
 * key that is not a URL path), schemas the validators could not compile, a package version that
 * would break package.json; in both specs.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generate, type GeneratorInput } from '../generator/generate.js';
import { readGeneratorInput } from '../generator/read-inputs.js';
import { DEFAULT_MAX_SPEC_BYTES, MAX_SPEC_DEPTH } from '../generator/spec-document.js';
import { SpecError } from '../generator/spec-error.js';
import { formatSpecError } from '../generator/spec-location.js';
import { CLIENT_MEMBERS } from '../generator/names.js';
import { repoRoot } from './helpers/seed.js';

const input = readGeneratorInput(repoRoot);
const work = mkdtempSync(join(tmpdir(), 'im-limits-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The refusal of `edit`, formatted as the CLI prints it; fails when generate accepts or throws anything else. */
async function refusal(edit: Partial<GeneratorInput>): Promise<{ error: SpecError; report: string }> {
  const variant = { ...input, ...edit };
  const error = await generate(variant).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'generate should refuse with a SpecError').toBeInstanceOf(SpecError);
  const report = formatSpecError(
    error as SpecError,
    { 'spec/openapi.yaml': variant.openapiText, 'spec/callbacks.asyncapi.yaml': variant.callbacksText! },
    'spec/openapi.yaml',
  );
  for (const p of (error as SpecError).problems) expect(p.hint, p.rule).toBeTruthy();
  expect(report).toMatch(/^spec\/[\w.]+\.yaml:\d+:\d+ {2}/m);
  return { error: error as SpecError, report };
}

const replaceOnce = (text: string, from: string, to: string) => {
  expect(text.includes(from), from).toBe(true);
  return text.replace(from, to);
};

describe('input size', () => {
  it('a spec over the limit is refused before it is parsed, naming the size, the limit and the option', async () => {
    const big = `${input.openapiText}\n# ${'x'.repeat(2_000)}\n`;
    const { error, report } = await refusal({ openapiText: big, maxSpecBytes: input.openapiText.length + 1_000 });
    expect(error.rule).toBe('spec-too-large');
    // refused before it is parsed: the same size of text that is not YAML at all gets the size rule too,
    // not yaml-syntax (a proof by what is reported, not by a stopwatch, so it holds on a loaded machine)
    const broken = `${input.openapiText}\nbroken: [unclosed ${'x'.repeat(2_000)}\n`;
    expect((await refusal({ openapiText: broken, maxSpecBytes: input.openapiText.length + 1_000 })).error.rule).toBe(
      'spec-too-large',
    );
    expect(report).toMatch(
      /^spec\/openapi\.yaml:1:1 {2}\(document\)\n {2}spec-too-large: the spec is \d+ KiB, over the limit of \d+ KiB/m,
    );
    expect(report).toContain('--max-spec-bytes');
    // the same spec within a raised limit is read
    await expect(generate({ ...input, openapiText: big, maxSpecBytes: big.length * 2 })).resolves.toBeDefined();
    expect(DEFAULT_MAX_SPEC_BYTES).toBe(16 * 2 ** 20);
  });

  it('the callbacks spec has the same limit', async () => {
    const { error } = await refusal({
      callbacksText: `${input.callbacksText}${'#'.repeat(4_000)}\n`,
      maxSpecBytes: input.callbacksText!.length + 1_000,
    });
    // both sizes are checked before either spec is parsed: both are named
    expect(error.problems.map((p) => [p.rule, p.file ?? 'spec/openapi.yaml'])).toEqual([
      ['spec-too-large', 'spec/openapi.yaml'],
      ['spec-too-large', 'spec/callbacks.asyncapi.yaml'],
    ]);
  });

  it('the CLI refuses a file over --max-spec-bytes before reading it: a located report, no stack trace', async () => {
    const file = join(work, 'big.yaml');
    writeFileSync(file, `${input.openapiText}\n# ${'x'.repeat(5_000)}\n`);
    const r = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['scripts/generate.mjs', '--check', '--spec', file, '--max-spec-bytes', '100000'],
        { cwd: repoRoot, encoding: 'utf8', timeout: 120_000 },
        (error, _stdout, stderr) => {
          resolve({ status: error ? ((error as { code?: number }).code ?? 1) : 0, stderr });
        },
      );
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      /^1 problem in the spec \(nothing was generated\):\nspec\/openapi\.yaml:1:1 {2}\(document\)\n {2}spec-too-large: the spec is \d+ KiB, over the limit of 98 KiB \(100000 bytes\)\n {2}fix: /,
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
  }, 120_000);
});

describe('YAML bombs and nesting', () => {
  it('an alias bomb is refused (both specs)', async () => {
    const bomb =
      'x-bomb:\n  a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n' +
      Array.from(
        { length: 9 },
        (_, i) =>
          `  ${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(9)
            .fill(`*${String.fromCharCode(97 + i)}`)
            .join(',')}]`,
      ).join('\n') +
      '\n';
    const { error } = await refusal({ openapiText: `${input.openapiText}\n${bomb}` });
    expect(error.rule).toBe('yaml-aliases');
    const cb = await refusal({ callbacksText: `${input.callbacksText}\n${bomb}` });
    expect(cb.error.problems[0]).toMatchObject({ rule: 'yaml-aliases', file: 'spec/callbacks.asyncapi.yaml' });
  });

  it('100,000-deep nesting is refused by the YAML reader; 65 levels by the depth limit, at its pointer', async () => {
    const deep = `x-deep: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`;
    const { error } = await refusal({ openapiText: `${input.openapiText}\n${deep}` });
    expect(['yaml-too-deep', 'too-deep']).toContain(error.rule);
    const cb = await refusal({ callbacksText: `${input.callbacksText}\n${deep}` });
    expect(cb.error.problems[0]!.file).toBe('spec/callbacks.asyncapi.yaml');
    const levels = `x-deep: ${'['.repeat(MAX_SPEC_DEPTH + 1)}${']'.repeat(MAX_SPEC_DEPTH + 1)}\n`;
    const { error: limit, report } = await refusal({ openapiText: `${input.openapiText}\n${levels}` });
    expect(limit.rule).toBe('too-deep');
    expect(report).toMatch(/ {2}x-deep\.0\.0\.0/);
  }, 120_000); // three whole generations on a machine that may be busy

  it('YAML that is not YAML names its line in the callbacks spec too', async () => {
    const { error, report } = await refusal({ callbacksText: `${input.callbacksText}\nbroken: [unclosed\n` });
    expect(error.problems[0]).toMatchObject({ rule: 'yaml-syntax', file: 'spec/callbacks.asyncapi.yaml' });
    expect(report).toMatch(/^spec\/callbacks\.asyncapi\.yaml:\d+:\d+ {2}\(document\)\n {2}yaml-syntax: /m);
  });
});

describe('$ref amplification', () => {
  it('an operation whose schemas inline beyond the limit is not validated (a located fallback), before the validators would take gigabytes; --strict refuses it', async () => {
    const depth = 20;
    let schemas = '';
    for (let i = 0; i < depth; i++)
      schemas += `    Bomb${i}:\n      type: object\n      properties:\n        a:\n          $ref: "#/components/schemas/Bomb${i + 1}"\n        b:\n          $ref: "#/components/schemas/Bomb${i + 1}"\n`;
    schemas += `    Bomb${depth}:\n      type: string\n`;
    let text = input.openapiText.replace(/\n {2}schemas:\n/, `\n  schemas:\n${schemas}`);
    text = text.replace(
      /(operationId: users\.get\n[\s\S]*?schema:\n\s*)\$ref: "#\/components\/schemas\/User"/,
      '$1$ref: "#/components/schemas/Bomb0"',
    );
    // issue 26: one operation over its own limit falls back (the document's total still refuses)
    const { model, files } = await generate({ ...input, openapiText: text });
    expect(model.warnings.filter((w) => w.fallback)).toEqual([
      expect.objectContaining({
        rule: 'validator-fallback',
        pointer: '/paths/~1{org_name}~1{app_name}~1users~1{username}/get',
        message: expect.stringContaining('users.get: its schemas with their $refs inlined come to over 10,000 nodes'),
      }),
    ]);
    expect(files.get('src/validators/usersGet.ts')!.length).toBeLessThan(5_000);
    const { error, report } = await refusal({ openapiText: text, strict: true });
    expect(error.rule).toBe('validator-fallback');
    expect(report).toMatch(/paths\.\/\{org_name\}\/\{app_name\}\/users\/\{username\}\.get\n {2}validator-fallback: /);
    // No stopwatch here: without the limit this would not finish within the test's timeout (or memory);
    // the timeout is generous because the whole generation runs twice, on a machine that may be busy.
  }, 180_000);
});

describe('names and values that would reach code unsafely', () => {
  it('a schema name with ../ is mapped to a safe type name (a located warning), never written as it is', async () => {
    const text = replaceOnce(input.openapiText, '\n    User:\n', '\n    ../User:\n')
      .split('"#/components/schemas/User"')
      .join('"#/components/schemas/..~1User"');
    const { model, files } = await generate({ ...input, openapiText: text });
    expect(model.warnings).toContainEqual(
      expect.objectContaining({
        rule: 'component-renamed',
        pointer: '/components/schemas/..~1User',
        message: expect.stringContaining('its type is named User'),
      }),
    );
    const schemas = files.get('src/types/schemas.ts')!;
    expect(schemas).toMatch(/^export (?:type User = |interface User )\{/m);
    expect([...files].some(([path, t]) => path !== 'openapi.yaml' && t.includes('../User'))).toBe(false);
  });

  it('a header parameter name with U+2028 is refused as not an HTTP token', async () => {
    const text = replaceOnce(
      input.openapiText,
      '      operationId: users.get\n',
      '      operationId: users.get\n      parameters:\n        - name: "X-Evil\\u2028Name"\n          in: header\n          schema:\n            type: string\n',
    );
    const { error, report } = await refusal({ openapiText: text });
    expect(error.rule).toBe('parameter-name');
    expect(report).toMatch(/parameter-name: the header name "X-Evil\\u2028Name" is not an HTTP token/);
  });

  it('a path key that is not a URL path template is refused', async () => {
    const text = replaceOnce(
      input.openapiText,
      '\n  /{org_name}/{app_name}/users:\n',
      '\n  "/{org_name}/{app_name}/users/../admin */ x":\n',
    );
    const { error } = await refusal({ openapiText: text });
    expect(error.problems.map((p) => p.rule)).toContain('path-template');
  });

  it('a hook type that cannot name a type is refused in the callbacks spec', async () => {
    const text = replaceOnce(input.callbacksText!, 'const: message.before_send', 'const: "message.before send */"');
    const { error } = await refusal({ callbacksText: text });
    expect(error.problems[0]).toMatchObject({
      rule: 'unsafe-identifier',
      file: 'spec/callbacks.asyncapi.yaml',
      pointer: expect.stringMatching(/^\/components\/schemas\/HookType\/anyOf\/\d+\/const$/),
    });
  });

  it('an operation or helper may not take a member of the client or of its resource class', async () => {
    const helper = await refusal({
      openapiText: replaceOnce(input.openapiText, 'method: set_mute_all', 'method: constructor'),
    });
    expect(helper.error.problems[0]).toMatchObject({
      rule: 'name-collision',
      pointer: expect.stringMatching(/\/x-toggle$/),
    });
    const op = await refusal({
      openapiText: replaceOnce(input.openapiText, 'operationId: users.get\n', 'operationId: request.get\n'),
    });
    expect(op.error.problems[0]).toMatchObject({
      rule: 'name-collision',
      pointer: expect.stringMatching(/\/operationId$/),
    });
    // the list is the runtime's: every member of ImCore's prototype chain
    const { ImCore } = await import('../templates/runtime/core/im-core.js');
    const members = new Set<string>();
    for (let p = ImCore.prototype; p && p !== Object.prototype; p = Object.getPrototypeOf(p))
      for (const n of Object.getOwnPropertyNames(p)) members.add(n);
    expect([...members].sort()).toEqual([...CLIENT_MEMBERS].sort());
  });

  it('info.version that is not a semantic version is refused while it would be the package version', async () => {
    const text = replaceOnce(
      input.openapiText,
      '  version: 0.1.0\n',
      '  version: \'1.0.0", "optionalDependencies": { "x": "https://evil.example/x.tgz" }, "y": "\'\n',
    );
    const { packageVersion: _p, ...fresh } = input;
    const { error } = await refusal({ ...fresh, packageVersion: undefined, openapiText: text });
    expect(error.problems[0]).toMatchObject({ pointer: '/info/version', rule: 'package-version' });
    // with the maintainer's version in generated/package.json, the spec's version is only quoted data
    const { files } = await generate({ ...input, openapiText: text });
    expect(Object.keys(JSON.parse(files.get('package.json')!))).not.toContain('optionalDependencies');
  });
});

describe('schemas the validators could not compile', () => {
  it.each([
    ['an invalid pattern', 'type: string\n      pattern: "(["', 'schema-pattern'],
    ['a type that is not one', 'type: strng', 'schema'],
    ['a $ref into another component kind', '$ref: "#/components/parameters/OrgName"', 'schema-ref'],
  ])('%s is refused at its pointer', async (_name, schema, rule) => {
    const text = replaceOnce(input.openapiText, '\n    User:\n', `\n    Probe:\n      ${schema}\n    User:\n`);
    const { error, report } = await refusal({ openapiText: text });
    expect(error.problems.map((p) => p.rule)).toContain(rule);
    expect(report).toMatch(
      new RegExp(`^spec/openapi\\.yaml:\\d+:\\d+ {2}components\\.schemas\\.Probe[^\\n]*\\n {2}${rule}: `, 'm'),
    );
  });

  it('an unknown keyword is ignored with a warning at its pointer (JSON Schema says so), and never reaches the validators', async () => {
    const text = replaceOnce(
      input.openapiText,
      '\n    User:\n',
      '\n    Probe:\n      type: string\n      minLenght: 3\n    User:\n',
    );
    const { model, files } = await generate({ ...input, openapiText: text });
    expect(model.warnings).toContainEqual(
      expect.objectContaining({ rule: 'unknown-keyword', pointer: '/components/schemas/Probe/minLenght' }),
    );
    // only the copy of the spec the package ships holds it
    expect([...files].filter(([, t]) => t.includes('minLenght')).map(([path]) => path)).toEqual(['openapi.yaml']);
  });

  it('a discriminator of a component schema is judged at its own place (not when the types are printed): a fallback, refused under --strict', async () => {
    const probe =
      '\n    Probe:\n      oneOf:\n        - $ref: "#/components/schemas/User"\n      discriminator:\n        propertyName: kind\n        mapping:\n          other: "#/components/schemas/Error"\n    User:\n';
    const { model } = await generate({ ...input, openapiText: replaceOnce(input.openapiText, '\n    User:\n', probe) });
    expect(model.warnings).toContainEqual(
      expect.objectContaining({
        rule: 'discriminator',
        fallback: true,
        pointer: '/components/schemas/Probe/discriminator/mapping',
      }),
    );
    const { error, report } = await refusal({
      openapiText: replaceOnce(input.openapiText, '\n    User:\n', probe),
      strict: true,
    });
    expect(error.rule).toBe('discriminator');
    expect(report).toMatch(
      / {2}components\.schemas\.Probe\.discriminator\.mapping\n {2}discriminator: mapping "other" names Error, which is not one of the branches/,
    );
  });

  it('YAML .nan has no JSON form', async () => {
    const { error } = await refusal({
      openapiText: replaceOnce(input.openapiText, '\n    User:\n', '\n    Probe:\n      const: .nan\n    User:\n'),
    });
    expect(error.rule).toBe('not-json');
  });
});
