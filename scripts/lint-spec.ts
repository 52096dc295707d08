/**
 * `npm run lint:spec`: lints both specs with the tools our users run: Redocly for the REST API
 * (OpenAPI 3.1), the AsyncAPI parser for the callbacks. Exits non-zero on any error or
 * unexplained warning.
 *
 * The lint reads the two spec files and nothing else (issue 25): each is first read within the
 * generator's limits (size, YAML aliases, nesting; `--max-spec-bytes N` as for generate) and
 * refused, with file:line:col, when a `$ref` leaves it (another file, a URL), before any tool
 * starts. Redocly then runs with a plugin that guards its reads (scripts/lint/redocly-local-refs.mjs)
 * and the AsyncAPI parser with resolvers that follow no reference out of the document.
 *
 * `--openapi <file>` / `--callbacks <file>`: lint other copies (tests use temp files).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { localOnlyAsyncApiParser } from './lint/asyncapi-local-refs.js';
import { readSpecFile } from '../generator/read-inputs.js';
import { externalRefs, readSpecDocument } from '../generator/spec-document.js';
import { SpecError } from '../generator/spec-error.js';
import { formatSpecError } from '../generator/spec-location.js';

const root = fileURLToPath(new URL('..', import.meta.url));
let failed = false;

function argValue(flag: string): string | undefined {
  const i = process.argv.indexOf(flag);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const openapiFile = argValue('--openapi') ?? 'spec/openapi.yaml';
const callbacksFile = argValue('--callbacks') ?? 'spec/callbacks.asyncapi.yaml';
const maxSpecBytes = argValue('--max-spec-bytes') !== undefined ? Number(argValue('--max-spec-bytes')) : undefined;

/** The spec's text when it is within the limits and refers to nothing outside itself; else the refusal is printed. */
function readChecked(file: string): string | undefined {
  let text = '';
  try {
    text = readSpecFile(file.startsWith('/') ? file : `${root}${file}`, file, maxSpecBytes);
    const { doc } = readSpecDocument(text, file, maxSpecBytes !== undefined ? { maxBytes: maxSpecBytes } : {});
    const external = externalRefs(doc, file);
    if (external.length) throw SpecError.of(external);
    return text;
  } catch (error) {
    if (!(error instanceof SpecError)) throw error;
    console.log(
      formatSpecError(error, { [file]: text }, file).replace('(nothing was generated)', '(not linted further)'),
    );
    failed = true;
    return undefined;
  }
}

function lintOpenApi(): void {
  if (readChecked(openapiFile) === undefined) return;
  const bin = `${root}node_modules/.bin/redocly`;
  const result = spawnSync(bin, ['lint', openapiFile, '--config', `${root}redocly.yaml`, '--format', 'stylish'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  const out = `${result.stdout}\n${result.stderr}`;
  // Keep the findings; drop the boxed Node.js support notice Redocly prints on stderr (its lines start with a box character).
  const findings = out.split('\n').filter((l) => /\b(error|warning)\b/i.test(l) && !/^\s*[║╔╚]/.test(l));
  const warnings = out.match(/(\d+) warnings?/);
  console.log(`redocly lint ${openapiFile}: exit ${result.status}`);
  if (result.status !== 0 || (warnings && Number(warnings[1]) > 0)) {
    console.log(out);
    failed = true;
  } else if (findings.length) {
    console.log(findings.join('\n'));
  }
}

async function lintAsyncApi(): Promise<void> {
  const text = readChecked(callbacksFile);
  if (text === undefined) return;
  const refused: string[] = [];
  const { diagnostics } = await localOnlyAsyncApiParser(refused).parse(text);
  // Severity 0 is an error, 1 a warning. The allow-list names each deliberate exception and why.
  const allowed = new Map<string, string>([
    // e.g. ['asyncapi-latest-version', 'we pin 3.0.0 as the issue asks'],
  ]);
  const serious = diagnostics.filter((d) => d.severity <= 1 && !allowed.has(String(d.code)));
  console.log(`asyncapi parser ${callbacksFile}: ${serious.length + refused.length} errors/warnings`);
  for (const uri of refused)
    console.log(
      `  [error] external-ref: ${uri} is outside the document; the lint follows no such reference (copy what it points at into components)`,
    );
  for (const d of serious) {
    console.log(`  [${d.severity === 0 ? 'error' : 'warning'}] ${d.code} at ${d.path.join('.')}: ${d.message}`);
  }
  if (serious.length || refused.length) failed = true;
}

lintOpenApi();
await lintAsyncApi();
process.exit(failed ? 1 : 0);
