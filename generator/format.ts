/**
 * Prettier over the emitted files, with an optional cache keyed by the unformatted text, so a
 * run after a small spec edit formats only the files that changed (like `prettier --cache`).
 * Prettier is imported only when something has to be formatted.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Options } from 'prettier';

/** Text by key: formatted text by unformatted text, validator modules by their schemas. */
export interface GeneratorCache {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
}

const PRETTIER: Options = { printWidth: 100, singleQuote: true, trailingComma: 'all' };
const PRETTIER_VERSION: string = createRequire(import.meta.url)('prettier/package.json').version;

/** Ajv's standalone validators are machine-written code, left as Ajv lays it out (see emit-validators.ts). */
const UNFORMATTED = /^src\/validators\//;

/**
 * Markdown is emitted as it should read and not re-formatted: Prettier pads every cell of a table
 * to its widest, so one longer cell would rewrite the whole table and bury the real change in the
 * review diff. CHANGELOG.md and scripts are the maintainer's or template text, kept as written.
 */
function parserFor(path: string): 'typescript' | 'json' | null {
  if (UNFORMATTED.test(path)) return null;
  return path.endsWith('.ts') ? 'typescript' : path.endsWith('.json') ? 'json' : null;
}

/** `asIs`: paths copied from hand-written templates, which stay byte for byte as written. */
export async function formatFiles(files: ReadonlyMap<string, string>, cache?: GeneratorCache, asIs: ReadonlySet<string> = new Set()): Promise<Map<string, string>> {
  let prettier: typeof import('prettier') | undefined;
  const out = await Promise.all(
    [...files].sort(([a], [b]) => a.localeCompare(b)).map(async ([path, text]) => {
      const parser = asIs.has(path) ? null : parserFor(path);
      if (!parser) return [path, text] as const;
      const key = 'format\0' + createHash('sha256').update(`${PRETTIER_VERSION}\0${JSON.stringify(PRETTIER)}\0${parser}\0`).update(text).digest('hex');
      const hit = cache?.get(key);
      if (hit !== undefined) return [path, hit] as const;
      prettier ??= await import('prettier');
      const formatted = await prettier.format(text, { ...PRETTIER, parser });
      cache?.set(key, formatted);
      return [path, formatted] as const;
    }),
  );
  return new Map(out);
}
