// vitest globalSetup: one redis-server of the run's own, on a free port, for every test that shares
// a Redis (each under a key prefix of its own), so `npm test` needs no Redis already running; tests
// read its URL with `inject('redisUrl')`. Stopped (by its PID) when the run ends. Tests that play a
// Redis outage start one more of their own (startRedisServer).
import { spawnSync } from 'node:child_process';
import type { TestProject } from 'vitest/node';
import { startRedisServer } from './redis-server';

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
  }
}

const NO_REDIS_SERVER =
  'The tests start a Redis of their own and need the redis-server binary: apt-get install redis-server (Debian/Ubuntu) or brew install redis (macOS).';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).error) {
    console.error(NO_REDIS_SERVER);
    process.exit(1);
  }
  const redis = await startRedisServer();
  project.provide('redisUrl', redis.url);
  return () => redis.stop();
}
