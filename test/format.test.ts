/**
 * The formatter (generator/format-biome.ts): Biome's native binary and its WebAssembly build (the
 * fallback where no binary is installed) must print the same bytes for everything the generator
 * emits, so generated/ never depends on the machine; JSON keeps short objects on one line; and
 * code that does not parse is refused naming the package file.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { biomeBinary } from '../generator/format-biome.js';
import { formatFiles } from '../generator/format.js';
import { generate } from '../generator/generate.js';
import { readGeneratorInput } from '../generator/read-inputs.js';
import { repoRoot } from './helpers/seed.js';

const realInput = readGeneratorInput(repoRoot);

describe('formatting', () => {
  it('the native Biome binary is installed here (the fast path the bench measures)', () => {
    expect(biomeBinary()).toMatch(/@biomejs\/cli-[a-z0-9]+-[a-z0-9]+(-musl)?\/biome(\.exe)?$/);
  });

  it.each([
    ['spec/openapi.yaml', realInput.openapiText],
    ['test/fixtures/constructs-openapi.yaml', readFileSync(`${repoRoot}test/fixtures/constructs-openapi.yaml`, 'utf8')],
  ])(
    'native and WebAssembly Biome give byte-identical output for %s',
    async (source, openapiText) => {
      const input = { ...realInput, openapiText, openapiSource: source };
      const native = await generate({ ...input, biome: 'native' });
      const wasm = await generate({ ...input, biome: 'wasm' });
      expect([...native.files.keys()]).toEqual([...wasm.files.keys()]);
      let formatted = 0;
      for (const [path, text] of wasm.files) {
        expect(native.files.get(path), path).toBe(text);
        if (path.endsWith('.ts') && !path.startsWith('src/validators/')) formatted++;
      }
      expect(formatted).toBeGreaterThan(20);
    },
    60_000,
  );

  it('formats: 2-space indent, single quotes, trailing commas, 100 columns; short JSON objects stay on one line', async () => {
    const ts = `export const a = {b: "c", d: [1,2,3], eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee: 'ffffffffffffffffffffffffffffff', gggggggggggggggggggg: 'h'}\n`;
    const json =
      '{"engines":{"node":">=20"},"long":{"aaaaaaaaaaaaaaaaaaaa":"bbbbbbbbbbbbbbbbbbbbbbbb","cccccccccccccccccccccccc":"dddddddddddddddddddddddddddddd","e":"f"}}';
    for (const biome of ['native', 'wasm'] as const) {
      const out = await formatFiles(
        new Map([
          ['src/a.ts', ts],
          ['package.json', json],
        ]),
        undefined,
        { biome },
      );
      expect(out.get('src/a.ts'), biome).toBe(
        "export const a = {\n  b: 'c',\n  d: [1, 2, 3],\n  eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee: 'ffffffffffffffffffffffffffffff',\n  gggggggggggggggggggg: 'h',\n};\n",
      );
      expect(out.get('package.json'), biome).toBe(
        '{\n  "engines": { "node": ">=20" },\n  "long": {\n    "aaaaaaaaaaaaaaaaaaaa": "bbbbbbbbbbbbbbbbbbbbbbbb",\n    "cccccccccccccccccccccccc": "dddddddddddddddddddddddddddddd",\n    "e": "f"\n  }\n}\n',
      );
    }
  });

  it.each(['native', 'wasm'] as const)(
    '%s: code that does not parse is refused naming the formatter and the package file',
    async (biome) => {
      const error = (await formatFiles(
        new Map([
          ['src/ok.ts', 'export const a = 1;\n'],
          ['src/broken.ts', 'export const = ;\n'],
        ]),
        undefined,
        { biome },
      ).catch((e: Error) => e)) as Error;
      expect(error).toBeInstanceOf(Error);
      expect(error.message).toMatch(/^biome@[\d.]+ could not format the generated code \(a generator bug\): /);
      expect(error.message).toContain('src/broken.ts');
    },
  );
});
