/**
 * The change report of `npm run generate` keeps the base spec's surface in the generator's cache
 * (scripts/lib/change-report.ts): a run after an edit compares with the kept surface instead of
 * building the unchanged base's model again, and says the same as a run without the cache.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { countingCache } from './helpers/counting-cache.js';
import { specModel } from '../generator/generate.js';
import { surfaceOf } from '../generator/diff/surface.js';
import { buildChangeReport, surfaceFromJson, surfaceJson } from '../scripts/lib/change-report.js';
import { repoRoot } from './helpers/seed.js';

const headText = readFileSync(`${repoRoot}test/fixtures/mini-openapi.yaml`, 'utf8');
const head = specModel(headText, 'spec/openapi.yaml');
/** The base: the head without its last path (so the head adds its operations). */
const baseDoc = parse(headText);
const lastPath = Object.keys(baseDoc.paths).at(-1)!;
delete baseDoc.paths[lastPath];
const base = { text: stringify(baseDoc), label: 'base' };

describe('the base surface through the cache', () => {
  it('a surface comes back from its JSON whole (maps, order, every field)', () => {
    const surface = surfaceOf(specModel(readFileSync(`${repoRoot}spec/openapi.yaml`, 'utf8'), 'spec/openapi.yaml'));
    expect(surfaceFromJson(surfaceJson(surface))).toStrictEqual(surface);
  });

  it('the second run reads the kept surface and reports the same changes as a run without cache', () => {
    const uncached = buildChangeReport(repoRoot, head, base);
    expect('changes' in uncached && uncached.changes.map((c) => c.kind)).toContain('operation-added');
    const { cache, hitsOf } = countingCache();
    const first = buildChangeReport(repoRoot, head, base, { cache });
    const second = buildChangeReport(repoRoot, head, base, { cache });
    expect(hitsOf('base-surface')).toBe(1);
    expect(first).toEqual(uncached);
    expect(second).toEqual(uncached);
  });

  it('an edited base is not read from the surface kept for another text', () => {
    const { cache } = countingCache();
    buildChangeReport(repoRoot, head, base, { cache });
    const same = buildChangeReport(repoRoot, head, { text: headText, label: 'head' }, { cache });
    expect('changes' in same && same.changes).toEqual([]);
  });

  it("a run with no edit keeps the head's surface, which the first edit then compares with", () => {
    const { cache, hitsOf } = countingCache();
    const same = buildChangeReport(repoRoot, head, { text: headText, label: 'HEAD' }, { cache, headText });
    expect('changes' in same && same.changes).toEqual([]);
    const edited = specModel(base.text, 'spec/openapi.yaml');
    const first = buildChangeReport(
      repoRoot,
      edited,
      { text: headText, label: 'HEAD' },
      { cache, headText: base.text },
    );
    expect(hitsOf('base-surface')).toBe(1);
    expect(first).toEqual(buildChangeReport(repoRoot, edited, { text: headText, label: 'HEAD' }));
    expect('changes' in first && first.changes.map((c) => c.kind)).toContain('operation-removed');
  });
});
