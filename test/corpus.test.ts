/**
 * The real-world corpus (issue 26): seven public OpenAPI 3.1 documents (test/fixtures/corpus/,
 * README.md there says where each comes from) grafted into a copy of the mini spec, one
 * namespace each (test/corpus/graft.ts), generated in one run. Required: no crash and no
 * refusal, every operation present, the fallbacks counted and listed by construct, the package
 * and a strict consumer calling every operation type-check, and our types beside
 * openapi-typescript's per operation, every difference explained by a documented construct.
 * The tsc and openapi-typescript steps run as child processes, awaited (never a blocking spawn).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Project } from 'ts-morph';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { generate, type GeneratorOutput } from '../generator/generate.js';
import type { OperationModel } from '../generator/model.js';
import { RUNTIME_EXPORTS } from '../generator/names.js';
import { readGeneratorInput } from '../generator/read-inputs.js';
import { SpecError } from '../generator/spec-error.js';
import { yamlLocator } from '../generator/spec-location.js';
import { componentRefsOf } from '../generator/transform/refs.js';
import { memoryCache, writeGeneratedFiles } from '../scripts/lib/generate-to-dir.js';
import { CORPUS, graft } from './corpus/graft.js';
import { COMPARE_FILE, compareSource, CONSUMER_FILE, consumerSource, differencesOf } from './corpus/consumer.js';
import { repoRoot } from './helpers/seed.js';

const run = promisify(execFile);
const fixture = (file: string) =>
  parse(readFileSync(join(repoRoot, 'test/fixtures/corpus', file), 'utf8'), { maxAliasCount: -1 });
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];
const documents = CORPUS.map((c) => ({ namespace: c.namespace, doc: fixture(c.file) }));
const base = parse(readFileSync(join(repoRoot, 'test/fixtures/mini-openapi.yaml'), 'utf8'));
const text = stringify(graft(base, documents), { aliasDuplicateObjects: false, lineWidth: 0 });
const SOURCE = 'test/fixtures/corpus/grafted.yaml';

/**
 * One in-memory generator cache for both generations of the document (the plain one and --strict), as
 * the CLI's disk cache serves consecutive runs: the strict run compiles no validator again (issue 33).
 */
const cache = memoryCache();

let output: GeneratorOutput;
let generateMs = 0;
let dir: string;
let tscOutput = '';
let lineOf: Map<number, string>;
const corpusOps = () => output.model.operations.filter((o) => CORPUS.some((c) => o.namespace === c.namespace));

beforeAll(async () => {
  const started = performance.now();
  output = await generate({ ...readGeneratorInput(repoRoot), openapiText: text, openapiSource: SOURCE }, cache);
  generateMs = performance.now() - started;
  dir = mkdtempSync(join(tmpdir(), 'im-corpus-'));
  writeGeneratedFiles(dir, output.files);
  symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
  // openapi-typescript from a folder outside the repository (TOOLCHAIN.md: it reads redocly.yaml);
  // --default-non-nullable=false: a property with a default stays optional, as the spec says
  writeFileSync(join(dir, 'spec.yaml'), text);
  await run(
    process.execPath,
    [
      join(repoRoot, 'node_modules/openapi-typescript/bin/cli.js'),
      'spec.yaml',
      '-o',
      'src/ots.ts',
      '--default-non-nullable=false',
    ],
    { cwd: dir, maxBuffer: 64 << 20 },
  );
  writeFileSync(join(dir, CONSUMER_FILE), consumerSource(corpusOps()));
  const compare = compareSource(corpusOps());
  lineOf = compare.lineOf;
  writeFileSync(join(dir, COMPARE_FILE), compare.text);
  tscOutput = await run(
    process.execPath,
    [join(repoRoot, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', 'tsconfig.esm.json'],
    { cwd: dir, maxBuffer: 64 << 20 },
  ).then(
    () => '',
    (e: { stdout?: string; stderr?: string }) => `${e.stdout ?? ''}${e.stderr ?? ''}`,
  );
}, 600_000);
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the corpus generates', () => {
  it('every operation of every document, in one run, without a refusal or a crash', () => {
    for (const { namespace, doc } of documents) {
      const expected = Object.values<any>(doc.paths).reduce((n, item) => n + METHODS.filter((m) => item[m]).length, 0);
      expect([namespace, output.model.operations.filter((o) => o.namespace === namespace).length]).toEqual([
        namespace,
        expected,
      ]);
    }
    expect(corpusOps()).toHaveLength(606);
    console.log(`corpus: ${corpusOps().length} operations generated in ${Math.round(generateMs)} ms`);
  });

  it('the fallbacks are counted and listed by construct, each located in the grafted document', () => {
    const fallbacks = output.model.warnings.filter((w) => w.fallback);
    const byRule: Record<string, number> = {};
    for (const w of fallbacks) byRule[w.rule!] = (byRule[w.rule!] ?? 0) + 1;
    expect(byRule).toEqual({
      // two branches pin one value (OpenAI's InputMessage and OutputMessage both `type: message`), or a branch pins none
      discriminator: 5,
      // OpenAI lists required items twice
      'duplicate-required': 1,
      // Mistral's query parameters serialised as JSON (`content`)
      'parameter-content': 3,
      // OpenAI's responses and conversation operations inline over 10,000 schema nodes
      'validator-fallback': 9,
    });
    const locate = yamlLocator(text);
    for (const w of fallbacks) expect([w.pointer, locate(w.pointer)?.exact]).toEqual([w.pointer, true]);
  });

  it('--strict refuses with every fallback of every stage in one report', async () => {
    const error = await generate(
      {
        ...readGeneratorInput(repoRoot),
        openapiText: text,
        openapiSource: SOURCE,
        strict: true,
      },
      cache,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpecError);
    const rules = (error as SpecError).problems.map((p) => p.rule).sort();
    expect(rules).toEqual(
      output.model.warnings
        .filter((w) => w.fallback)
        .map((w) => w.rule)
        .sort(),
    );
  }, 300_000);

  it("the runtime names a schema may not take are the runtime's real exports", () => {
    const project = new Project({ skipAddingFilesFromTsConfig: true, compilerOptions: { allowJs: false } });
    const names = new Set<string>();
    for (const f of ['core/index.ts', 'helpers/index.ts'])
      for (const n of project
        .addSourceFileAtPath(join(repoRoot, 'templates/runtime', f))
        .getExportedDeclarations()
        .keys())
        names.add(n);
    expect([...RUNTIME_EXPORTS].sort()).toEqual([...names].sort());
  });
});

describe('the corpus package type-checks', () => {
  it('the package and a strict consumer calling every operation compile', () => {
    expect(differencesOf(tscOutput, lineOf).other).toEqual([]);
  });

  it("our types and openapi-typescript's are mutually assignable per operation, except where a documented construct differs", () => {
    const { differ } = differencesOf(tscOutput, lineOf);
    const byId = new Map(corpusOps().map((o) => [o.id, o]));
    const components = new Map(output.model.schemas.map((s) => [s.name, s.schema]));
    const explained: Record<string, number> = {};
    const unexplained: string[] = [];
    for (const side of differ) {
      const [id, which] = side.split(' ') as [string, 'params' | 'result'];
      const reasons = constructsOf(byId.get(id)!, which, components);
      if (!reasons.length) unexplained.push(side);
      for (const r of reasons) explained[r] = (explained[r] ?? 0) + 1;
    }
    console.log(
      `corpus vs openapi-typescript: ${differ.length} of ${corpusOps().length * 2} sides differ; by construct ${JSON.stringify(explained)}; unexplained ${unexplained.length}`,
    );
    expect(unexplained).toEqual(UNEXPLAINED);
  });
});

/**
 * Differences found and not yet traced to one of the documented constructs (each is a finding to
 * triage; the list may only shrink).
 */
const UNEXPLAINED: string[] = [];

/** The documented constructs where our types differ from openapi-typescript's on purpose, that one side of an operation reaches. */
function constructsOf(op: OperationModel, side: 'params' | 'result', components: ReadonlyMap<string, any>): string[] {
  const roots =
    side === 'params'
      ? [
          ...op.pathParams,
          ...op.queryParams,
          ...op.headerParams,
          ...op.cookieParams,
          ...op.bodies.flatMap((b) => b.fields),
        ].map((f) => f.schema)
      : [op.response, ...(op.statusResponses ?? []).map((r) => r.schema)];
  const reached = new Set<string>();
  const walk = (node: unknown, seen: Set<string>) => {
    if (Array.isArray(node)) return node.forEach((n) => walk(n, seen));
    if (!node || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node)) {
      if (k === 'format' && v === 'int64') reached.add('int64');
      if ((k === 'format' && v === 'binary') || k === 'contentMediaType') reached.add('binary');
      if ((k === 'readOnly' || k === 'writeOnly') && v === true) reached.add('readOnly/writeOnly');
      if (k === 'discriminator') reached.add('discriminator (literal pins)');
      if (k === 'additionalProperties' && v !== false && v !== true)
        reached.add('typed additionalProperties (index signature)');
      if ((k === 'oneOf' || k === 'anyOf') && Array.isArray(v) && v.at(-1)?.type === 'string' && !v.at(-1)?.enum)
        reached.add('open string enum');
      // `allOf: [X, { nullable: true }]` is X | null here (openapi-typescript drops the null)
      if (k === 'anyOf' && Array.isArray(v) && v.length === 2 && Array.isArray(v[0]?.allOf) && v[1]?.type === 'null')
        reached.add('allOf with a nullable part');
      // an object without properties is open here ({ [key: string]: unknown }), Record<string, never> there
      if (
        k === 'type' &&
        v === 'object' &&
        !(node as any).properties &&
        (node as any).additionalProperties === undefined
      )
        reached.add('open object without properties');
      if (k === '$ref')
        for (const name of componentRefsOf({ $ref: v }))
          if (!seen.has(name)) {
            seen.add(name);
            walk(components.get(name), seen);
          }
      walk(v, seen);
    }
  };
  walk(roots, new Set());
  if (side === 'result' && op.statusResponses) reached.add('multi-status');
  if (side === 'result' && op.responseKind !== 'json') reached.add('binary');
  if (side === 'params' && op.bodies.some((b) => b.kind === 'binary' || b.kind === 'multipart' || b.kind === 'text'))
    reached.add('binary');
  if (side === 'params' && op.bodies.length > 1) reached.add('several media types');
  if (side === 'result' && !op.successStatuses.length) reached.add('no 2xx response');
  if (op.unvalidated) reached.add('fallback');
  return [...reached].sort();
}
