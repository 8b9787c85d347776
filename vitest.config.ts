import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Servers bind free ports, so files can run in parallel; two workers fit the 2-core machines.
    maxWorkers: 2,
  },
});
