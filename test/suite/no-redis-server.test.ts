// The suite starts its own Redis (test/helpers/redis-global-setup.ts); where no redis-server binary
// is on the PATH, a run stops before any test with one line saying how to install it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { EVENT_DEADLINE_MS } from '../helpers/wait';

// A PATH holding node alone.
const bin = mkdtempSync(join(tmpdir(), 'no-redis-'));
symlinkSync(process.execPath, join(bin, 'node'));
afterAll(() => rmSync(bin, { recursive: true, force: true }));

it('stops a run at once with one line on how to install redis-server when the binary is missing', () => {
  const run = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', 'test/gateway/rate-limit/limiter.test.ts'], {
    env: { PATH: bin, HOME: process.env.HOME ?? tmpdir() },
    encoding: 'utf8',
    timeout: EVENT_DEADLINE_MS * 2,
  });
  expect(run.status).toBe(1);
  expect(run.stdout).not.toMatch(/Test Files/);
  expect(run.stderr.trim().split('\n')).toEqual([
    'The tests start a Redis of their own and need the redis-server binary: apt-get install redis-server (Debian/Ubuntu) or brew install redis (macOS).',
  ]);
});
