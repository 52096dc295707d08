/**
 * `npm run generate`: spec/openapi.yaml → generated/ (the package im-server-sdk).
 * `npm run generate -- --check`: write nothing; exit 1 naming every file that differs.
 * Every run also prints a change report against the spec as last committed (`--base <ref|file>`
 * for another base) and writes it to dist-artifacts/change-report/; `--fail-on breaking` (or
 * `addition`) exits 1 when the report has such a change. `--spec <file>`: generate from another
 * copy of the spec (named spec/openapi.yaml in the output, as if it were the spec; the bench
 * uses it to time a one-line edit without touching the repository). `--max-spec-bytes N`: refuse
 * a spec file over N bytes (default 16 MiB, DEFAULT_MAX_SPEC_BYTES in generator/spec-document.ts).
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
import { buildChangeReport, writeChangeReport } from './lib/change-report.js';

// run from the bundle scripts/generate.mjs builds, the repository is given; else it is one up from here
const root = (globalThis as { imOpenapiRoot?: string }).imOpenapiRoot ?? fileURLToPath(new URL('..', import.meta.url));
const outDir = join(root, 'generated');
/** Folders of generated/ that the generator does not own. */
const NOT_OURS = new Set(['dist', 'node_modules']);

async function main(): Promise<number> {
  const check = process.argv.includes('--check');
  const started = performance.now();
  // --no-cache: format and compile everything afresh (what a fresh clone does on its first run).
  const cache = process.argv.includes('--no-cache') ? undefined : new DiskGeneratorCache(join(root, 'node_modules/.cache/im-openapi/generator-cache.json'), generatorFingerprint(root));
  const specFile = argValue('--spec');
  const maxSpecBytes = maxSpecBytesArg();
  const input = { ...readGeneratorInput(root, 'spec/openapi.yaml', maxSpecBytes), ...(specFile ? { openapiText: readSpecFile(specFile, 'spec/openapi.yaml', maxSpecBytes) } : {}) };
  const { model, files } = await generate(input, cache);
  cache?.save();
  if (model.warnings.length) {
    // parsed once for every warning's position, and only when there is one
    const locate = yamlLocator(input.openapiText);
    for (const w of model.warnings) console.warn(`warning: ${formatWarning(w, locate)}`);
  }
  const failOn = argValue('--fail-on');
  if (failOn !== undefined && failOn !== 'breaking' && failOn !== 'addition') throw new Error(`--fail-on takes breaking or addition, not ${failOn}`);
  const report = buildChangeReport(root, model, argValue('--base') ?? 'HEAD', input.openapiText, cache);
  let reportFails = false;
  if ('error' in report) console.log(`change report: skipped, ${report.error}`);
  else {
    console.log(`${reportSummary(report)}${report.changes.length ? `\n  full report: ${writeChangeReport(root, report)}/report.md` : ''}`);
    reportFails = (failOn === 'breaking' && report.counts.breaking > 0) || (failOn === 'addition' && report.counts.breaking + report.counts.addition > 0);
  }
  const cacheNote = cache ? `, cache ${cache.hits} hit(s) ${cache.misses} miss(es)` : ', no cache';
  const existing = readTree(outDir, NOT_OURS);
  const changed = [...files].filter(([path, text]) => existing.get(path) !== text).map(([path]) => path);
  const extra = [...existing.keys()].filter((path) => !files.has(path));
  // The simulator's delivery rules are also checked in beside the runtime, where it type-checks
  // and is tested: that copy is written (and checked) here too.
  const rulesTemplate = `${RUNTIME_SOURCE_DIR}/${DELIVERY_RULES_FILE}`;
  const rulesText = files.get(`src/${DELIVERY_RULES_FILE}`);
  const rulesStale = rulesText !== undefined && (!existsSync(join(root, rulesTemplate)) || readFileSync(join(root, rulesTemplate), 'utf8') !== rulesText);
  const ms = Math.round(performance.now() - started);
  if (check) {
    if (!changed.length && !extra.length && !rulesStale) {
      console.log(`generated/ is up to date (${files.size} files, ${model.operations.length} operations, ${ms} ms${cacheNote})`);
      return reportFails ? failed(failOn!) : 0;
    }
    console.error('generated/ is stale: run `npm run generate` and commit the result.');
    for (const path of changed) console.error(`  ${existing.has(path) ? 'differs' : 'missing'}: generated/${path}`);
    for (const path of extra) console.error(`  not generated (would be removed): generated/${path}`);
    if (rulesStale) console.error(`  differs: ${rulesTemplate}`);
    return 1;
  }
  for (const path of changed) {
    mkdirSync(dirname(join(outDir, path)), { recursive: true });
    writeFileSync(join(outDir, path), files.get(path)!);
  }
  for (const path of extra) rmSync(join(outDir, path));
  if (rulesStale) writeFileSync(join(root, rulesTemplate), rulesText!);
  console.log(`generated ${files.size} files (${changed.length} written, ${extra.length} removed) for ${model.operations.length} operations in ${ms} ms${cacheNote}`);
  return reportFails ? failed(failOn!) : 0;
}

/** `spec/openapi.yaml:LINE:COL readable.path: message`. */
function formatWarning(w: { pointer: string; message: string }, locate: ReturnType<typeof yamlLocator>): string {
  const where = locate(w.pointer);
  return `spec/openapi.yaml${where ? `:${where.line}:${where.col}` : ''}  ${readablePath(w.pointer)}: ${w.message}`;
}

/** `--max-spec-bytes N` (a whole number of bytes), or the default. */
function maxSpecBytesArg(): number | undefined {
  const raw = argValue('--max-spec-bytes');
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new Error(`--max-spec-bytes takes a whole number of bytes, not ${JSON.stringify(raw)}`);
  return Number(raw);
}

function argValue(flag: string): string | undefined {
  const i = process.argv.indexOf(flag);
  if (i >= 0) return process.argv[i + 1];
  const inline = process.argv.find((a) => a.startsWith(`${flag}=`));
  return inline?.slice(flag.length + 1);
}

function failed(failOn: string): number {
  console.error(`--fail-on ${failOn}: the change report has ${failOn === 'breaking' ? 'breaking' : 'breaking or added'} changes (see above).`);
  return 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    if (error instanceof SpecError) {
      // the texts only locate problems; a file refused for its size is not read back
      const located = new Set(error.problems.filter((p) => p.pointer && !p.position).map((p) => p.file ?? 'spec/openapi.yaml'));
      const read = (file: string, from = join(root, file)) => [file, located.has(file) ? readFileSync(from, 'utf8') : ''] as const;
      const spec = argValue('--spec');
      console.error(formatSpecError(error, Object.fromEntries([read('spec/openapi.yaml', spec), read('spec/callbacks.asyncapi.yaml')]), 'spec/openapi.yaml'));
    }
    else console.error(error);
    process.exit(1);
  },
);
