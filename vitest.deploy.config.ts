// `npm run test:deploy`: the deployment of compose.yaml run as processes (test/deploy). Not part of
// `npm test`: it installs nginx when missing, builds the bundle, and starts six processes.
import { defineConfig } from 'vitest/config';
import base from './vitest.config';

// Not the main config's projects; the deployment starts a Redis of its own (test/deploy/processes.ts).
const { projects: _projects, ...shared } = base.test!;

export default defineConfig({
  ...base,
  test: { ...shared, include: ['test/deploy/**/*.test.ts'], exclude: ['node_modules/**'], maxWorkers: 1, globalSetup: [] },
});
