// The rate limit's buckets in Redis, shared by every replica: one script per take (bucket.ts in
// Lua), so reading and moving a bucket is atomic and one round trip (EVALSHA through ioredis's
// defineCommand). A bucket's key lives only until the bucket is full again (PX). The time comes
// from the replica taking (replicas' clocks agree to within milliseconds; tests set it).
// Commands fail at once while Redis is away (no offline queue) or after COMMAND_TIMEOUT_MS; the
// limiter then lets the request through (limiter.ts).
import type { Redis, Result } from 'ioredis';
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

/** A slow Redis may add this much to a request, at most, before it is let through. */
const COMMAND_TIMEOUT_MS = 500;

/** `prefix`: the keys' whole prefix (the kind of bucket's namespace included). */
export async function redisStore(url: string, prefix: string, rate: BucketRate, onError: (err: Error) => void): Promise<BucketStore> {
  // Loaded only in this mode: without REDIS_URL the gateway never needs the package.
  const { Redis } = await import('ioredis');
  const redis: Redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 2_000,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectionName: 'im-gateway-rate-limit',
  });
  // Connection trouble is told by the commands that fail (limiter.ts warns once per outage).
  redis.on('error', () => {});
  redis.defineCommand('rateLimitTake', { numberOfKeys: 1, lua: TAKE });
  // Not awaited as a condition of the start: the limit fails open until Redis answers.
  await redis.connect().catch(onError);
  const intervalMs = rate.windowMs / rate.limit;
  return {
    take: (key, cost, now) => redis.rateLimitTake(`${prefix}${key}`, now, intervalMs, rate.windowMs, cost),
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
