// The rate limit's buckets in Redis, shared by every replica: one script per take (bucket.ts in
// Lua), so reading and moving a bucket is atomic and one round trip (EVALSHA through ioredis's
// defineCommand). A bucket's key lives only until the bucket is full again (PX). The time comes
// from the replica taking (replicas' clocks agree to within milliseconds; tests set it).
// Commands fail at once while Redis is away, or after the shared connection's command timeout
// (src/redis/policy.ts); the limiter then lets the request through (limiter.ts).
import type { Result } from 'ioredis';
import type { SharedRedis } from '../../redis/shared-redis';
import { withScripts } from '../../redis/scripts';
import type { BucketRate } from './bucket';
import type { BucketStore } from './store';

declare module 'ioredis' {
  interface RedisCommander<Context> {
    /** 0 when taken, else the wait in whole ms. */
    rateLimitTake(key: string, now: number, intervalMs: number, windowMs: number, cost: number): Result<number, Context>;
  }
}

// Full time stored with every digit (%.17g): Lua's tostring keeps 14, a few ms at today's epoch.
// A refund (a negative cost) that leaves the bucket full deletes the key (PX must be positive).
const TAKE = `
  local now = tonumber(ARGV[1])
  local interval = tonumber(ARGV[2])
  local window = tonumber(ARGV[3])
  local full = tonumber(redis.call('GET', KEYS[1]) or '0')
  if full < now then full = now end
  local nextFull = full + tonumber(ARGV[4]) * interval
  local wait = nextFull - window - now
  if wait > 0 then return math.ceil(wait) end
  if nextFull <= now then redis.call('DEL', KEYS[1]) return 0 end
  redis.call('SET', KEYS[1], string.format('%.17g', nextFull), 'PX', math.ceil(nextFull - now))
  return 0`;

/** `space`: the kind of bucket's namespace (`ratelimit`, `sign-in:address`, ...) under the prefix. */
export function redisStore(redis: SharedRedis, space: readonly string[], rate: BucketRate): BucketStore {
  const command = withScripts(redis, { rateLimitTake: { keys: 1, lua: TAKE } });
  const intervalMs = rate.windowMs / rate.limit;
  return {
    // Rejects while Redis is away or slow (src/redis/policy.ts): the limiter lets the take through.
    take: (key, cost, now) => command().rateLimitTake(redis.key(...space, key), now, intervalMs, rate.windowMs, cost),
    // The connection is the gateway's: closed with it.
    close: async () => {},
  };
}
