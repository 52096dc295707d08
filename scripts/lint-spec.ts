/**
 * Lints both specs with the tools our users run: Redocly for the REST API (OpenAPI 3.1),
 * the AsyncAPI parser for the callbacks. Exits non-zero on any error or unexplained warning.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Parser } from '@asyncapi/parser';

const root = fileURLToPath(new URL('..', import.meta.url));
let failed = false;

function lintOpenApi(): void {
  const bin = `${root}node_modules/.bin/redocly`;
  const result = spawnSync(bin, ['lint', 'spec/openapi.yaml', '--format', 'stylish'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  const out = `${result.stdout}\n${result.stderr}`;
  // Redocly prints a Node 20 end-of-support box on stderr; keep only its findings.
  // Keep the findings; drop the boxed Node.js support notice (its lines start with a box character).
  const findings = out.split('\n').filter((l) => /\b(error|warning)\b/i.test(l) && !/^\s*[║╔╚]/.test(l));
  const warnings = out.match(/(\d+) warnings?/);
  console.log(`redocly lint spec/openapi.yaml: exit ${result.status}`);
  if (result.status !== 0 || (warnings && Number(warnings[1]) > 0)) {
    console.log(out);
    failed = true;
  } else if (findings.length) {
    console.log(findings.join('\n'));
  }
}

async function lintAsyncApi(): Promise<void> {
  const text = readFileSync(`${root}spec/callbacks.asyncapi.yaml`, 'utf8');
  const { diagnostics } = await new Parser().parse(text);
  // Severity 0 is an error, 1 a warning. The allow-list names each deliberate exception and why.
  const allowed = new Map<string, string>([
    // e.g. ['asyncapi-latest-version', 'we pin 3.0.0 as the issue asks'],
  ]);
  const serious = diagnostics.filter((d) => d.severity <= 1 && !allowed.has(String(d.code)));
  console.log(`asyncapi parser spec/callbacks.asyncapi.yaml: ${serious.length} errors/warnings`);
  for (const d of serious) {
    console.log(`  [${d.severity === 0 ? 'error' : 'warning'}] ${d.code} at ${d.path.join('.')}: ${d.message}`);
  }
  if (serious.length) failed = true;
}

lintOpenApi();
await lintAsyncApi();
process.exit(failed ? 1 : 0);
