// Each callback is handled once per appId + msgId across every replica (document 6: "treat msgId
// as an idempotency key"; whether the service repeats callbacks is not shown). With REDIS_URL the
// first replica to SET NX the message's key wins, for IM_CALLBACK_DEDUP_SECONDS; without it a
// bounded memory does the same for this replica. This is the one module of the receiver that
// speaks to Redis, through the gateway's one Redis resource (src/redis/).
import type { SharedRedis } from '../../redis/shared-redis';

export interface CallbackDedup {
  /** Whether this is the first time the message is seen (within the window). */
  first(appId: string, msgId: string): Promise<boolean>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** Most message IDs remembered in memory (about 100 bytes each): 100 seconds at 2,000 callbacks a second. */
export const MEMORY_MAX_ENTRIES = 200_000;

/** appId + msgId, as one key (an app ID holds no space). */
const keyOf = (appId: string, msgId: string) => `${appId} ${msgId}`;

/** The IDs seen in the last `ttlMs`, at most `maxEntries` (the oldest forgotten first). */
export function memoryDedup(
  ttlMs: number,
  maxEntries = MEMORY_MAX_ENTRIES,
): CallbackDedup & { seen(appId: string, msgId: string): boolean } {
  // Insertion order is expiry order: every entry lives ttlMs.
  const expiries = new Map<string, number>();
  const seen = (appId: string, msgId: string) => {
    const now = Date.now();
    for (const [key, expiry] of expiries) {
      if (expiry > now && expiries.size < maxEntries) break;
      expiries.delete(key);
    }
    const key = keyOf(appId, msgId);
    const expiry = expiries.get(key);
    if (expiry !== undefined && expiry > now) return true;
    expiries.set(key, now + ttlMs);
    return false;
  };
  return {
    seen,
    first: (appId, msgId) => Promise.resolve(!seen(appId, msgId)),
    start: () => Promise.resolve(),
    close: () => {
      expiries.clear();
      return Promise.resolve();
    },
  };
}

/**
 * The fleet's memory of message IDs in Redis. While Redis fails, this replica's own memory decides
 * (a message may then be handled once per replica: events are de-duplicated again by the
 * subscriptions), and `onFailure` is told.
 */
export function redisDedup(redis: SharedRedis, ttlMs: number, onFailure: (err: Error) => void): CallbackDedup {
  const fallback = memoryDedup(ttlMs);
  return {
    // The resource is connected (and closed) by the redis family.
    start: () => Promise.resolve(),
    async first(appId, msgId) {
      try {
        return (await redis.command.set(redis.key('callback', appId, msgId), '1', 'PX', ttlMs, 'NX')) === 'OK';
      } catch (err) {
        onFailure(err as Error);
        return !fallback.seen(appId, msgId);
      }
    },
    close: () => fallback.close(),
  };
}
