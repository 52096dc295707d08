/**
 * `npm test`'s steps before vitest (`node scripts/test-pre-steps.mjs lint:spec lint:code "generate -- --check"`):
 * each argument is a package.json script (with `-- args` passed on), run side by side, since none
 * reads what another writes (issue 33: the three took ~9 s of CPU one after another, each waiting on
 * its own start-up). A step's output is printed whole when it ends, under its name and time, so
 * outputs never interleave. Exits 1 when any step failed, naming each, after all have ended (every
 * problem in one run).
 *
 * The script's command runs as npm runs it (`sh -c`, node_modules/.bin first on PATH) without an
 * `npm run` per step (~0.3 s of CPU each). IM_TEST_STEPS_FILE: where to write the steps' wall times
 * as JSON (the bench's test-suite section reads it: scripts/bench/test-suite.ts).
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const scripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts;

/** `"generate -- --check"` → the generate script's command with ` --check` after it. */
export function commandOf(step, table = scripts) {
  const [name, ...rest] = step.split(' -- ');
  const script = table[name.trim()];
  if (script === undefined) throw new Error(`test-pre-steps: no package.json script "${name.trim()}"`);
  return rest.length ? `${script} ${rest.join(' -- ')}` : script;
}

function run(step) {
  const command = commandOf(step);
  const started = performance.now();
  const child = spawn('sh', ['-c', command], {
    cwd: root,
    env: { ...process.env, PATH: `${join(root, 'node_modules/.bin')}${delimiter}${process.env.PATH ?? ''}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = [];
  child.stdout.on('data', (d) => out.push(d));
  child.stderr.on('data', (d) => out.push(d));
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      const wallMs = Math.round(performance.now() - started);
      process.stdout.write(
        `\n> ${step} (${command}): ${(wallMs / 1000).toFixed(1)} s${code === 0 ? '' : `, FAILED (${signal ?? `exit ${code}`})`}\n`,
      );
      process.stdout.write(Buffer.concat(out));
      resolve({ step, command, wallMs, exitCode: code });
    });
  });
}

async function main() {
  const steps = process.argv.slice(2);
  const started = performance.now();
  const results = await Promise.all(steps.map(run));
  const wallMs = Math.round(performance.now() - started);
  if (process.env.IM_TEST_STEPS_FILE)
    writeFileSync(process.env.IM_TEST_STEPS_FILE, `${JSON.stringify({ wallMs, steps: results }, null, 1)}\n`);
  const failed = results.filter((r) => r.exitCode !== 0).map((r) => r.step);
  if (failed.length) {
    process.stderr.write(`\nnpm test stopped before vitest: ${failed.join(', ')} failed (output above)\n`);
    process.exit(1);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
