/**
 * The spec fuzz of issue 25: the real OpenAPI spec and the callbacks spec, with one string value
 * or one name (mapping key) at a time replaced by a hostile payload. For every variant, either
 * `generate` refuses with a SpecError whose every problem is located (file:line:col), has a rule
 * and a fix; or the package it writes builds, and importing every entry (`.`, `./funcs`,
 * `./callbacks`, `./callbacks/edge`) and running the bin with `--help` has no side effect (a
 * global sentinel stays unset, no file appears).
 *
 * Targets are grouped by field: the JSON pointer with names and list indices generalised
 * (`/paths/*\/get/summary`, `/components/schemas/*\/properties/*\/description`); a field is one
 * thing a spec author may write, wherever it stands. test/spec-fuzz.test.ts samples the
 * (field, payload) pairs; scripts/spec-fuzz.ts runs them all.
 *
 * Each variant is generated in memory (one cache across variants: only what the edit touches is
 * parsed, compiled and formatted again). The files it changes are compared with the baseline's
 * by their tokens (TypeScript's scanner, comments dropped): when only string contents, comment
 * text and identifiers differ, the payload stayed data. Variants whose code differs otherwise,
 * and any variant asked for, are built (esbuild, as the package build bundles) and imported in a
 * fresh node process (fuzz-package.ts).
 */
import { isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import { generate, type GeneratorInput } from '../../generator/generate.js';
import type { GeneratorCache } from '../../generator/format.js';
import { SpecError, pointerSegment } from '../../generator/spec-error.js';
import { formatSpecError, yamlLocator } from '../../generator/spec-location.js';
import { codeChanges, PackageBench, SENTINEL, SENTINEL_FILE } from './fuzz-package.js';

export { PackageBench, SENTINEL, SENTINEL_FILE };

const RUN = `globalThis.${SENTINEL} = 1`;
const WRITE = `process.getBuiltinModule("fs").writeFileSync("${SENTINEL_FILE}", "x")`;

/** The payload table (README and the issue's closing note list it). */
export const PAYLOADS: readonly { name: string; text: string }[] = [
  // ran at import before issue 25 (x-toggle.description, x-assumed notes, path keys…)
  { name: 'comment-close', text: `*/ ${RUN}; /*` },
  { name: 'comment-close-write', text: `*/ ${WRITE}; /*` },
  { name: 'line-break', text: `\n${RUN}; //` },
  { name: 'line-separators', text: `\u2028${RUN}; //\u2029${RUN}; //` },
  { name: 'double-quote', text: `"; ${RUN}; "` },
  { name: 'single-quote', text: `'; ${RUN}; '` },
  { name: 'template', text: '`; ' + RUN + '; `${' + RUN + '}' },
  { name: 'backslash-quote', text: `\\"; ${RUN}; //\\` },
  { name: 'type-close', text: `x; }; ${RUN}; type Y = { z: ` },
  { name: 'handlebars', text: '{{version}}}}{{{source}}}{{#each entryPoints}}' },
  { name: 'json-close', text: `", "scripts": { "postinstall": "node -e \\"${RUN}\\"" }, "x": "` },
  { name: 'script-tag', text: `</script><script>${RUN}</script><!--` },
  { name: 'jsdoc-tags', text: '@internal @deprecated\n@type {never} {@link x}' },
  { name: 'control-chars', text: '\u0000\u0007\u001b[31mred\u001b[0m\u007f\u0085\u009b' },
  { name: 'bidi', text: `\u202e${RUN}\u2066;\u2069` },
  { name: 'path-traversal', text: '../../../../../../etc/passwd' },
  { name: 'separators', text: 'a/../../b\\c' },
  { name: 'dot-dot', text: '..' },
  { name: 'proto', text: '__proto__' },
  { name: 'constructor', text: 'constructor' },
  { name: 'empty', text: '' },
  { name: 'lone-surrogate', text: 'a\ud800b' },
  { name: 'long-1k', text: 'a '.repeat(500) },
  // long runs of spaces, parentheses and @ make a quadratic regex over spec text show
  { name: 'long-100k', text: `${' '.repeat(30_000)}${'('.repeat(30_000)}${'@ '.repeat(20_000)}` },
];

export type SpecFile = 'openapi' | 'callbacks';
export const SPEC_FILES: Record<SpecFile, string> = {
  openapi: 'spec/openapi.yaml',
  callbacks: 'spec/callbacks.asyncapi.yaml',
};

export interface FuzzTarget {
  file: SpecFile;
  /** A string value, or a name (mapping key). */
  kind: 'value' | 'name';
  pointer: string;
  /** The field: the pointer with names and indices generalised. */
  field: string;
  /** Where the scalar stands in the text. */
  range: [number, number];
}

/** Mappings whose keys are names an author chooses (generalised to `*`); any other key is part of the field. */
const NAME_MAPS = new Set([
  'paths',
  'schemas',
  'parameters',
  'responses',
  'requestBodies',
  'headers',
  'securitySchemes',
  'examples',
  'links',
  'callbacks',
  'properties',
  'patternProperties',
  '$defs',
  'dependentSchemas',
  'content',
  'encoding',
  'mapping',
  'channels',
  'operations',
  'messages',
  'servers',
  'variables',
  'messageTraits',
  'operationTraits',
  'serverBindings',
  'channelBindings',
]);

/** Every string value and every mapping key of a spec text, with its field and its place in the text. */
export function fuzzTargets(text: string, file: SpecFile): FuzzTarget[] {
  const targets: FuzzTarget[] = [];
  const doc = parseDocument(text, { keepSourceTokens: false });
  const walk = (node: Node | null | undefined, pointer: string, field: string, parentKey: string | undefined): void => {
    if (isMap(node)) {
      const names = parentKey !== undefined && NAME_MAPS.has(parentKey);
      for (const pair of node.items) {
        const key = pair.key as Node;
        if (!isScalar(key) || !key.range) continue;
        const name = String(key.value);
        const here = `${pointer}/${pointerSegment(name)}`;
        const fieldHere = `${field}/${names ? '*' : pointerSegment(name)}`;
        targets.push({
          file,
          kind: 'name',
          pointer: here,
          field: `${fieldHere} (name)`,
          range: [key.range[0], key.range[1]],
        });
        walk(pair.value as Node, here, fieldHere, names ? undefined : name);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => walk(item as Node, `${pointer}/${i}`, `${field}/[]`, undefined));
    } else if (isScalar(node) && typeof node.value === 'string' && node.range) {
      targets.push({ file, kind: 'value', pointer, field, range: [node.range[0], node.range[1]] });
    }
  };
  walk(doc.contents as Node, '', '', undefined);
  return targets;
}

/** Targets by field, each field's targets in document order. */
export function byField(targets: readonly FuzzTarget[]): Map<string, FuzzTarget[]> {
  const fields = new Map<string, FuzzTarget[]>();
  for (const t of targets) {
    const key = `${t.file}:${t.field}`;
    fields.set(key, [...(fields.get(key) ?? []), t]);
  }
  return fields;
}

/** A payload as a YAML double-quoted scalar: JSON quoting, and every character outside printable ASCII as `\uXXXX`. */
export function yamlQuoted(payload: string): string {
  return JSON.stringify(payload).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The spec text with the target's scalar replaced by the payload (a block scalar keeps its line break). */
export function withPayload(text: string, target: FuzzTarget, payload: string): string {
  const [start, end] = target.range;
  const original = text.slice(start, end);
  const trailing = /\s*$/.exec(original)![0];
  return text.slice(0, start) + yamlQuoted(payload) + (trailing.includes('\n') ? trailing : '') + text.slice(end);
}

export interface Variant {
  target: FuzzTarget;
  payload: { name: string; text: string };
}

export type Outcome =
  | { kind: 'refused'; rules: string[]; violations: string[] }
  | { kind: 'accepted'; files: Map<string, string>; violations: string[] }
  | { kind: 'crashed'; violations: string[] };

/** A memory cache for the whole run: YAML pieces, validators and formatted files by their inputs. */
export { memoryCache } from './generate-to-dir.js';

/** Generates one variant in memory and judges a refusal; an accepted variant's files are returned for the package checks. */
export async function runVariant(input: GeneratorInput, variant: Variant, cache: GeneratorCache): Promise<Outcome> {
  const file = SPEC_FILES[variant.target.file];
  const text = variant.target.file === 'openapi' ? input.openapiText : input.callbacksText!;
  const edited = withPayload(text, variant.target, variant.payload.text);
  const variantInput =
    variant.target.file === 'openapi' ? { ...input, openapiText: edited } : { ...input, callbacksText: edited };
  try {
    const { files } = await generate(variantInput, cache);
    return { kind: 'accepted', files, violations: [] };
  } catch (error) {
    if (!(error instanceof SpecError))
      return {
        kind: 'crashed',
        violations: [
          `not a SpecError: ${String((error as Error)?.stack ?? error)
            .split('\n')
            .slice(0, 3)
            .join(' | ')}`,
        ],
      };
    return {
      kind: 'refused',
      rules: [...new Set(error.problems.map((p) => p.rule))],
      violations: refusalViolations(
        error,
        { [SPEC_FILES.openapi]: variantInput.openapiText, [SPEC_FILES.callbacks]: variantInput.callbacksText! },
        file,
      ),
    };
  }
}

/** What a refusal lacks: every problem needs a position in its file, a rule and a fix, and the whole a readable report. */
export function refusalViolations(error: SpecError, texts: Record<string, string>, _edited: string): string[] {
  const out: string[] = [];
  const locators = new Map<string, ReturnType<typeof yamlLocator>>();
  for (const p of error.problems) {
    const file = p.file ?? SPEC_FILES.openapi;
    if (!p.rule) out.push(`a problem without a rule: ${p.message.slice(0, 120)}`);
    if (!p.hint) out.push(`${p.rule}: no fix`);
    if (!(file in texts)) out.push(`${p.rule}: names no spec file (${file})`);
    else if (p.pointer && !p.position) {
      if (!locators.has(file)) locators.set(file, yamlLocator(texts[file]!));
      if (!locators.get(file)!(p.pointer)) out.push(`${p.rule}: ${p.pointer.slice(0, 120)} has no line in ${file}`);
    }
  }
  const report = formatSpecError(error, texts, SPEC_FILES.openapi);
  if (!/^spec\/[\w.]+\.yaml:\d+:\d+ {2}/m.test(report)) out.push('the report names no file:line:col');
  return out;
}

/** A seeded pseudo-random generator (mulberry32): the sample is the same on every run. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ── A run ───────────────────────────────────────────────────────────────────────────────────

export interface FuzzSummary {
  variants: number;
  refused: number;
  accepted: number;
  /** Accepted with every changed file the baseline's code with other data (tokens compared). */
  dataOnly: number;
  /** Accepted variants built and imported (code changed, or asked for). */
  built: number;
  byPayload: Map<string, { refused: number; accepted: number }>;
  byRule: Map<string, number>;
  failures: { variant: Variant; problems: string[] }[];
  /** Wall time in generate (refusals included) and in building and importing. */
  generateMs: number;
  buildMs: number;
}

export interface FuzzRun {
  input: GeneratorInput;
  cache: GeneratorCache;
  /** The files of the unedited specs. */
  baseline: ReadonlyMap<string, string>;
  bench: PackageBench;
  /** Build and import this accepted variant even when its code did not change. */
  alwaysBuild?: (variant: Variant) => boolean;
  onVariant?: (variant: Variant, outcome: Outcome['kind'], problems: string[]) => void;
}

export async function fuzzVariants(run: FuzzRun, variants: readonly Variant[]): Promise<FuzzSummary> {
  const summary: FuzzSummary = {
    variants: 0,
    refused: 0,
    accepted: 0,
    dataOnly: 0,
    built: 0,
    byPayload: new Map(),
    byRule: new Map(),
    failures: [],
    generateMs: 0,
    buildMs: 0,
  };
  for (const variant of variants) {
    summary.variants++;
    const started = performance.now();
    const outcome = await runVariant(run.input, variant, run.cache);
    summary.generateMs += performance.now() - started;
    const problems = [...outcome.violations];
    const tally = summary.byPayload.get(variant.payload.name) ?? { refused: 0, accepted: 0 };
    if (outcome.kind === 'refused') {
      summary.refused++;
      tally.refused++;
      for (const rule of outcome.rules) summary.byRule.set(rule, (summary.byRule.get(rule) ?? 0) + 1);
    } else if (outcome.kind === 'accepted') {
      summary.accepted++;
      tally.accepted++;
      const changes = codeChanges(run.baseline, outcome.files);
      if (!changes.length) summary.dataOnly++;
      if (changes.length || run.alwaysBuild?.(variant)) {
        summary.built++;
        const building = performance.now();
        problems.push(...(await run.bench.buildAndImport(outcome.files)));
        summary.buildMs += performance.now() - building;
      }
    }
    summary.byPayload.set(variant.payload.name, tally);
    if (problems.length) summary.failures.push({ variant, problems });
    run.onVariant?.(variant, outcome.kind, problems);
  }
  return summary;
}

/** One line per variant that failed: where, which payload, what went wrong. */
export function describeFailure(f: { variant: Variant; problems: string[] }): string {
  return `${SPEC_FILES[f.variant.target.file]} ${f.variant.target.pointer.slice(0, 160)} (${f.variant.target.kind}) ← ${f.variant.payload.name}: ${f.problems.join('; ').slice(0, 600)}`;
}
