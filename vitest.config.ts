import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'templates/runtime/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Memory tests call gc() so that they measure what is retained, not garbage not yet collected.
    poolOptions: { forks: { execArgv: ['--expose-gc'] } },
    reporters: ['default'],
  },
});
