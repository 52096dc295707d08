/** Issue 33: the package size row's profile, each packed file in its part and the .d.ts doc comments apart. */
import { describe, expect, it } from 'vitest';
import { packageComposition } from '../scripts/bench/size-package.js';

describe('packageComposition', () => {
  it('sorts files into parts and splits each .d.ts into doc comments and declarations', () => {
    const dts = '/** Get a user. */\nexport declare function usersGet(): void;\n';
    const texts: Record<string, string> = { 'dist/esm/funcs/users.d.ts': dts };
    const parts = packageComposition(
      [
        { path: 'dist/esm/validators/usersGet.js', size: 100 },
        { path: 'dist/esm/index.js', size: 50 },
        { path: 'dist/esm/chunks/chunk-X.js', size: 25 },
        { path: 'dist/esm/funcs/users.d.ts', size: dts.length },
        { path: 'README.md', size: 7 },
        { path: 'api.md', size: 3 },
        { path: 'openapi.yaml', size: 11 },
        { path: 'package.json', size: 2 },
      ],
      (path) => texts[path] ?? '',
    );
    const bytes = Object.fromEntries(parts.map((p) => [p.part, p.bytes]));
    expect(bytes).toEqual({
      'validators (dist/esm/validators/*.js)': 100,
      'other JavaScript': 75,
      'hover docs in the declarations (.d.ts doc comments)': '/** Get a user. */'.length,
      'declarations (.d.ts without comments)': dts.length - '/** Get a user. */'.length,
      'README.md, api.md, CHANGELOG.md': 10,
      'openapi.yaml': 11,
      'package.json and any other file': 2,
    });
    // every byte in exactly one part
    expect(parts.reduce((n, p) => n + p.bytes, 0)).toBe(100 + 50 + 25 + dts.length + 7 + 3 + 11 + 2);
    expect(parts.every((p) => p.why.length > 0)).toBe(true);
  });
});
