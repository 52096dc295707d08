/**
 * The exhaustive spec fuzz in groups (scripts/lib/spec-fuzz-batch.ts, `spec-fuzz.ts --batch N`)
 * must judge every (field, payload) pair as the one-edit-at-a-time run does: the same edits
 * refused, and every edit whose package misbehaves found and named alone, whatever else shares
 * its group. The package check is replaced here by one that calls any package holding a marker
 * text a failure, so that the split is seen on real generate runs.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../generator/generate.js';
import { readGeneratorInput } from '../generator/read-inputs.js';
import { fuzzInGroups, groupTargets, withPayloads } from '../scripts/lib/spec-fuzz-batch.js';
import {
  fuzzTargets,
  memoryCache,
  type PackageBench,
  runVariant,
  withPayload,
  type FuzzTarget,
} from '../scripts/lib/spec-fuzz.js';
import { repoRoot } from './helpers/seed.js';

const input = readGeneratorInput(repoRoot);
const cache = memoryCache();
const MARKER = 'MarkerQx7';
/** A package "misbehaves" when the marker reaches any of its files. */
const markerBench = {
  buildAndImport: async (files: ReadonlyMap<string, string>) =>
    [...files.values()].some((t) => t.includes(MARKER)) ? ['the marker reached the package'] : [],
} as unknown as PackageBench;
let baseline: Map<string, string>;
let targets: FuzzTarget[];

beforeAll(async () => {
  baseline = (await generate(input, cache)).files;
  targets = fuzzTargets(input.openapiText, 'openapi');
}, 120_000);

function pick(pattern: RegExp, kind: FuzzTarget['kind']): FuzzTarget {
  const found = targets.find((t) => t.kind === kind && pattern.test(t.pointer));
  expect(found, String(pattern)).toBeDefined();
  return found!;
}

describe('spec fuzz in groups', () => {
  it('groups hold no overlapping edits and no two names of one mapping', () => {
    const groups = groupTargets(targets, 40);
    expect(groups.flat()).toHaveLength(targets.length);
    for (const g of groups) {
      expect(g.length).toBeLessThanOrEqual(40);
      const parents = g.filter((t) => t.kind === 'name').map((t) => t.pointer.slice(0, t.pointer.lastIndexOf('/')));
      expect(new Set(parents).size).toBe(parents.length);
      const sorted = [...g].sort((a, b) => a.range[0] - b.range[0]);
      sorted.slice(1).forEach((t, i) => expect(t.range[0]).toBeGreaterThanOrEqual(sorted[i]!.range[1]));
    }
  });

  it('several edits at once write each as one edit does', () => {
    const some = [
      pick(/\/x-toggle\/description$/, 'value'),
      pick(/^\/components\/schemas\/[^/]+\/description$/, 'value'),
    ];
    const once = withPayloads(input.openapiText, some, 'x */ y');
    // one by one, the later place first (an edit earlier in the text would move it)
    const [first, later] = [...some].sort((a, b) => a.range[0] - b.range[0]);
    const oneByOne = withPayload(withPayload(input.openapiText, later!, 'x */ y'), first!, 'x */ y');
    expect(once).not.toBe(input.openapiText);
    expect(once).toBe(oneByOne);
  });

  it('finds alone every edit whose package misbehaves, and refuses what one edit at a time refuses', async () => {
    const chosen = [
      pick(/^\/components\/schemas\/[^/]+\/description$/, 'value'),
      pick(/\/x-toggle\/description$/, 'value'),
      pick(/^\/paths\/[^/]+\/[a-z]+\/summary$/, 'value'),
      pick(/^\/paths\/[^/]+$/, 'name'), // not a URL path template: refused at its own place
      pick(/^\/components\/schemas\/[^/]+$/, 'name'), // a renamed schema: its $refs fail elsewhere
      pick(/^\/info\/title$/, 'value'),
    ];
    const payload = { name: 'marker', text: `${MARKER} text` };
    const single = { refused: new Set<string>(), failing: new Set<string>() };
    for (const t of chosen) {
      const outcome = await runVariant(input, { target: t, payload }, cache);
      if (outcome.kind === 'refused') single.refused.add(t.pointer);
      else if (outcome.kind === 'accepted' && (await markerBench.buildAndImport(outcome.files)).length)
        single.failing.add(t.pointer);
    }
    expect(single.failing.size).toBeGreaterThanOrEqual(2);
    expect(single.refused.size).toBeGreaterThanOrEqual(1);
    const summary = await fuzzInGroups(
      { input, cache, baseline, bench: markerBench, alwaysBuild: () => true },
      chosen,
      [payload],
      40,
    );
    expect(new Set(summary.failures.map((f) => f.variant.target.pointer))).toEqual(single.failing);
    expect(summary.refused).toBe(single.refused.size);
    expect(summary.variants).toBe(chosen.length);
    expect(summary.accepted + summary.refused + summary.failures.length).toBe(chosen.length);
  }, 240_000);
});
