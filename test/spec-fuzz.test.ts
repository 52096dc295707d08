/**
 * The spec fuzz of issue 25, sampled (scripts/lib/spec-fuzz.ts says what it checks; the
 * exhaustive run is `npx tsx scripts/spec-fuzz.ts`). Every payload of the table once, each on a
 * field drawn with a fixed seed from both specs; and the payload that ran at import before
 * issue 25 on each field where it did, built and imported whatever its tokens say.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../generator/generate.js';
import { readGeneratorInput } from '../generator/read-inputs.js';
import {
  byField,
  describeFailure,
  fuzzTargets,
  fuzzVariants,
  memoryCache,
  PackageBench,
  PAYLOADS,
  seeded,
  type FuzzRun,
  type FuzzTarget,
  type Variant,
} from '../scripts/lib/spec-fuzz.js';
import { repoRoot } from './helpers/seed.js';

const input = readGeneratorInput(repoRoot);
const cache = memoryCache();
const bench = new PackageBench(repoRoot);
let run: FuzzRun;
let targets: FuzzTarget[];

beforeAll(async () => {
  const { files } = await generate(input, cache);
  run = { input, cache, baseline: files, bench };
  targets = [...fuzzTargets(input.openapiText, 'openapi'), ...fuzzTargets(input.callbacksText!, 'callbacks')];
}, 120_000);
afterAll(() => bench.dispose());

/** The first target whose pointer matches, of the given kind. */
function target(pattern: RegExp, kind: FuzzTarget['kind'] = 'value', file: FuzzTarget['file'] = 'openapi'): FuzzTarget {
  const found = targets.find((t) => t.file === file && t.kind === kind && pattern.test(t.pointer));
  expect(found, String(pattern)).toBeDefined();
  return found!;
}

describe('spec fuzz (sampled)', () => {
  it('the payload that ran at import before issue 25 stays data on every field where it ran', async () => {
    const payload = PAYLOADS.find((p) => p.name === 'comment-close')!;
    const where = [
      target(/\/x-toggle\/description$/),
      target(/\/x-pending-helper\/x-assumed$/),
      target(/\/x-pending-helper\/statuses\/0$/),
      target(/\/x-upload-helper\/x-assumed$/),
      target(/^\/paths\/[^/]+$/, 'name'),
      target(/^\/components\/schemas\/[^/]+\/description$/, 'value', 'callbacks'),
      target(/^\/components\/schemas\/[^/]+\/x-assumed$/, 'value', 'callbacks'),
      target(/^\/components\/schemas\/[^/]+\/properties\/[^/]+\/x-not-documented$/, 'value', 'callbacks'),
      target(/^\/components\/schemas\/[^/]+$/, 'name', 'callbacks'),
      target(/\/x-delivery\/.*\/x-assumed$/, 'value', 'callbacks'),
      target(/^\/components\/schemas\/[^/]+\/description$/),
    ];
    const variants: Variant[] = where.map((t) => ({ target: t, payload }));
    // the first one (x-toggle.description, the example) is built and imported whatever its tokens say
    const summary = await fuzzVariants({ ...run, alwaysBuild: (v) => v === variants[0] }, variants);
    expect(summary.failures.map(describeFailure)).toEqual([]);
    expect(summary.built).toBeGreaterThanOrEqual(1);
    // accepted (the text is data) or refused (a name that cannot be one): either way nothing ran
    expect(summary.accepted + summary.refused).toBe(variants.length);
  }, 180_000);

  it('every payload of the table, each on a field of either spec drawn with a fixed seed', async () => {
    const fields = [...byField(targets).values()];
    const random = seeded(25);
    const variants: Variant[] = PAYLOADS.map((payload) => ({
      target: fields[Math.floor(random() * fields.length)]![0]!,
      payload,
    }));
    const summary = await fuzzVariants(run, variants);
    expect(summary.failures.map(describeFailure)).toEqual([]);
    expect(summary.variants).toBe(PAYLOADS.length);
  }, 180_000);
});
