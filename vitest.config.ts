import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { testWorkers } from './test-support/test-workers.js';

/**
 * The behaviour suite of the HTTP attempt: run once per transport (issue 18). The first project
 * runs every test file on the default transport (node:http on Node); the second runs these
 * files again with IM_TEST_TRANSPORT=fetch, which their client factories turn into
 * `transport: 'fetch'`.
 */
const TRANSPORT_SUITE = [
  'test/reliability/fault-matrix.test.ts',
  'test/constructs/wire-behaviour.test.ts',
  'templates/runtime/core/client.robustness.test.ts',
  'templates/runtime/core/client.retry.test.ts',
  'templates/runtime/internal/transport/transport.test.ts',
];

/**
 * The callbacks suite again under the second ready signature scheme (issue 29): verify, the
 * handlers and frameworks, the CLI, the simulator and the inbox receivers, with the kit's default
 * scheme swapped for Standard Webhooks by test/helpers/signature-setup.ts (in this process) and
 * IM_CALLBACK_SIGNATURE / IM_TEST_SIGNATURE (in the CLI and fixture processes). Tests of the
 * default scheme's own wire format skip themselves there.
 */
const SIGNATURE_SUITE = [
  'templates/runtime/callbacks/*.test.ts',
  'templates/runtime/callbacks/simulator/simulate.test.ts',
  'templates/runtime/callbacks/simulator/settle.test.ts',
  'templates/runtime/callbacks/inbox/inbox.test.ts',
  'test/callbacks-frameworks.test.ts',
  'test/callbacks-inbox-simulated.test.ts',
];
/** No signature in them (URLs, ordering, header reading), or both schemes tested by name already (signature-option, signature-scheme). */
const SIGNATURE_SUITE_SKIP = [
  'templates/runtime/callbacks/url.test.ts',
  'templates/runtime/callbacks/ordering.test.ts',
  'templates/runtime/callbacks/headers.test.ts',
  'templates/runtime/callbacks/signature-scheme.test.ts',
  'templates/runtime/callbacks/signature-option.test.ts',
];

/**
 * Timeouts are hang detectors, not speed checks (speed lives in `npm run bench`). On a machine that
 * is already busy when the run starts (1-minute load average per core over 1) they stretch with the
 * load, up to 4×: a CPU-bound test (a whole generation, a TypeScript program) that takes 10 s quiet
 * took 40 s beside four spinners and three other jobs. IM_TEST_TIMEOUT_SCALE sets the factor.
 */
const TIMEOUT_SCALE =
  Number(process.env.IM_TEST_TIMEOUT_SCALE) || Math.min(4, Math.max(1, loadavg()[0]! / availableParallelism()));

export default defineConfig({
  test: {
    // (include is per project: `extends` would add a project's include to a root one)
    testTimeout: Math.round(30_000 * TIMEOUT_SCALE),
    hookTimeout: Math.round(60_000 * TIMEOUT_SCALE),
    // Global teardown (servers, redis) gets the hook's margin, not vitest's 10 s, on a loaded box.
    teardownTimeout: 60_000,
    pool: 'forks',
    // at least two (test-support/test-workers.ts says why); IM_TEST_MAX_WORKERS overrides it
    maxWorkers: testWorkers(),
    // Memory tests call gc() so that they measure what is retained, not garbage not yet collected.
    poolOptions: { forks: { execArgv: ['--expose-gc'] } },
    // The default output, then the slowest files of the run (test-support/slowest-files-reporter.ts).
    reporters: ['default', './test-support/slowest-files-reporter.ts'],
    projects: [
      { extends: true, test: { name: 'default', include: ['test/**/*.test.ts', 'templates/runtime/**/*.test.ts'] } },
      {
        extends: true,
        test: { name: 'fetch-transport', include: TRANSPORT_SUITE, env: { IM_TEST_TRANSPORT: 'fetch' } },
      },
      {
        extends: true,
        test: {
          name: 'signature-standard-webhooks',
          include: SIGNATURE_SUITE,
          exclude: SIGNATURE_SUITE_SKIP,
          setupFiles: ['test/helpers/signature-setup.ts'],
          env: {
            IM_TEST_SIGNATURE: 'standard-webhooks',
            IM_CALLBACK_SIGNATURE: fileURLToPath(new URL('./test/helpers/suite-signature.ts', import.meta.url)),
          },
        },
      },
    ],
  },
});
