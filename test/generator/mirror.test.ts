/**
 * Generator tests mirror generator files by name (issue 32): every `generator/**\/x.ts` has an
 * `x.test.ts` somewhere under test/, or an entry in WITHOUT_OWN_TEST saying what covers it. A new
 * generator file therefore needs a test or a reason, and an entry goes stale (and fails) once its
 * file gains a same-named test or is gone.
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/seed.js';

const SNAPSHOTS = 'covered by the test/generator.test.ts snapshots of generated/';
const REGISTRY =
  'an extension module; test/generator/extensions/index.test.ts runs the registry (schema, README row, checks)';

/** Generator files without a same-named test, each with what covers it instead. */
const WITHOUT_OWN_TEST: Record<string, string> = {
  'generator/build-delivery-rules.ts': 'delivery rules from the AsyncAPI; test/delivery-rules.test.ts',
  'generator/spec-value.ts':
    'reading one delivery number by its path; test/delivery-rules.test.ts (the delivery-rule refusals)',
  'generator/build-helpers.ts': `helper methods; ${SNAPSHOTS} and test/helpers-behaviour.test.ts`,
  'generator/build-model.ts': 'the whole model; test/constructs/wire-model.test.ts, validators.test.ts and others',
  'generator/build-webhooks.ts': `webhook model; ${SNAPSHOTS} and test/callbacks-spec.test.ts`,
  'generator/build-wire.ts': 'wire model; test/constructs/wire-model.test.ts and real-world-wire.test.ts',
  'generator/wire-bodies.ts':
    'request bodies; test/constructs/wire-model.test.ts and test/transform/body-fields.test.ts',
  'generator/diff/compare-fields.ts': 'field comparison; test/change-corpus.test.ts (one edit per case)',
  'generator/diff/compare.ts': 'change classification; test/change-corpus.test.ts and change-report.test.ts',
  'generator/diff/package-program.ts': 'tsc program over a package; test/change-corpus.test.ts',
  'generator/diff/report.ts': 'change report text; test/change-report.test.ts and release.test.ts',
  'generator/diff/surface.ts': 'public surface of a model; test/change-corpus.test.ts',
  'generator/diff/type-check.ts': 'type-level compatibility; test/change-corpus.test.ts',
  'generator/diff/type-walk.ts': 'type walk under type-check; test/change-corpus.test.ts',
  'generator/extensions/callbacks-spec-data.ts': REGISTRY,
  'generator/extensions/x-answer.ts': REGISTRY,
  'generator/extensions/x-assumed.ts': REGISTRY,
  'generator/extensions/x-batch-split.ts': REGISTRY,
  'generator/extensions/x-best-effort.ts': REGISTRY,
  'generator/extensions/x-dedupe-key.ts': REGISTRY,
  'generator/extensions/x-delivery.ts': REGISTRY,
  'generator/extensions/x-limits.ts': REGISTRY,
  'generator/extensions/x-not-documented.ts': REGISTRY,
  'generator/extensions/x-ordering-version.ts': REGISTRY,
  'generator/extensions/x-pagination.ts': REGISTRY,
  'generator/extensions/x-params-required.ts': REGISTRY,
  'generator/extensions/x-pending-helper.ts': REGISTRY,
  'generator/extensions/x-retry-class.ts': REGISTRY,
  'generator/extensions/x-retry-class-when.ts': REGISTRY,
  'generator/extensions/x-toggle.ts': REGISTRY,
  'generator/extensions/x-truncated-refetch.ts': REGISTRY,
  'generator/extensions/x-ts-brand.ts': REGISTRY,
  'generator/extensions/x-upload-helper.ts': REGISTRY,
  'generator/extensions/extension.ts': 'the extension type; compiled by test/generator/extensions/index.test.ts',
  'generator/disk-cache.ts': 'formatter cache; test/generate-cli.test.ts (a second run writes nothing)',
  'generator/emit/emit-callback-entries.ts': `callbacks entry; ${SNAPSHOTS} and test/callbacks-frameworks.test.ts`,
  'generator/emit/emit-callback-types.ts': `callback event types; ${SNAPSHOTS} and test/types.test.ts`,
  'generator/emit/emit-delivery-rules.ts': `delivery-rule table; ${SNAPSHOTS} and test/delivery-rules.test.ts`,
  'generator/emit/emit-entry-points.ts': `package entry points; ${SNAPSHOTS} and test/api-entries.test.ts`,
  'generator/emit/emit-funcs-and-resources.ts': `functions and resource classes; ${SNAPSHOTS}`,
  'generator/emit/emit-namespace-types.ts': `per-resource type namespaces; ${SNAPSHOTS} and test/corpus.test.ts`,
  'generator/emit/emit-package-files.ts': `package.json, README; ${SNAPSHOTS} and test/package.test.ts`,
  'generator/emit/emit-runtime-copy.ts': 'runtime copy; test/generator.test.ts and runtime-readmes.test.ts',
  'generator/emit/emit-schema-types.ts': `component schema types; ${SNAPSHOTS} and test/types.test.ts`,
  'generator/emit/emit-testing-entry.ts': `testing entry; ${SNAPSHOTS} and test/testing/`,
  'generator/emit/ajv-standalone.ts':
    'Ajv set-up and standalone code; test/validators.test.ts and shared-validators.test.ts',
  'generator/emit/emit-validators.ts': 'validators; test/validators.test.ts and shared-validators.test.ts',
  'generator/emit/emit-webhook-types.ts': `webhook types; ${SNAPSHOTS} and test/callbacks-spec.test.ts`,
  'generator/emit/helper-code.ts': `helper method bodies; ${SNAPSHOTS} and test/helpers-behaviour.test.ts`,
  'generator/emit/mark-text.ts': `x-assumed marks in doc text; ${SNAPSHOTS} and test/hover-docs.test.ts`,
  'generator/emit/operation-doc-tags.ts': `JSDoc tags of operations; ${SNAPSHOTS} and test/hover-docs.test.ts`,
  'generator/emit/operation-docs.ts': `operation doc blocks; ${SNAPSHOTS} and test/hover-docs.test.ts`,
  'generator/emit/params-schema.ts': 'parameter schemas; test/validators.test.ts',
  'generator/emit/retry-conditions.ts': `retry-condition text; ${SNAPSHOTS}`,
  'generator/format-biome.ts': 'Biome formatting; test/format.test.ts and prettier-oracle.test.ts',
  'generator/generate.ts': 'the pipeline; test/generator.test.ts, generate-cli.test.ts and most spec-* tests',
  'generator/load-spec.ts': 'spec loading; test/spec-errors.test.ts, spec-limits.test.ts, synthetic-spec.test.ts',
  'generator/model.ts': 'types only; compiled by every test that builds a model',
  'generator/names.ts': 'name rules; test/corpus.test.ts and spec-limits.test.ts',
  'generator/nearest-name.ts': 'did-you-mean hints; test/spec-errors.test.ts',
  'generator/read-inputs.ts': 'reads spec files; test/generator.test.ts, spec-refs.test.ts and others',
  'generator/spec-document.ts': 'spec document access; test/spec-limits.test.ts',
  'generator/spec-error.ts': 'spec error type; test/spec-errors.test.ts and spec-text.test.ts',
  'generator/spec-location.ts': 'line/column of a pointer; test/spec-errors.test.ts and spec-refs.test.ts',
  'generator/transform/formats.ts': 'string formats; test/transform/inline-schema.test.ts',
  'generator/transform/jsdoc.ts': 'schema JSDoc; test/transform/schema-to-ts.test.ts',
  'generator/transform/refs.ts': '$ref resolution; test/corpus.test.ts and spec-refs.test.ts',
  'generator/transform/views.ts': 'read/write views of schemas; test/transform/schema-to-ts.test.ts',
};

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) return [];
    const path = join(dir, entry.name);
    return entry.isDirectory() ? walk(path) : [path];
  });
}

const baseName = (path: string) => path.split('/').pop()!;
const generatorFiles = walk(join(repoRoot, 'generator'))
  .filter((p) => p.endsWith('.ts') && !p.endsWith('.d.ts'))
  .map((p) => relative(repoRoot, p));
const testedNames = new Set(
  walk(join(repoRoot, 'test'))
    .filter((p) => p.endsWith('.test.ts'))
    .map((p) => baseName(p).replace(/\.test\.ts$/, '.ts')),
);

describe('generator tests mirror generator files', () => {
  it('every generator file has a same-named test or a reason in the allowlist', () => {
    const missing = generatorFiles.filter((f) => !testedNames.has(baseName(f)) && !(f in WITHOUT_OWN_TEST));
    expect(missing, 'add test/generator/<path>/<name>.test.ts, or an allowlist entry saying what covers it').toEqual(
      [],
    );
  });

  it('no allowlist entry is stale (its file is gone or has a same-named test now)', () => {
    const stale = Object.keys(WITHOUT_OWN_TEST).filter(
      (f) => !generatorFiles.includes(f) || testedNames.has(baseName(f)),
    );
    expect(stale).toEqual([]);
  });

  it('finds the generator files and their tests at all', () => {
    expect(generatorFiles.length).toBeGreaterThan(40);
    expect(testedNames.has('source-file.ts')).toBe(true);
  });
});
