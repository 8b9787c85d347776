import { defineConfig } from 'vitest/config';

/**
 * Files that need modules of their own: vi.mock replaces a module for the importers loaded after
 * it, so a file that mocks one runs in a fresh module graph.
 */
const ISOLATED = ['test/gateway/persisted/compiled.test.ts'];
// The deployment test has a command of its own (npm run test:deploy, vitest.deploy.config.ts).
const EXCLUDED = ['test/deploy/**', 'node_modules/**'];

export default defineConfig({
  resolve: {
    // One graphql module for everyone: without it vitest loads graphql's ESM build for our code
    // and its CommonJS build for some dependencies, and graphql refuses to mix the two.
    alias: { graphql: 'graphql/index.js' },
  },
  test: {
    // The run's own redis-server on a free port (its URL by inject('redisUrl')), stopped at the end.
    globalSetup: ['test/helpers/redis-global-setup.ts'],
    // Tests wait for events, each within test/helpers/waiting.ts's deadline; these only end a test
    // or hook that hangs, with room for the slowest right ones on a machine whose cores are busy.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Servers bind free ports, so files can run in parallel; two workers fit the 2-core machines.
    maxWorkers: 2,
    reporters: ['default', './test/helpers/slowest-files-reporter.ts'],
    projects: [
      // A worker imports the gateway (and builds its schema) once for all the files it runs, not
      // once per file: that import was most of the suite's time. Files hold no state in the modules
      // they share (a logger they replace is put back in their afterEach/afterAll).
      { extends: true, test: { name: 'shared', isolate: false, include: ['test/**/*.test.ts'], exclude: [...EXCLUDED, ...ISOLATED] } },
      // No Redis needed there: the run's own is started for the shared project only.
      { extends: true, test: { name: 'isolated', include: ISOLATED, exclude: EXCLUDED, globalSetup: [] } },
    ],
  },
});
