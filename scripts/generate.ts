/**
 * `npm run generate`: spec/openapi.yaml → generated/ (the package im-server-sdk).
 * `npm run generate -- --check`: write nothing; exit 1 naming every file that differs.
 *
 * Every run also prints a change report and writes it to dist-artifacts/change-report/. Plain
 * runs compare with the spec as last committed (HEAD: your uncommitted edit) by the spec rules
 * alone, in milliseconds; `--types` adds the TypeScript check of both packages (about a second or
 * two). `--base <ref|tag|file|npm:version|merge-base>` names another base (resolve-base.ts); a
 * named base that does not resolve is exit 2.
 *
 * The gate: `--fail-on breaking` (or `addition`) always runs the type check, compares with
 * `--base`, else IM_GATE_BASE, else the merge base with main (so a committed edit is seen), and
 * exits 1 on a breaking change that release-notes/next.md does not name (by its SDK call), 2 when
 * the base does not resolve (a shallow clone, a missing tag): it never passes by skipping.
 *
 * `--spec <file>`: generate from another copy of the spec (named spec/openapi.yaml in the output,
 * as if it were the spec; the bench uses it to time a one-line edit without touching the repository).
 *
 * `--strict`: every fallback (a construct the generator writes in its loosest honest form, each a
 * located warning otherwise) is an error: all of them, from every stage, in one report.
 *
 * `--max-spec-bytes N`: refuse a spec file over N bytes (default 16 MiB, DEFAULT_MAX_SPEC_BYTES in
 * generator/spec-document.ts).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from '../generator/generate.js';
import { DiskGeneratorCache, generatorFingerprint } from '../generator/disk-cache.js';
import { readGeneratorInput, readSpecFile, readTree } from '../generator/read-inputs.js';
import { SpecError } from '../generator/spec-error.js';
import { DELIVERY_RULES_FILE, RUNTIME_SOURCE_DIR } from '../generator/emit/emit-runtime-copy.js';
import { formatSpecError, readablePath, yamlLocator } from '../generator/spec-location.js';
import { reportSummary } from '../generator/diff/report.js';
import type { ApiModel } from '../generator/model.js';
import { acknowledged, buildChangeReport, NOTES_FILE, writeChangeReport } from './lib/change-report.js';
import { gateBase, resolveBase } from './lib/resolve-base.js';

// run from the bundle scripts/generate.mjs builds, the repository is given; else it is one up from here
const root = (globalThis as { imOpenapiRoot?: string }).imOpenapiRoot ?? fileURLToPath(new URL('..', import.meta.url));
const outDir = join(root, 'generated');
/** Folders of generated/ that the generator does not own. */
const NOT_OURS = new Set(['dist', 'node_modules']);
/**
 * Files of generated/ it does not own either: the lockfile an `npm install` there writes (never
 * packed; the generated .npmrc stops npm writing it, this covers one written before).
 */
const NOT_OURS_FILES = new Set(['package-lock.json']);

async function main(): Promise<number> {
  const check = process.argv.includes('--check');
  const started = performance.now();
  // --no-cache: format and compile everything afresh (what a fresh clone does on its first run).
  const cache = process.argv.includes('--no-cache')
    ? undefined
    : new DiskGeneratorCache(
        join(root, 'node_modules/.cache/im-openapi/generator-cache.json'),
        generatorFingerprint(root),
      );
  const specFile = argValue('--spec');
  const maxSpecBytes = maxSpecBytesArg();
  const input = {
    ...readGeneratorInput(root, 'spec/openapi.yaml', maxSpecBytes),
    ...(specFile ? { openapiText: readSpecFile(specFile, 'spec/openapi.yaml', maxSpecBytes) } : {}),
    ...(process.argv.includes('--strict') ? { strict: true } : {}),
  };
  const { model, files } = await generate(input, cache);
  if (model.warnings.length) {
    // parsed once for every warning's position, and only when there is one
    const locate = yamlLocator(input.openapiText);
    for (const w of model.warnings) console.warn(`${w.fallback ? 'fallback' : 'warning'}: ${formatWarning(w, locate)}`);
  }
  const gate = runGate(model, input.openapiText, cache);
  // after the report: the base spec's parsed YAML is kept too
  cache?.save();
  const cacheNote = cache ? `, cache ${cache.hits} hit(s) ${cache.misses} miss(es)` : ', no cache';
  const existing = readTree(outDir, NOT_OURS);
  const changed = [...files].filter(([path, text]) => existing.get(path) !== text).map(([path]) => path);
  const extra = [...existing.keys()].filter((path) => !files.has(path) && !NOT_OURS_FILES.has(path));
  // The simulator's delivery rules are also checked in beside the runtime, where it type-checks
  // and is tested: that copy is written (and checked) here too.
  const rulesTemplate = `${RUNTIME_SOURCE_DIR}/${DELIVERY_RULES_FILE}`;
  const rulesText = files.get(`src/${DELIVERY_RULES_FILE}`);
  const rulesStale =
    rulesText !== undefined &&
    (!existsSync(join(root, rulesTemplate)) || readFileSync(join(root, rulesTemplate), 'utf8') !== rulesText);
  const ms = Math.round(performance.now() - started);
  if (check) {
    if (!changed.length && !extra.length && !rulesStale) {
      console.log(
        `generated/ is up to date (${files.size} files, ${model.operations.length} operations, ${ms} ms${cacheNote})`,
      );
      return gate.exitCode;
    }
    console.error('generated/ is stale: run `npm run generate` and commit the result.');
    for (const path of changed) console.error(`  ${existing.has(path) ? 'differs' : 'missing'}: generated/${path}`);
    for (const path of extra) console.error(`  not generated (would be removed): generated/${path}`);
    if (rulesStale) console.error(`  differs: ${rulesTemplate}`);
    // a base that cannot be compared with (2) says more than staleness (1)
    return Math.max(1, gate.exitCode);
  }
  for (const path of changed) {
    mkdirSync(dirname(join(outDir, path)), { recursive: true });
    writeFileSync(join(outDir, path), files.get(path)!);
  }
  for (const path of extra) rmSync(join(outDir, path));
  if (rulesStale) writeFileSync(join(root, rulesTemplate), rulesText!);
  console.log(
    `generated ${files.size} files (${changed.length} written, ${extra.length} removed) for ${model.operations.length} operations in ${ms} ms${cacheNote}`,
  );
  return gate.exitCode;
}

/** `spec/openapi.yaml:LINE:COL readable.path: message`. */
function formatWarning(
  w: { pointer: string; message: string; rule?: string },
  locate: ReturnType<typeof yamlLocator>,
): string {
  const where = locate(w.pointer);
  return `spec/openapi.yaml${where ? `:${where.line}:${where.col}` : ''}  ${readablePath(w.pointer)}: ${w.rule ? `${w.rule}: ` : ''}${w.message}`;
}

/** `--max-spec-bytes N` (a whole number of bytes), or the default. */
function maxSpecBytesArg(): number | undefined {
  const raw = argValue('--max-spec-bytes');
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < 1)
    throw new Error(`--max-spec-bytes takes a whole number of bytes, not ${JSON.stringify(raw)}`);
  return Number(raw);
}

function argValue(flag: string): string | undefined {
  const i = process.argv.indexOf(flag);
  if (i >= 0) return process.argv[i + 1];
  const inline = process.argv.find((a) => a.startsWith(`${flag}=`));
  return inline?.slice(flag.length + 1);
}

/**
 * The change report, and with --fail-on the gate: its base must resolve (an unresolvable base is
 * exit 2, never "skipped"), it runs the type check, and it fails on breaking changes (or, for
 * `addition`, on any addition too) that the next release's notes do not name.
 */
function runGate(model: ApiModel, specText: string, cache: DiskGeneratorCache | undefined): { exitCode: number } {
  const failOn = argValue('--fail-on');
  if (failOn !== undefined && failOn !== 'breaking' && failOn !== 'addition')
    throw new Error(`--fail-on takes breaking or addition, not ${failOn}`);
  const explicit = argValue('--base');
  const base = explicit ?? (failOn ? gateBase() : 'HEAD');
  const loud = failOn !== undefined || explicit !== undefined;
  const started = performance.now();
  const resolved = resolveBase(root, base);
  const report =
    'error' in resolved
      ? resolved
      : buildChangeReport(root, model, resolved, {
          headText: specText,
          types: !!failOn || process.argv.includes('--types'),
          ...(cache ? { cache } : {}),
        });
  if ('error' in report) {
    if (!loud) {
      console.log(`change report: skipped (${report.error})`);
      return { exitCode: 0 };
    }
    console.error(
      `change report: cannot compare with --base ${base}${explicit ? '' : failOn ? ` (the gate's default${process.env.IM_GATE_BASE ? ', from IM_GATE_BASE' : ''})` : ''}: ${report.error}`,
    );
    if (failOn)
      console.error(
        `--fail-on ${failOn}: FAILED, the gate has nothing to compare with. Name a base that exists: --base <tag|ref|file|npm:version> (or IM_GATE_BASE).`,
      );
    return { exitCode: 2 };
  }
  const ms = Math.round(performance.now() - started);
  if (!('error' in resolved) && resolved.note) console.log(`change report: note: ${resolved.note}`);
  console.log(
    `${reportSummary(report)}${report.changes.length || report.runtime?.length ? `\n  full report: ${writeChangeReport(root, report)}/report.md` : ''} (${ms} ms${report.typeCheck === 'done' ? ' with the type check' : ''})`,
  );
  if (!failOn) return { exitCode: 0 };
  const notesPath = join(root, NOTES_FILE);
  const { accepted, open } = acknowledged(report.changes, existsSync(notesPath) ? readFileSync(notesPath, 'utf8') : '');
  const additions = failOn === 'addition' ? report.changes.filter((c) => c.class === 'addition') : [];
  for (const c of accepted) console.log(`  accepted (named in ${NOTES_FILE}): ${c.message}`);
  if (!open.length && !additions.length) {
    console.log(
      `--fail-on ${failOn}: passed vs ${report.base}: ${accepted.length ? `${accepted.length} breaking change(s), each named in ${NOTES_FILE}` : `no ${failOn === 'breaking' ? 'breaking' : 'breaking or added'} change`}`,
    );
    return { exitCode: 0 };
  }
  console.error(
    `--fail-on ${failOn}: FAILED vs ${report.base}: ${open.length} breaking change(s)${additions.length ? ` and ${additions.length} addition(s)` : ''} (see above).${open.length ? ` If they are meant, name each SDK call (${[...new Set(open.map((c) => c.call ?? c.typeName))].slice(0, 5).join(', ')}) with a migration note in ${NOTES_FILE}; the release puts it in the CHANGELOG.` : ''}`,
  );
  return { exitCode: 1 };
}

main().then(
  (code) => process.exit(code),
  (error) => {
    if (error instanceof SpecError) {
      // the texts only locate problems; a file refused for its size is not read back
      const located = new Set(
        error.problems.filter((p) => p.pointer && !p.position).map((p) => p.file ?? 'spec/openapi.yaml'),
      );
      const read = (file: string, from = join(root, file)) =>
        [file, located.has(file) ? readFileSync(from, 'utf8') : ''] as const;
      const spec = argValue('--spec');
      console.error(
        formatSpecError(
          error,
          Object.fromEntries([read('spec/openapi.yaml', spec), read('spec/callbacks.asyncapi.yaml')]),
          'spec/openapi.yaml',
        ),
      );
    } else console.error(error);
    process.exit(1);
  },
);
