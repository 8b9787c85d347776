// `npm run test:deploy`: the deployment of compose.yaml run as processes (test/deploy). Not part of
// `npm test`: it installs nginx when missing, builds the bundle, and starts six processes.
import { defineConfig } from 'vitest/config';
import base from './vitest.config';

export default defineConfig({
  ...base,
  test: { ...base.test, include: ['test/deploy/**/*.test.ts'], exclude: ['node_modules/**'], maxWorkers: 1 },
});
