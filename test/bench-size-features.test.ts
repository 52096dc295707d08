import { describe, expect, it } from 'vitest';
import { featureGroups, missByFeature } from '../scripts/bench/size-features.js';

// Module paths as the size bench reports them for the one-operation app (scripts/bench/size.ts oneOpInputs).
const inputs = [
  { path: 'src/core/lean-core.ts', bytes: 7000, lazy: false },
  { path: 'src/internal/config.ts', bytes: 5000, lazy: false },
  { path: 'src/internal/transport/node-http.ts', bytes: 6000, lazy: false },
  { path: 'src/internal/transport/fetch.ts', bytes: 1000, lazy: false },
  { path: 'src/internal/quota-control.ts', bytes: 5000, lazy: false },
  { path: 'src/stores/quota-store.ts', bytes: 700, lazy: false },
  { path: 'src/core/errors.ts', bytes: 4000, lazy: false },
  { path: 'src/internal/send-with-retries.ts', bytes: 5000, lazy: false },
  { path: 'src/internal/after-attempt.ts', bytes: 2000, lazy: false },
  { path: 'src/internal/token-manager.ts', bytes: 3000, lazy: false },
  { path: 'src/internal/request-builder.ts', bytes: 3000, lazy: false },
  { path: 'src/internal/validation-issues.ts', bytes: 5000, lazy: true },
  { path: 'src/validators/usersGet.ts', bytes: 2000, lazy: true },
  { path: 'src/internal/ajv-formats.ts', bytes: 2000, lazy: true },
  { path: 'size-ours-one-op-sources.mjs', bytes: 100, lazy: false },
  { path: 'src/internal/something-new.ts', bytes: 50, lazy: false },
];

describe('size bench: the one-operation app by feature', () => {
  const groups = featureGroups(inputs);

  it('sums every module into one feature, largest first, keeping every byte', () => {
    expect(groups.reduce((n, g) => n + g.bytes, 0)).toBe(inputs.reduce((n, i) => n + i.bytes, 0));
    expect(groups.flatMap((g) => g.modules).sort()).toEqual(inputs.map((i) => i.path.replace(/^src\//, '')).sort());
    expect(groups.map((g) => g.bytes)).toEqual([...groups.map((g) => g.bytes)].sort((a, b) => b - a));
    const of = (m: string) => groups.find((g) => g.modules.includes(m))!.feature;
    expect(of('internal/transport/fetch.ts')).toBe('transports');
    expect(of('internal/after-attempt.ts')).toBe('attempt loop');
    expect(of('stores/quota-store.ts')).toBe('429 pause and fleet quota');
    expect(of('internal/ajv-formats.ts')).toBe('request validation (lazy)');
    expect(of('size-ours-one-op-sources.mjs')).toBe('the app itself');
    // a module no rule names is shown, not dropped
    expect(of('internal/something-new.ts')).toBe('other');
  });

  it('modules split out of a file keep the feature of the file they came from (issue 32)', () => {
    const split = [
      { path: 'src/internal/config.ts', bytes: 10, lazy: false },
      { path: 'src/internal/config-values.ts', bytes: 10, lazy: false },
      { path: 'src/internal/validation-issues.ts', bytes: 10, lazy: true },
      { path: 'src/internal/issue-text.ts', bytes: 10, lazy: true },
      { path: 'src/internal/quota-control.ts', bytes: 10, lazy: false },
      { path: 'src/internal/send-slots.ts', bytes: 10, lazy: false },
      { path: 'src/internal/exchange-pacing.ts', bytes: 10, lazy: false },
    ];
    const featureOf = new Map(featureGroups(split).flatMap((g) => g.modules.map((m) => [m, g.feature])));
    expect(featureOf.get('internal/config-values.ts')).toBe('client and options');
    expect(featureOf.get('internal/config-values.ts')).toBe(featureOf.get('internal/config.ts'));
    expect(featureOf.get('internal/issue-text.ts')).toBe('request validation (lazy)');
    expect(featureOf.get('internal/issue-text.ts')).toBe(featureOf.get('internal/validation-issues.ts'));
    for (const m of ['internal/send-slots.ts', 'internal/exchange-pacing.ts'])
      expect(featureOf.get(m), m).toBe('429 pause and fleet quota');
  });

  it('a feature is lazy only when all its modules are', () => {
    expect(groups.find((g) => g.feature === 'request validation (lazy)')!.lazy).toBe(true);
    expect(groups.find((g) => g.feature === 'transports')!.lazy).toBe(false);
  });

  it('names the fewest largest features whose estimated gzip covers the miss', () => {
    const total = inputs.reduce((n, i) => n + i.bytes, 0);
    // gzip = total / 4: the largest feature (client and options, 12,000 bytes) is ≈ 3,000 gzip
    expect(missByFeature(groups, total / 4, 2000)).toMatch(
      /^The miss \(2\.0 KB gzip\) is as large as the 1 largest feature\(s\) together \(≈ 2\.9 KB: client and options\)/,
    );
    expect(missByFeature(groups, total / 4, 5000)).toMatch(
      /the 2 largest feature\(s\) together \(≈ 5\.1 KB: client and options, request validation \(lazy\)\)/,
    );
  });

  it('says which features chosen by import the app left out, and which it loads anyway, from its own modules', () => {
    const lean = featureGroups([{ path: 'src/core/lean-core.ts', bytes: 4000, lazy: false, failure: false }]);
    expect(missByFeature(lean, 1000, 500)).toContain(
      'Chosen by import and absent from this app: the node:http transport, proxy support, the fleet quota.',
    );
    const full = featureGroups([
      { path: 'src/core/lean-core.ts', bytes: 4000, lazy: false, failure: false },
      { path: 'src/internal/transport/node-http.ts', bytes: 3000, lazy: false, failure: false },
    ]);
    const text = missByFeature(full, 1500, 500);
    expect(text).toContain('Chosen by import but loaded here all the same: the node:http transport.');
    expect(text).toContain('absent from this app: proxy support, the fleet quota.');
  });

  it('issue 33: counts what a first-time success loads, not the failure path', () => {
    const split = [
      { path: 'src/core/lean-core.ts', bytes: 4000, lazy: false, failure: false },
      { path: 'src/core/error-from-response.ts', bytes: 6000, lazy: true, failure: true },
      { path: 'src/core/error-base.ts', bytes: 1000, lazy: false, failure: false },
    ];
    const g = featureGroups(split);
    const errors = g.find((x) => x.feature === 'errors and hints')!;
    expect(errors.bytes).toBe(7000);
    expect(errors.firstSuccessBytes).toBe(1000);
    // 5,000 first-success bytes at 2,500 gzip: client and options (4,000) is ≈ 2,000, errors ≈ 500
    expect(missByFeature(g, 2500, 1500)).toMatch(
      /the 1 largest feature\(s\) together \(≈ 2\.0 KB: client and options\)/,
    );
  });
});
