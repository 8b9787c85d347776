// The APQ store in Redis degrades, never fails a request: with Redis gone a hash alone is a miss
// (Apollo clients then send the text, which runs), and once Redis is back registrations serve again.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startRedisServer, type TestRedis } from '../../helpers/redis-server';
import { startStack, type Stack } from '../../helpers/stack';
import type { TestUser } from '../../helpers/emulator';
import { until } from '../../helpers/wait';
import { codes, persistedQuery, post, sha256 } from './send';

let redis: TestRedis;
let stack: Stack;
let user: TestUser;
const as = () => ({ 'access-token': user.token, app_id: stack.emu.appId });
const fresh = () => `{ me { id } } # ${randomBytes(6).toString('hex')}`;

beforeAll(async () => {
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  redis = await startRedisServer();
  stack = await startStack({ REDIS_URL: redis.url });
  user = await stack.emu.user();
});
afterAll(async () => {
  await stack?.stop();
  await redis?.stop();
  vi.restoreAllMocks();
});

describe('APQ with Redis away', () => {
  it('answers PersistedQueryNotFound for a hash and runs its text, then serves hashes again once Redis is back', async () => {
    await redis.kill();
    const query = fresh();
    const hash = sha256(query);
    expect(codes(await post(stack.url, { extensions: persistedQuery(hash) }, as()))).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
    const withText = await post(stack.url, { query, extensions: persistedQuery(hash) }, as());
    expect(withText.body).toEqual({ data: { me: { id: String(user.id) } } });

    await redis.restart();
    const later = fresh();
    await until('the APQ store reconnected and kept a registration', async () => {
      await post(stack.url, { query: later, extensions: persistedQuery(sha256(later)) }, as());
      const hit = await post(stack.url, { extensions: persistedQuery(sha256(later)) }, as());
      return hit.body?.data !== undefined;
    });
  });
});
