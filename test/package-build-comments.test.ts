/**
 * Issue 33: the package's JavaScript carries no doc comments (the hover docs come from its .d.ts
 * files; in the JavaScript they were 0.4 MB of the package), and the stripping never touches code:
 * a comment opener inside a string, template or regex stays, and so do `//` and `@__PURE__` comments.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { builtPackage } from '../test-support/built-package.js';
import { repoRoot } from './helpers/seed.js';

type Strip = (typescript: typeof ts, text: string) => string;
const { withoutDocComments } = (await import(join(repoRoot, 'generated/scripts/build.mjs'))) as {
  withoutDocComments: Strip;
};

function* files(dir: string, ext: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path, ext);
    else if (entry.name.endsWith(ext)) yield path;
  }
}

describe('withoutDocComments', () => {
  it('drops doc comments (with the lines they stood on) and nothing else', () => {
    const input = [
      '#!/usr/bin/env node',
      '// why: kept',
      'var A = class {',
      '  /**',
      '   * Add a user.',
      '   * @throws {ApiError} Any other error answer.',
      '   */',
      '  add(x) {',
      '    return x.replace(/\\/\\*\\*/g, "/** not a comment */") + `/** ${x} */`;',
      '  }',
      '};',
      'var b = /* @__PURE__ */ make(); /** trailing */',
      '/** @internal */ var c = 1;',
      '',
    ].join('\n');
    expect(withoutDocComments(ts, input)).toBe(
      [
        '#!/usr/bin/env node',
        '// why: kept',
        'var A = class {',
        '  add(x) {',
        '    return x.replace(/\\/\\*\\*/g, "/** not a comment */") + `/** ${x} */`;',
        '  }',
        '};',
        'var b = /* @__PURE__ */ make(); /** trailing */',
        ' var c = 1;',
        '',
      ].join('\n'),
    );
  });
});

describe('the built package', () => {
  it('has no doc comment in its JavaScript, and keeps them in its declarations', async () => {
    const dist = join(await builtPackage(), 'dist/esm');
    const withDocs: string[] = [];
    for (const file of files(dist, '.js')) {
      const text = readFileSync(file, 'utf8');
      if (withoutDocComments(ts, text) !== text) withDocs.push(file.slice(dist.length + 1));
    }
    expect(withDocs).toEqual([]);
    const users = readFileSync(join(dist, 'resources/users.d.ts'), 'utf8');
    expect(users).toMatch(/\/\*\*\n\s*\* Get a user\.[\s\S]*?@example[\s\S]*?@throws \{ValidationError\}/);
  }, 300_000);
});
