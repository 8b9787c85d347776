// One kind of bucket (one rate) wherever it lives: in memory, or in Redis with REDIS_URL (shared by
// every replica). If Redis cannot answer, a take is let through (and counted), with one warning per
// outage: a limit never fails a request. The rate limit (limiter.ts) and the sign-in limits
// (sign-in-limiter.ts) each take from their own.
import { log as logger } from '../../log/logger';
import type { BucketRate } from './bucket';
import type { SharedRedis } from '../../redis/shared-redis';
import { redisStore } from './redis-store';
import { type BucketStore, memoryStore } from './store';

export interface BucketOptions {
  /** Set: buckets shared by every replica on this Redis. */
  redis?: SharedRedis | undefined;
  /** The kind of bucket's namespace in Redis (`ratelimit`, `sign-in:address`, ...). */
  space: readonly string[];
  /** A take let through because Redis could not answer. */
  onStoreFailure?: (() => void) | undefined;
  /** Default Date.now (tests move their own clock). */
  now?: (() => number) | undefined;
  /** Default: the process's logger, at `warn`. */
  log?: ((line: string) => void) | undefined;
}

export interface Buckets {
  /** Takes from Redis when there is one (never fails: takes are let through until Redis answers). */
  start(): Promise<void>;
  /** Takes `cost` from the bucket `key`: 0 when allowed (or Redis could not answer), else the wait in ms. */
  take(key: string, cost: number): Promise<number>;
  /** Gives `cost` back to the bucket `key` (never beyond full); a store failure is ignored, as for a take. */
  refund(key: string, cost: number): Promise<void>;
  close(): Promise<void>;
}

export function buckets(rate: BucketRate, options: BucketOptions): Buckets {
  const now = options.now ?? Date.now;
  const log = options.log ?? ((line: string) => logger().warn(line));
  let store: BucketStore = memoryStore(rate);
  // One warning per outage: set at the first failure, cleared by the first answer after it.
  let outage = false;
  const failed = (err: Error) => {
    if (outage) return;
    outage = true;
    log(`rate limit: Redis does not answer (${err.message}): operations are let through until it does`);
  };
  return {
    async start() {
      if (options.redis) store = redisStore(options.redis, options.space, rate);
    },
    async take(key, cost) {
      try {
        const waitMs = await store.take(key, cost, now());
        if (outage) {
          outage = false;
          log('rate limit: Redis answers again: the limit holds');
        }
        return waitMs;
      } catch (err) {
        failed(err as Error);
        options.onStoreFailure?.();
        return 0;
      }
    },
    async refund(key, cost) {
      await store.take(key, -cost, now()).catch((err: Error) => failed(err));
    },
    close: () => store.close(),
  };
}
