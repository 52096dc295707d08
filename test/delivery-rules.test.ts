/**
 * The delivery simulator follows the callbacks spec: its numbers are emitted from `x-delivery` /
 * `x-limits` into delivery-rules.ts, the checked-in template is exactly that output, and an edit
 * of the spec changes what the generated simulator does.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildCallbackModel } from '../generator/build-callback-model.js';
import { DELIVERY_RULES_FILE, RUNTIME_SOURCE_DIR } from '../generator/emit/emit-runtime-copy.js';
import { generate } from '../generator/generate.js';
import { readGeneratorInput } from '../generator/read-inputs.js';
import { SpecError } from '../generator/spec-error.js';
import { repoRoot } from './helpers/seed.js';

const realInput = readGeneratorInput(repoRoot);
const callbacksText = realInput.callbacksText!;
const emittedPath = `src/${DELIVERY_RULES_FILE}`;

/** The callbacks spec with one line replaced (asserting the line is there exactly once). */
function editSpec(text: string, from: string, to: string): string {
  expect(text.split(from).length - 1, from).toBe(1);
  return text.replace(from, to);
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('delivery-rules.ts: the simulator reads the spec, not its own copies', () => {
  it('the checked-in template is exactly what the generator emits for spec/callbacks.asyncapi.yaml', async () => {
    const { files } = await generate(realInput);
    const template = realInput.runtimeFiles.get(DELIVERY_RULES_FILE);
    expect(
      template === files.get(emittedPath),
      `${RUNTIME_SOURCE_DIR}/${DELIVERY_RULES_FILE} differs from what the generator emits for spec/callbacks.asyncapi.yaml: run \`npm run generate\` (it rewrites the template) and commit it`,
    ).toBe(true);
    // … and the template is not also copied over it as a runtime file
    expect(files.get(emittedPath)).not.toMatch(/^\/\/ Copied by im-openapi/);
  }, 60_000);

  it('an edit of circuitBreaker.initialPauseSeconds and a retry wait reaches the generated simulator', async () => {
    let edited = editSpec(callbacksText, '        initialPauseSeconds: 30\n', '        initialPauseSeconds: 45\n');
    // the retry table under x-delivery (8 spaces in); x-limits repeats it for people
    edited = editSpec(edited, '        waitsSeconds: [10, 30, 60,', '        waitsSeconds: [12, 30, 60,');
    const { files } = await generate({ ...realInput, callbacksText: edited });
    const rules = files.get(emittedPath)!;
    expect(rules).toMatch(/export const BREAKER_FIRST_PAUSE_MS = 45000;/);
    expect(rules).toMatch(/export const RETRY_TABLE_MS: readonly number\[\] = \[\s*12000, 30000,/);
    expect(rules).toContain('Spec: `operations.receiveEvent.x-delivery.circuitBreaker.initialPauseSeconds`.');

    // The generated package's simulator, run as written: its breaker pauses 45 s, its first retry waits 12 s.
    const dir = mkdtempSync(join(tmpdir(), 'delivery-rules-'));
    dirs.push(dir);
    for (const [path, text] of files) {
      if (!path.startsWith('src/')) continue;
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const sim = await import(pathToFileURL(join(dir, 'src/callbacks/simulator/rules.ts')).href);
    const breaker = new sim.CircuitBreaker();
    for (let i = 0; i < sim.BREAKER_THRESHOLD; i++) breaker.record(false, false, 1000);
    expect(breaker.pauses).toEqual([45_000]);
    expect(breaker.openUntil).toBe(46_000);
    expect(sim.retryWaitMs(1, 1)).toEqual({ waitMs: 12_000 });
    // the text people read follows too
    const simulate = await import(pathToFileURL(join(dir, 'src/callbacks/simulator/cli.ts')).href);
    expect(simulate.SIMULATE_HELP).toContain('45 s pause');
    expect(simulate.SIMULATE_HELP).toContain('(12 s … 8 h');
  }, 120_000);

  it("keeps the spec's x-assumed notes on the values they cover", async () => {
    const { files } = await generate(realInput);
    const rules = files.get(emittedPath)!;
    const docOf = (name: string) =>
      rules.slice(
        rules.lastIndexOf('/**', rules.indexOf(`export const ${name}`)),
        rules.indexOf(`export const ${name}`),
      );
    expect(docOf('RETRY_JITTER')).toMatch(
      /ASSUMED \(x-assumed in the spec\): The seed says each wait is 'varied randomly by 20 percent'/,
    );
    expect(docOf('MAX_BATCH_BYTES')).toMatch(/ASSUMED .*binary units/);
    expect(docOf('BREAKER_FIRST_PAUSE_MS')).not.toMatch(/ASSUMED/);
  }, 60_000);

  it('a missing or mistyped delivery number is refused naming its path', () => {
    const cases: Array<[string, string, string]> = [
      [
        '        initialPauseSeconds: 30\n',
        '',
        '/operations/receiveEvent/x-delivery/circuitBreaker/initialPauseSeconds',
      ],
      ['        maxSends: 12\n', '        maxSends: twelve\n', '/operations/receiveEvent/x-delivery/retry/maxSends'],
    ];
    for (const [from, to, pointer] of cases) {
      const error = (() => {
        try {
          buildCallbackModel(editSpec(callbacksText, from, to));
        } catch (e) {
          return e;
        }
        return undefined;
      })() as SpecError;
      expect(error).toBeInstanceOf(SpecError);
      expect(error.rule).toBe('delivery-rule');
      expect(error.pointer).toBe(pointer);
      expect(error.message).toContain(pointer.slice(1).split('/').join('.'));
    }
  });
});
