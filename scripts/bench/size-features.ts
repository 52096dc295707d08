/**
 * The one-operation app's bytes by feature (issue 18, the ≤ 12 KB gzip row): the per-module bytes
 * of the size section (size.ts `oneOpInputs`, minified bytes each source module adds) summed by
 * the feature each module serves, so a miss says what it is made of. gzip is not additive over
 * modules, so a feature's gzip share is estimated as its minified share of the app's gzip
 * (labelled so in the report); the minified bytes are measured.
 */

export interface FeatureGroup {
  feature: string;
  /** Why the one-operation app carries it although it calls one GET operation. */
  why: string;
  modules: string[];
  bytes: number;
  /** Of `bytes`, those a call that succeeds first time loads (not the failure path, issue 33). */
  firstSuccessBytes: number;
  lazy: boolean;
}

/** First match wins; a module no rule names lands in "other". Paths as size.ts gives them (`src/...`). */
const FEATURES: { feature: string; why: string; test: RegExp }[] = [
  {
    feature: 'request validation (lazy)',
    why: "the operation's validator, its shared component checks and the issue wording, loaded on the first call",
    test: /^src\/(validators\/|internal\/(validation-issues|issue-text|ajv-runtime|ajv-formats)\.ts|contract\/(ajv-formats|path-rules)\.ts)/,
  },
  {
    feature: 'transports',
    why: 'the fetch transport (ImLeanCore sends with fetch; node:http and proxy support come with ImCore, by import)',
    test: /^src\/internal\/(transport\/|http-attempt\.ts|bytes\.ts)/,
  },
  {
    feature: '429 pause and fleet quota',
    why: 'the client-wide 429 pause (rateLimit, quotaStore and the fleet metrics come with ImCore, by import)',
    test: /^src\/(internal\/(quota-control|send-slots|exchange-pacing|quota-gate|gcra)\.ts|stores\/(quota-store|store-budget)\.ts)/,
  },
  {
    feature: 'errors and hints',
    why: 'one class per documented error code, the hints that name cause and fix, secret masking',
    test: /^src\/(core\/(errors|error-base|api-errors|rate-limit-errors|error-from-response)\.ts|internal\/(redact|secret-names)\.ts)/,
  },
  {
    feature: 'attempt loop',
    why: 'retries by class, per-attempt timeout and deadline, 401 re-exchange, 429 pause, lossless int64 JSON, dedupe keys',
    test: /^src\/internal\/(send-with-retries|before-attempt|after-attempt|attempt-types|retry|retry-decision|call-scope|lossless-json|dedupe-key)\.ts/,
  },
  {
    feature: 'client and options',
    why: 'ImLeanCore, checking every client and call option (and refusing those of left-out features), withOptions, the browser refusal',
    test: /^src\/(core\/(lean-core|client-session|api-promise)\.ts|internal\/(config|config-values|server-only|logger|core-features|request-checks|response-drift|send-call)\.ts|sdk-version\.ts)/,
  },
  {
    feature: 'hooks and telemetry',
    why: 'the per-call observer behind the request hooks and the diagnostics_channel events (issue 31); with no hook and no subscriber a call pays one check',
    test: /^src\/(internal\/observe|core\/hooks)\.ts/,
  },
  {
    feature: 'App Token',
    why: 'the token exchange, its cache and the token store contract (its keys: one escaping rule, no two apps share one)',
    test: /^src\/internal\/(token-manager|token-exchange|store-keys)\.ts/,
  },
  {
    feature: 'request building',
    why: 'path/query/body from params, near-miss names, the operation entry',
    test: /^src\/(internal\/(request-builder|near-miss|operation-names|operation-entry)\.ts|contract\/operation-entry\.ts|operations\.ts|funcs\/)/,
  },
  { feature: 'the app itself', why: 'its three lines', test: /^size-ours-one-op/ },
];

export function featureGroups(
  inputs: readonly { path: string; bytes: number; lazy: boolean; failure?: boolean }[],
): FeatureGroup[] {
  const groups = new Map<string, FeatureGroup>();
  for (const input of inputs) {
    const rule = FEATURES.find((f) => f.test.test(input.path));
    const feature = rule?.feature ?? 'other';
    const group = groups.get(feature) ?? {
      feature,
      why: rule?.why ?? 'modules no feature rule names (scripts/bench/size-features.ts)',
      modules: [],
      bytes: 0,
      firstSuccessBytes: 0,
      lazy: true,
    };
    group.modules.push(input.path.replace(/^src\//, ''));
    group.bytes += input.bytes;
    if (!input.failure) group.firstSuccessBytes += input.bytes;
    group.lazy &&= input.lazy;
    groups.set(feature, group);
  }
  return [...groups.values()].sort((a, b) => b.bytes - a.bytes);
}

/**
 * One sentence: how many of the largest features weigh (≈ gzip) as much as the miss. The miss is
 * of what a first-time success loads, so features count their first-success bytes (`gzip`: that
 * load's gzip); the failure path, loaded on a failed attempt only, is not part of it.
 */
export function missByFeature(groups: readonly FeatureGroup[], gzip: number, overBytes: number): string {
  const totalBytes = groups.reduce((n, g) => n + g.firstSuccessBytes, 0);
  const taken: FeatureGroup[] = [];
  let sum = 0;
  for (const g of [...groups].sort((a, b) => b.firstSuccessBytes - a.firstSuccessBytes)) {
    if (sum >= overBytes) break;
    taken.push(g);
    sum += (g.firstSuccessBytes / totalBytes) * gzip;
  }
  const kb = (b: number) => `${(b / 1024).toFixed(1)} KB`;
  const modules = groups.flatMap((g) => g.modules);
  const absent = CHOSEN_BY_IMPORT.filter((c) => !modules.some((m) => c.test.test(m))).map((c) => c.name);
  const present = CHOSEN_BY_IMPORT.filter((c) => modules.some((m) => c.test.test(m))).map((c) => c.name);
  const byImport = [
    absent.length ? `Chosen by import and absent from this app: ${absent.join(', ')}.` : '',
    present.length ? `Chosen by import but loaded here all the same: ${present.join(', ')}.` : '',
  ].filter(Boolean);
  return `The miss (${kb(overBytes)} gzip) is as large as the ${taken.length} largest feature(s) together (≈ ${kb(sum)}: ${taken.map((g) => g.feature).join(', ')}). ${byImport.join(' ')} The table's "why" column gives the rule each remaining feature serves.`;
}

/** Features an app opts into by what it imports (ImCore, stores): the one-operation app should load none of them. */
const CHOSEN_BY_IMPORT: { name: string; test: RegExp }[] = [
  { name: 'the node:http transport', test: /transport\/node-http\.ts$/ },
  { name: 'proxy support', test: /node-proxy\.ts$/ },
  { name: 'the fleet quota', test: /(quota-control|quota-store|redis-quota-store|rate-limit-options)\.ts$/ },
];
