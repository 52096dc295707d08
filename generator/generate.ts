/**
 * The generator: spec text and templates in, a map of package path → file text out.
 * Pure: it reads and writes no files (the CLI in scripts/generate.ts does).
 */
import { buildApiModel } from './build-model.js';
import { buildCallbackModel, type CallbackModel } from './build-callback-model.js';
import { emitCallbackTypes } from './emit/emit-callback-types.js';
import { emitDeliveryRules } from './emit/emit-delivery-rules.js';
import { emitEntryPoints } from './emit/emit-entry-points.js';
import { emitNamespaceTypes } from './emit/emit-namespace-types.js';
import { emitOperations } from './emit/emit-operations.js';
import { emitFuncsAndResources } from './emit/emit-funcs-and-resources.js';
import { emitPackageFiles, type PackageTemplates } from './emit/emit-package-files.js';
import { emitExamplesCopy, emitRuntimeCopy } from './emit/emit-runtime-copy.js';
import { emitSchemaTypes } from './emit/emit-schema-types.js';
import { emitWebhookTypes } from './emit/emit-webhook-types.js';
import { emitTestingEntry } from './emit/emit-testing-entry.js';
import { emitValidators, validatorImport } from './emit/emit-validators.js';
import { formatFiles, type GeneratorCache } from './format.js';
import type { BiomeMode } from './format-biome.js';
import { parseSpecWithWarnings, type ParseOptions } from './load-spec.js';
import { checkExtensions, type ExtensionsSchema } from './check-extensions.js';
import { SpecError, collectSpecErrors, type SpecProblem } from './spec-error.js';
import { checkSpecSize, externalRefs, readSpecDocument } from './spec-document.js';
import { normalizeDocument } from './normalize-schema.js';
import { renameComponents } from './transform/component-names.js';
import type { ApiModel } from './model.js';

export interface GeneratorInput {
  /** Text of the OpenAPI document. */
  openapiText: string;
  /** Its path relative to the repository, named in do-not-edit headers. */
  openapiSource: string;
  /** templates/runtime: relative path → text. */
  runtimeFiles: ReadonlyMap<string, string>;
  /** templates/package: file name → text. */
  packageTemplates: PackageTemplates;
  /** Text of the AsyncAPI callbacks document and its path (optional: without it no payload types). */
  callbacksText?: string;
  callbacksSource?: string;
  /** templates/examples, copied under examples/ with a header: package path → text. */
  staticFiles?: ReadonlyMap<string, string>;
  /** The package's own version and changelog, kept across generations (generated/package.json, generated/CHANGELOG.md). */
  packageVersion?: string;
  changelog?: string;
  /** spec/extensions.schema.json: when given, every x- name and value of both specs is checked against it. */
  extensionsSchema?: ExtensionsSchema;
  /** Force Biome's native binary or its WebAssembly build (tests compare them); by default native where installed. */
  biome?: BiomeMode;
  /** Refuse a spec file over this many bytes (default DEFAULT_MAX_SPEC_BYTES, 16 MiB; CLI `--max-spec-bytes`). */
  maxSpecBytes?: number;
  /** `--strict`: every fallback (a construct written in its loosest form, `GeneratorWarning.fallback`) is an error, all of them in one SpecError. */
  strict?: boolean;
}

export interface GeneratorOutput {
  model: ApiModel;
  files: Map<string, string>;
}

/**
 * Spec text → model, the one way every caller builds it (generate, the change report's base,
 * release): parsed and checked, 3.0 leftovers translated (or refused) so every emitter sees 3.1,
 * unknown formats as warnings on the model.
 */
export function specModel(
  text: string,
  source: string,
  extensions?: ExtensionsSchema,
  cache?: GeneratorCache,
  options: ParseOptions = {},
): ApiModel {
  const parsed = parseSpecWithWarnings(text, source, cache, extensions, options);
  const renamed = renameComponents(parsed.doc);
  const { doc, warnings } = normalizeDocument(renamed.doc);
  const model = buildApiModel(doc, source, parsed.unvalidated);
  model.warnings.push(...parsed.warnings, ...renamed.warnings, ...warnings);
  return model;
}

const PACKAGE_EXTRAS = ['openapi.yaml', '.npmrc'];

/**
 * The spec the package was generated from (shipped: the change report can compare with a
 * published version, `--base npm:<version>`) and an .npmrc that stops `npm install` in
 * generated/ from writing a lockfile (which is not the generator's and would make --check fail).
 */
function packageExtras(input: GeneratorInput): Map<string, string> {
  return new Map([
    [
      'openapi.yaml',
      `# Copied by im-openapi from ${input.openapiSource}: the spec this package was generated from. Do not edit.\n${input.openapiText}`,
    ],
    [
      '.npmrc',
      '# Written by im-openapi: generated/ is generated and committed, a lockfile here is not part of it. Do not edit.\npackage-lock=false\n',
    ],
  ]);
}

/**
 * The callbacks spec → its model: parsed once (in pieces, through the cache) within the same
 * limits as the OpenAPI spec, no reference out of it, extensions checked.
 */
function callbacksModel(
  input: GeneratorInput,
  cache: GeneratorCache | undefined,
  limits: { maxBytes?: number },
): CallbackModel {
  const file = input.callbacksSource ?? 'spec/callbacks.asyncapi.yaml';
  const { doc } = readSpecDocument(input.callbacksText!, file, { ...(cache ? { cache } : {}), ...limits });
  const problems = externalRefs(doc, file);
  if (!problems.length && input.extensionsSchema)
    problems.push(
      ...checkExtensions(doc, input.extensionsSchema, 'asyncapi', cache ? { cache } : {}).map((p) => ({ ...p, file })),
    );
  if (problems.length) throw SpecError.of(problems);
  return buildCallbackModel(input.callbacksText!, file, doc);
}

/** `cache`: formatted files and compiled validators by their inputs (the CLI keeps one on disk); optional. */
export async function generate(input: GeneratorInput, cache?: GeneratorCache): Promise<GeneratorOutput> {
  const limits = input.maxSpecBytes !== undefined ? { maxBytes: input.maxSpecBytes } : {};
  // both specs' sizes first, before either is parsed
  const tooLarge: SpecProblem[] = [];
  collectSpecErrors(tooLarge, () =>
    checkSpecSize(Buffer.byteLength(input.openapiText), input.openapiSource, input.maxSpecBytes),
  );
  if (input.callbacksText !== undefined)
    collectSpecErrors(tooLarge, () =>
      checkSpecSize(
        Buffer.byteLength(input.callbacksText!),
        input.callbacksSource ?? 'spec/callbacks.asyncapi.yaml',
        input.maxSpecBytes,
      ),
    );
  if (tooLarge.length) throw SpecError.of(tooLarge);
  const model = specModel(input.openapiText, input.openapiSource, input.extensionsSchema, cache, limits);
  const callbacks = input.callbacksText !== undefined ? callbacksModel(input, cache, limits) : undefined;
  // Copies of hand-written files (runtime, examples) are not re-formatted: they stay as written.
  const runtimeCopy = emitRuntimeCopy(input.runtimeFiles);
  const examples = emitExamplesCopy(input.staticFiles ?? new Map());
  const emitted = [
    emitSchemaTypes(model),
    emitWebhookTypes(model),
    emitOperations(model, validatorImport),
    emitNamespaceTypes(model),
    emitFuncsAndResources(model),
    emitEntryPoints(model, input.packageVersion ?? model.version),
    emitTestingEntry(model, input.packageVersion ?? model.version),
    emitValidators(model, cache),
    runtimeCopy,
    emitPackageFiles(model, input.packageTemplates, {
      ...(input.packageVersion ? { packageVersion: input.packageVersion } : {}),
      ...(input.changelog ? { changelog: input.changelog } : {}),
    }),
    callbacks ? emitCallbackTypes(callbacks) : new Map<string, string>(),
    callbacks ? emitDeliveryRules(callbacks) : new Map<string, string>(),
    examples,
    packageExtras(input),
  ];
  // after every emitter: the validators add their fallbacks while they compile
  if (input.strict) refuseFallbacks(model);
  const files = new Map<string, string>();
  for (const map of emitted) {
    for (const [path, text] of map) {
      if (files.has(path)) throw new Error(`two emitters wrote ${path}`);
      files.set(path, text);
    }
  }
  return {
    model,
    files: await formatFiles(files, cache, {
      asIs: new Set([...runtimeCopy.keys(), ...examples.keys(), ...PACKAGE_EXTRAS]),
      ...(input.biome ? { biome: input.biome } : {}),
    }),
  };
}

/** `--strict`: the fallbacks of every stage as one SpecError (each at its pointer, with its rule). */
export function refuseFallbacks(model: ApiModel): void {
  const fallbacks = model.warnings.filter((w) => w.fallback);
  if (!fallbacks.length) return;
  throw SpecError.of(
    fallbacks.map((w) => ({
      pointer: w.pointer,
      rule: w.rule ?? 'fallback',
      message: w.message,
      hint: 'write the construct in a form the generator types and validates (see README, "Real-world documents"), or generate without --strict to accept the fallback',
    })),
  );
}
