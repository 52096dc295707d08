/**
 * Formatting of the emitted files (Biome: format-biome.ts), with an optional cache keyed by the
 * unformatted text, so a run after a small spec edit formats only the files that changed. Every
 * file left to format goes to the formatter in one batch.
 */
import { createHash } from 'node:crypto';
import { biomeVersion, formatWithBiome, type BiomeMode, type Parser, type ToFormat } from './format-biome.js';

/** Text by key: formatted text by unformatted text, validator modules by their schemas. */
export interface GeneratorCache {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
}

/** Ajv's standalone validators are machine-written code, left as Ajv lays it out (see emit-validators.ts). */
const UNFORMATTED = /^src\/validators\//;

/**
 * Markdown is emitted as it should read and not re-formatted: a formatter pads every cell of a
 * table to its widest, so one longer cell would rewrite the whole table and bury the real change
 * in the review diff. CHANGELOG.md and scripts are the maintainer's or template text, kept as written.
 */
function parserFor(path: string): Parser | null {
  if (UNFORMATTED.test(path)) return null;
  return path.endsWith('.ts') ? 'typescript' : path.endsWith('.json') ? 'json' : null;
}

export interface FormatOptions {
  /** Paths copied from hand-written templates, which stay byte for byte as written. */
  asIs?: ReadonlySet<string>;
  /** Force Biome's native binary or its WebAssembly build (tests compare them); by default native where installed. */
  biome?: BiomeMode;
}

export async function formatFiles(
  files: ReadonlyMap<string, string>,
  cache?: GeneratorCache,
  options: FormatOptions = {},
): Promise<Map<string, string>> {
  const asIs = options.asIs ?? new Set<string>();
  const out = new Map<string, string>();
  const todo: (ToFormat & { key: string })[] = [];
  let version: string | undefined;
  for (const [path, text] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
    const parser = asIs.has(path) ? null : parserFor(path);
    if (!parser) {
      out.set(path, text);
      continue;
    }
    // native and WebAssembly print the same bytes (test/format.test.ts): the key names the version only
    version ??= biomeVersion();
    const key = 'format\0' + createHash('sha256').update(`${version}\0${parser}\0`).update(text).digest('hex');
    const hit = cache?.get(key);
    out.set(path, hit ?? '');
    if (hit === undefined) todo.push({ path, text, parser, key });
  }
  const formatted = await formatWithBiome(todo, options.biome);
  todo.forEach(({ path, key }, i) => {
    out.set(path, formatted[i]!);
    cache?.set(key, formatted[i]!);
  });
  return out;
}
