/**
 * The CLI's cache on disk (node_modules/.cache/im-openapi/generator-cache.json): formatted files
 * and compiled validators from the last run. It belongs to one `fingerprint` of the generator
 * (its code and the lockfile): when that changes, the cache starts empty. Only the entries a run
 * used are written back, so it holds one generation's worth and never grows. A missing or
 * unreadable file is an empty cache: it only ever saves time.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readTree } from './read-inputs.js';
import type { GeneratorCache } from './format.js';

export class DiskGeneratorCache implements GeneratorCache {
  readonly #previous: Record<string, string>;
  readonly #used = new Map<string, string>();
  hits = 0;
  misses = 0;

  constructor(
    readonly path: string,
    readonly fingerprint: string,
  ) {
    let previous: Record<string, string> = {};
    try {
      const parsed = JSON.parse(readFileSync(path, 'utf8'));
      if (parsed?.fingerprint === fingerprint && parsed.entries && typeof parsed.entries === 'object')
        previous = parsed.entries;
    } catch {
      // no cache yet, or a damaged one: start empty
    }
    this.#previous = previous;
  }

  get(key: string): string | undefined {
    const value = Object.hasOwn(this.#previous, key) ? this.#previous[key] : undefined;
    if (typeof value === 'string') {
      this.hits++;
      this.#used.set(key, value);
      return value;
    }
    this.misses++;
    return undefined;
  }

  set(key: string, formatted: string): void {
    this.#used.set(key, formatted);
  }

  save(): void {
    mkdirSync(dirname(this.path), { recursive: true });
    const tmp = `${this.path}.${process.pid}.tmp`;
    const entries = Object.fromEntries([...this.#used].sort(([a], [b]) => a.localeCompare(b)));
    writeFileSync(tmp, JSON.stringify({ fingerprint: this.fingerprint, entries }));
    renameSync(tmp, this.path);
  }
}

/** Hash of the generator's own code and the lockfile: the cache is valid for exactly these. */
export function generatorFingerprint(root: string): string {
  const hash = createHash('sha256');
  for (const [path, text] of [...readTree(join(root, 'generator'))].sort(([a], [b]) => a.localeCompare(b)))
    hash.update(`${path}\0${text}\0`);
  hash.update(readFileSync(join(root, 'package-lock.json')));
  return hash.digest('hex');
}
