/**
 * Prettier as the oracle of the generator's formatter: every file the generator formats with Biome
 * (generator/format.ts: its own TypeScript and JSON, not the validators Ajv lays out nor the
 * hand-written copies) is formatted again by Prettier from the same unformatted emitter output, and
 * both must print the same bytes, so either formatter can be used on the package. Prettier's
 * options are read from Biome's (format-biome.ts), so a change to one that the other cannot follow
 * fails here. JSON is formatted with Prettier's `json` parser (its default for package.json,
 * `json-stringify`, always expands objects where Biome's `expand: auto` keeps short ones inline).
 */
import * as prettier from 'prettier';
import { describe, expect, it, vi } from 'vitest';
import { CONFIG } from '../generator/format-biome.js';
import { generate } from '../generator/generate.js';
import { readGeneratorInput } from '../generator/read-inputs.js';
import { repoRoot } from './helpers/seed.js';

const seen: { input?: ReadonlyMap<string, string>; asIs?: ReadonlySet<string> } = {};
vi.mock('../generator/format.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../generator/format.js')>();
  return {
    ...original,
    formatFiles: (
      files: ReadonlyMap<string, string>,
      ...rest: Parameters<typeof original.formatFiles> extends [unknown, ...infer R] ? R : never
    ) => {
      seen.input = new Map(files);
      seen.asIs = rest[1]?.asIs;
      return original.formatFiles(files, ...rest);
    },
  };
});

const { formatter, javascript } = CONFIG;
const PRETTIER: prettier.Options = {
  printWidth: formatter.lineWidth,
  tabWidth: formatter.indentWidth,
  useTabs: formatter.indentStyle !== 'space',
  endOfLine: formatter.lineEnding,
  singleQuote: javascript.formatter.quoteStyle === 'single',
  trailingComma: javascript.formatter.trailingCommas,
  semi: javascript.formatter.semicolons === 'always',
  arrowParens: javascript.formatter.arrowParentheses,
  bracketSpacing: javascript.formatter.bracketSpacing,
};

describe('Prettier agrees with the generator’s Biome pass', () => {
  it('byte for byte on every file Biome formats in the real package (spec/openapi.yaml + callbacks)', async () => {
    const output = await generate({ ...readGeneratorInput(repoRoot), biome: 'native' });
    expect(seen.input, 'generate() went through formatFiles').toBeDefined();
    const checked: string[] = [];
    const differ: string[] = [];
    for (const [path, raw] of seen.input!) {
      const parser =
        path.startsWith('src/validators/') || seen.asIs?.has(path)
          ? null
          : path.endsWith('.ts')
            ? 'typescript'
            : path.endsWith('.json')
              ? 'json'
              : null;
      if (!parser) continue;
      const byPrettier = await prettier.format(raw, { ...PRETTIER, parser });
      checked.push(path);
      if (byPrettier !== output.files.get(path)) differ.push(path);
    }
    // the set is the package's own code: entries, operation table, funcs/resources, types, callbacks, package.json
    expect(checked.length).toBeGreaterThan(40);
    expect(checked).toContain('package.json');
    expect(checked.some((p) => p.startsWith('src/funcs/'))).toBe(true);
    expect(differ).toEqual([]);
  }, 60_000);
});
