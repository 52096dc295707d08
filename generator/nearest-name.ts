/** "Did you mean …?" for spec authors: the known name nearest to a misspelt one. */

/** Optimal string alignment distance (Levenshtein plus adjacent swaps), case-insensitive. */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const d: number[][] = Array.from({ length: s.length + 1 }, (_, i) => [i, ...Array<number>(t.length).fill(0)]);
  for (let j = 1; j <= t.length; j++) d[0]![j] = j;
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[s.length]![t.length]!;
}

/**
 * The candidate nearest to `name`, when it is near enough to be a slip: at most 2 edits (1 for
 * names of 5 characters or fewer), or the same letters once `-`/`_` and case are ignored.
 */
export function nearestName(name: string, candidates: Iterable<string>): string | undefined {
  const squash = (s: string) => s.toLowerCase().replace(/[-_]/g, '');
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    if (candidate === name) return undefined;
    const distance = squash(candidate) === squash(name) ? 0.5 : editDistance(name, candidate);
    if (distance < bestDistance || (distance === bestDistance && best !== undefined && candidate < best)) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const limit = name.length <= 5 ? 1 : 2;
  return bestDistance <= limit ? best : undefined;
}
