/**
 * The scale bench's synthetic spec (scripts/bench/synthetic-spec.ts): `factor` copies of every
 * namespace under new names, a valid spec that passes every check of the generator.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseSpec } from '../generator/load-spec.js';
import { specModel } from '../generator/generate.js';
import { syntheticSpec } from '../scripts/bench/synthetic-spec.js';
import { repoRoot } from './helpers/seed.js';

const specText = readFileSync(`${repoRoot}spec/openapi.yaml`, 'utf8');
const extensions = JSON.parse(readFileSync(`${repoRoot}spec/extensions.schema.json`, 'utf8'));

describe('synthetic spec for the scale bench', () => {
  it('factor 1 is the spec itself', () => {
    const { text, operations } = syntheticSpec(specText, 1);
    expect(operations).toBe(178);
    expect(parse(text)).toEqual(parse(specText));
  });

  it('factor 3: three times the operations, every name renamed, refs inside each copy, no warnings', () => {
    const { text, operations } = syntheticSpec(specText, 3);
    expect(operations).toBe(3 * 178);
    // parseSpec refuses unresolved refs, duplicate operationIds and bad extensions
    const doc = parseSpec(text, 'synthetic.yaml', undefined, extensions);
    const model = specModel(text, 'synthetic.yaml', extensions);
    expect(model.operations).toHaveLength(3 * 178);
    expect(model.warnings).toEqual([]);
    expect(new Set(model.operations.map((o) => o.id)).size).toBe(3 * 178);
    expect(model.operations.some((o) => o.id === 'users_r3.get')).toBe(true);
    const schemas = Object.keys(doc.components.schemas);
    expect(schemas.length).toBe(3 * Object.keys(parse(specText).components.schemas).length);
    // a copy's refs point into its own components, never into another copy's
    const copy = JSON.stringify(doc.paths['/{org_name}/{app_name}/r3/users/{username}']);
    const refs = copy.match(/#\/components\/schemas\/[A-Za-z0-9]+/g) ?? [];
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect(ref, ref).toMatch(/R3$/);
    expect(doc.tags.map((t: { name: string }) => t.name)).toContain('Users r3');
  });
});
