// Where the rate limit's buckets live: one number per identity (bucket.ts). In memory for one
// replica; in Redis (redis-store.ts) when replicas share the limit.
import { type BucketRate, take } from './bucket';

export interface BucketStore {
  /** Takes `cost` operations from the bucket `key` at `now`: 0 when taken, else the wait in ms (> 0). Rejects when the store cannot answer. */
  take(key: string, cost: number, now: number): Promise<number>;
  close(): Promise<void>;
}

/** Identities remembered at most; beyond it the least recently allowed are forgotten (their buckets refill). */
export const MEMORY_BUCKETS = 100_000;

/**
 * Buckets in a Map in the order they were last taken from: the oldest come first, and those whose
 * full time has passed are dropped as new takes pass by (a full bucket is the same as none).
 */
export function memoryStore(rate: BucketRate, maxBuckets = MEMORY_BUCKETS): BucketStore & { readonly size: number } {
  const buckets = new Map<string, number>();
  const sweep = (now: number) => {
    // A couple of the oldest per take: amortized, the map never holds many full buckets for long.
    for (let i = 0; i < 2; i++) {
      const oldest = buckets.entries().next();
      if (oldest.done || (oldest.value[1] > now && buckets.size <= maxBuckets)) return;
      buckets.delete(oldest.value[0]);
    }
  };
  return {
    get size() {
      return buckets.size;
    },
    take(key, cost, now) {
      const taken = take(buckets.get(key) ?? 0, now, cost, rate);
      if (taken.waitMs === 0) {
        buckets.delete(key);
        buckets.set(key, taken.fullAt);
        sweep(now);
      }
      return Promise.resolve(taken.waitMs);
    },
    close: () => Promise.resolve(),
  };
}
