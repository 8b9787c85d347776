import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // One graphql module for everyone: without it vitest loads graphql's ESM build for our code
    // and its CommonJS build for some dependencies, and graphql refuses to mix the two.
    alias: { graphql: 'graphql/index.js' },
  },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Servers bind free ports, so files can run in parallel; two workers fit the 2-core machines.
    maxWorkers: 2,
  },
});
