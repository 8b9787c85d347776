import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // One graphql module for everyone: without it vitest loads graphql's ESM build for our code
    // and its CommonJS build for some dependencies, and graphql refuses to mix the two.
    alias: { graphql: 'graphql/index.js' },
  },
  test: {
    include: ['test/**/*.test.ts'],
    // The deployment test has a command of its own (npm run test:deploy, vitest.deploy.config.ts).
    exclude: ['test/deploy/**', 'node_modules/**'],
    // Tests wait for events, each within test/helpers/waiting.ts's deadline; these only end a test
    // or hook that hangs, with room for the slowest right ones on a machine whose cores are busy.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Servers bind free ports, so files can run in parallel; two workers fit the 2-core machines.
    maxWorkers: 2,
  },
});
