// The rate limiter on a clock the test moves: the bucket's arithmetic, in memory and in Redis (one
// script, the same answers), the identity it keys on, and RATE_LIMIT's parsing.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config';
import { bucketKey, createRateLimiter, type RateLimiter } from '../../../src/gateway/rate-limit/limiter';
import { memoryStore } from '../../../src/gateway/rate-limit/store';
import { sharedRedis } from '../../../src/redis/shared-redis';
import { freePort } from '../../helpers/free-port';

const REDIS_URL = inject('redisUrl');
const PREFIX = `rate-limit-unit:${randomBytes(4).toString('hex')}:`;
const alice = { caller: { appId: 'app', token: 'token-a' }, address: '127.0.0.1' };
const bob = { caller: { appId: 'app', token: 'token-b' }, address: '127.0.0.1' };
/** Every token taken as proven (the proofs are token-proofs.test.ts's), or none. */
const proven = () => true;
const unproven = () => false;
const allProven = { isProven: proven, accepted() {}, refused() {}, prove() {} };

/** A limiter of 3 per 3 s (one refilled a second) on a clock the test sets. */
function clocked(redisUrl?: string) {
  const clock = { now: 1_000_000 };
  const prefix = `${PREFIX}${randomBytes(4).toString('hex')}:`;
  const redis = redisUrl ? sharedRedis({ url: redisUrl, prefix }) : undefined;
  const limiter = createRateLimiter({
    limit: 3,
    windowMs: 3_000,
    defaultAppId: 'app',
    proofs: allProven,
    now: () => clock.now,
    redis,
  });
  // The gateway's Redis resource starts before the limiter and closes after it.
  const started: RateLimiter = {
    admit: limiter.admit,
    start: async () => {
      await redis?.start();
      await limiter.start();
    },
    close: async () => {
      await limiter.close();
      await redis?.close();
    },
  };
  return { clock, limiter: started, prefix };
}

/** The retry-after (s) of a refusal, or 0 when the operations were let through. */
async function retryAfter(limiter: RateLimiter, sender: typeof alice, cost = 1): Promise<number> {
  const refusal = await limiter.admit(sender, cost, 'http');
  if (!refusal) return 0;
  expect(refusal.extensions).toMatchObject({ code: 'RATE_LIMITED', limit: 3, window: '3s', http: { status: 429 } });
  const { retryAfter: seconds, http } = refusal.extensions as { retryAfter: number; http: { headers: Record<string, string> } };
  expect(http.headers['retry-after']).toBe(String(seconds));
  return seconds;
}

describe.each([
  ['in memory', undefined],
  ['in Redis', REDIS_URL],
])('a bucket of 3 per 3 s, %s', (_where, redisUrl) => {
  const limiters: RateLimiter[] = [];
  const made = async () => {
    const made = clocked(redisUrl);
    limiters.push(made.limiter);
    await made.limiter.start();
    return made;
  };
  afterAll(async () => {
    for (const limiter of limiters) await limiter.close();
  });

  it('lets a burst of 3 through, refuses the 4th until a second has passed, then one more', async () => {
    const { clock, limiter } = await made();
    for (let i = 0; i < 3; i++) expect(await retryAfter(limiter, alice)).toBe(0);
    expect(await retryAfter(limiter, alice)).toBe(1);
    clock.now += 999;
    expect(await retryAfter(limiter, alice)).toBe(1);
    clock.now += 1;
    expect(await retryAfter(limiter, alice)).toBe(0);
    expect(await retryAfter(limiter, alice)).toBe(1);
  });

  it('is full again once the window has passed', async () => {
    const { clock, limiter } = await made();
    for (let i = 0; i < 3; i++) await limiter.admit(alice, 1, 'http');
    clock.now += 3_000;
    for (let i = 0; i < 3; i++) expect(await retryAfter(limiter, alice)).toBe(0);
    expect(await retryAfter(limiter, alice)).toBeGreaterThan(0);
  });

  it('keeps one bucket per token', async () => {
    const { limiter } = await made();
    for (let i = 0; i < 3; i++) await limiter.admit(alice, 1, 'http');
    expect(await retryAfter(limiter, alice)).toBe(1);
    expect(await retryAfter(limiter, bob)).toBe(0);
  });

  it('takes a batch whole or not at all, and says how long until it fits', async () => {
    const { clock, limiter } = await made();
    expect(await retryAfter(limiter, alice, 2)).toBe(0);
    // One left: a batch of 2 waits a second for the second one, and took nothing meanwhile.
    expect(await retryAfter(limiter, alice, 2)).toBe(1);
    expect(await retryAfter(limiter, alice, 1)).toBe(0);
    clock.now += 2_000;
    expect(await retryAfter(limiter, alice, 2)).toBe(0);
  });

  it('refuses a batch larger than the bucket with the whole window', async () => {
    const { limiter } = await made();
    expect(await retryAfter(limiter, alice, 4)).toBe(3);
    expect(await retryAfter(limiter, alice, 3)).toBe(0);
  });
});

describe('the Redis bucket', () => {
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis(REDIS_URL);
  });
  afterAll(() => redis.quit());

  it('is one key, named by a digest, living until the bucket is full again', async () => {
    const { limiter, prefix } = clocked(REDIS_URL);
    await limiter.start();
    try {
      await limiter.admit(alice, 1, 'http');
      const keys = await redis.keys(`${prefix}*`);
      expect(keys).toHaveLength(1);
      expect(keys[0]).toMatch(/ratelimit:[\w-]{22}$/);
      expect(keys[0]).not.toContain('token-a');
      // One operation of 3 per 3 s taken: full again in 1 s.
      const ttl = await redis.pttl(keys[0]!);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(1_000);
    } finally {
      await limiter.close();
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
    }
  });
});

describe('a Redis nobody answers at', () => {
  it('starts anyway, and lets every operation through, counted, with one warning', async () => {
    const lines: string[] = [];
    let failures = 0;
    const limiter = createRateLimiter({
      limit: 1,
      windowMs: 60_000,
      defaultAppId: 'app',
      // Never connected: every command fails, as they do while Redis is away.
      redis: sharedRedis({ url: `redis://127.0.0.1:${await freePort()}` }),
      onStoreFailure: () => failures++,
      log: (line) => lines.push(line),
    });
    await limiter.start();
    try {
      for (let i = 0; i < 3; i++) expect(await limiter.admit(alice, 1, 'http')).toBeUndefined();
      expect(failures).toBe(3);
      expect(lines).toEqual([expect.stringMatching(/^rate limit: Redis does not answer/)]);
    } finally {
      await limiter.close();
    }
  });
});

describe('the bucket an operation takes from', () => {
  it('is the app and token of a proven token, never the token in clear', () => {
    const key = bucketKey(alice, 'default', proven);
    expect(key).toMatch(/^[\w-]{22}$/);
    expect(bucketKey({ ...alice, address: '10.0.0.9' }, 'default', proven)).toBe(key);
    expect(bucketKey({ ...alice, caller: { appId: 'other', token: 'token-a' } }, 'default', proven)).not.toBe(key);
    // An app named by default is the same app.
    expect(bucketKey({ caller: { token: 't' }, address: undefined }, 'app', proven)).toBe(
      bucketKey({ caller: { appId: 'app', token: 't' }, address: undefined }, 'x', proven),
    );
  });

  it('is the address for a token not proven, whatever token and app_id it names', () => {
    const claimed = (token: string, appId: string) => bucketKey({ caller: { appId, token }, address: '10.0.0.1' }, 'default', unproven);
    expect(claimed('t1', 'a')).toBe(claimed('t2', 'b'));
    expect(claimed('t1', 'a')).toBe(bucketKey({ caller: {}, address: '10.0.0.1' }, 'default', proven));
  });

  it('is the address without a token, whatever app_id the caller names', () => {
    const anonymous = (appId: string, address: string) => bucketKey({ caller: { appId }, address }, 'default', proven);
    expect(anonymous('a', '10.0.0.1')).toBe(anonymous('b', '10.0.0.1'));
    expect(anonymous('a', '10.0.0.1')).not.toBe(anonymous('a', '10.0.0.2'));
  });
});

describe('the memory store', () => {
  it('forgets the least recently allowed identities beyond its bound, and full buckets as takes pass by', async () => {
    const store = memoryStore({ limit: 1, windowMs: 1_000 }, 3);
    for (let i = 0; i < 10; i++) await store.take(`k${i}`, 1, 0);
    expect(store.size).toBeLessThanOrEqual(3);
    // All of them full again by 1 s: the next takes sweep them away.
    await store.take('late-1', 1, 5_000);
    await store.take('late-2', 1, 5_000);
    expect(store.size).toBeLessThanOrEqual(2);
  });
});

describe('RATE_LIMIT', () => {
  it('reads <n>/<window> in ms, s, m or h, and is off by default', () => {
    expect(loadConfig({}).rateLimit).toBeUndefined();
    expect(loadConfig({ RATE_LIMIT: 'off' }).rateLimit).toBeUndefined();
    expect(loadConfig({ RATE_LIMIT: '100/1s' }).rateLimit).toEqual({ limit: 100, windowMs: 1_000 });
    expect(loadConfig({ RATE_LIMIT: '600/1m' }).rateLimit).toEqual({ limit: 600, windowMs: 60_000 });
    expect(loadConfig({ RATE_LIMIT: '5/500ms' }).rateLimit).toEqual({ limit: 5, windowMs: 500 });
    expect(loadConfig({ RATE_LIMIT: '10/s' }).rateLimit).toEqual({ limit: 10, windowMs: 1_000 });
    expect(loadConfig({ RATE_LIMIT: '1000000/1h' }).rateLimit).toEqual({ limit: 1_000_000, windowMs: 3_600_000 });
  });

  it.each(['100', 'abc', '100/1', '1.5/1s', '-1/1s', '100/-1s', '0/1s', '100/0s', '1/61m', '1/2h', '1000001/1h', '2000/1ms', '10/1d'])(
    'refuses %j at start, naming the variable',
    (value) => {
      expect(() => loadConfig({ RATE_LIMIT: value })).toThrow(ConfigError);
      expect(() => loadConfig({ RATE_LIMIT: value })).toThrow(/^RATE_LIMIT /);
    },
  );
});
