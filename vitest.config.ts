import { defineConfig } from 'vitest/config';

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

export default defineConfig({
  test: {
    // (include is per project: `extends` would add a project's include to a root one)
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Memory tests call gc() so that they measure what is retained, not garbage not yet collected.
    poolOptions: { forks: { execArgv: ['--expose-gc'] } },
    reporters: ['default'],
    projects: [
      { extends: true, test: { name: 'default', include: ['test/**/*.test.ts', 'templates/runtime/**/*.test.ts'] } },
      { extends: true, test: { name: 'fetch-transport', include: TRANSPORT_SUITE, env: { IM_TEST_TRANSPORT: 'fetch' } } },
    ],
  },
});
