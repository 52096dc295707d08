/**
 * `scripts/code-metrics.ts` counts what issue 32 asks to count: a fixture tree with one offender of
 * each kind (a 301-line file, an 81-line function, a long line, a circle, a generator reach into
 * the runtime's internals, a generator file with and one without a same-named test).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { repoRoot } from './helpers/seed.js';

const tree = mkdtempSync(join(tmpdir(), 'im-metrics-'));
afterAll(() => rmSync(tree, { recursive: true, force: true }));

function write(path: string, text: string): void {
  mkdirSync(dirname(join(tree, path)), { recursive: true });
  writeFileSync(join(tree, path), text);
}

it('counts each kind of offender once, and nothing else', () => {
  const body = Array.from({ length: 79 }, (_, i) => `  const v${i} = ${i};`).join('\n');
  write('generator/long.ts', `export function long(): void {\n${body}\n}\n`); // 81 lines
  write(
    'generator/short.ts',
    `import { a } from '../templates/runtime/internal/a.js';\nimport { c } from '../templates/runtime/contract/c.js';\nexport const s = a + c;\n`,
  );
  write('test/short.test.ts', `export {};\n`);
  write('templates/runtime/internal/a.ts', `import { b } from './b.js';\nexport const a = 1 + b;\n`);
  write(
    'templates/runtime/internal/b.ts',
    `import type { T } from './t.js';\nimport { a } from './a.js';\nexport const b: T = 2 + a;\n`,
  );
  write('templates/runtime/internal/t.ts', `import type { U } from './u.js';\nexport type T = number & U;\n`);
  write('templates/runtime/internal/u.ts', `import type { T } from './t.js';\nexport type U = number | T;\n`);
  write('templates/runtime/contract/c.ts', `export const c = 3; // ${'x'.repeat(120)}\n`);
  write('scripts/big.ts', Array.from({ length: 301 }, (_, i) => `export const x${i} = ${i};`).join('\n') + '\n');
  const run = spawnSync(
    process.execPath,
    [
      join(repoRoot, 'node_modules/tsx/dist/cli.mjs'),
      join(repoRoot, 'scripts/code-metrics.ts'),
      '--json',
      '--root',
      tree,
    ],
    { encoding: 'utf8', timeout: 60_000 },
  );
  expect(run.stderr).toBe('');
  const metrics = JSON.parse(run.stdout);
  expect(metrics).toMatchObject({
    filesOver300Lines: 1,
    functionsOver80Lines: 1,
    generatorFiles: 2,
    generatorFilesWithSameNamedTest: 1,
    importCircles: 1,
    importCirclesCountingTypeOnly: 2,
    generatorImportsOfRuntimeInternals: 1,
  });
  expect(metrics.linesOver120Chars['templates/runtime'].over120).toBe(1);
});
