/** A Map as the generator cache, counting what a run read back (by key, for a prefix) and what it added. */
import type { GeneratorCache } from '../../generator/format.js';

export function countingCache(entries = new Map<string, string>()) {
  const counts = { hits: 0, misses: 0, sets: 0 };
  const hitKeys: string[] = [];
  const cache: GeneratorCache = {
    get: (key) => {
      const value = entries.get(key);
      if (value === undefined) counts.misses++;
      else {
        counts.hits++;
        hitKeys.push(key);
      }
      return value;
    },
    set: (key, value) => {
      counts.sets++;
      entries.set(key, value);
    },
  };
  /** How many reads found a value under a key starting with `prefix`. */
  const hitsOf = (prefix: string) => hitKeys.filter((key) => key.startsWith(prefix)).length;
  return { cache, counts, entries, hitsOf };
}
