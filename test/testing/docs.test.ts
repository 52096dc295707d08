/**
 * The fake's documented choices and its entry: every assumption in FAKE_ASSUMPTIONS is a row of
 * the README's table (and no row is missing from the code), and the package's main entry does
 * not reach the fake (it is its own entry, `im-server-sdk/testing`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAKE_ASSUMPTIONS } from '../../templates/runtime/testing/assumptions.js';
import { repoRoot } from '../helpers/seed.js';
import { sectionText } from '../helpers/snippets.js';

describe('the fake in the package docs', () => {
  const readme = readFileSync(join(repoRoot, 'generated/README.md'), 'utf8');
  const section = sectionText(readme, 'Testing your code');

  it('the README has a "Testing your code" section with a vitest example', () => {
    expect(section).toMatch(/from 'vitest'/);
    expect(section).toMatch(/createFakeService/);
  });

  it('every assumption of the fake is a row of the README table, and the table has no other', () => {
    const tableStart = section.indexOf('| topic |');
    expect(tableStart).toBeGreaterThan(0);
    const tableRows = section
      .slice(tableStart)
      .split('\n')
      .slice(2)
      .filter((l) => l.startsWith('| '))
      .map((l) => l.split('|')[1]!.trim());
    expect(tableRows).toEqual(FAKE_ASSUMPTIONS.map((a) => a.topic));
  });

  it("the main entry's sources never import the fake", () => {
    const index = readFileSync(join(repoRoot, 'generated/src/index.ts'), 'utf8');
    const client = readFileSync(join(repoRoot, 'generated/src/client.ts'), 'utf8');
    expect(index + client).not.toMatch(/testing/);
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'generated/package.json'), 'utf8')) as {
      exports: Record<string, unknown>;
      bin: Record<string, string>;
      dependencies: object;
    };
    expect(pkg.exports['./testing']).toEqual({ types: './dist/esm/testing.d.ts', default: './dist/esm/testing.js' });
    expect(pkg.bin['im-fake']).toBe('dist/esm/bin/im-fake.js');
    expect(pkg.dependencies).toEqual({});
  });
});
