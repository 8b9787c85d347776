// The rate limit's algorithm: a token bucket, kept as one number per identity (GCRA, the generic
// cell rate algorithm): the time at which the bucket is full again. A bucket holds `limit`
// operations and refills one every `windowMs / limit`: a burst of `limit` at once, then the
// average rate. Taking `cost` operations moves that time on by cost intervals; it is allowed when
// the bucket is then at most `limit` intervals behind (the bucket was not empty). A refusal
// changes nothing. A negative cost gives operations back (a refund): the bucket never holds more
// than `limit`, as a full time in the past is a full bucket. The Redis script (redis-store.ts) is
// this function in Lua.

export interface BucketRate {
  /** Operations the bucket holds. */
  readonly limit: number;
  /** The time the whole bucket takes to refill. */
  readonly windowMs: number;
}

export interface Taken {
  /** 0: allowed; otherwise how long (ms, > 0) until the bucket holds `cost` operations again. */
  readonly waitMs: number;
  /** When allowed: the bucket's new full time, to store (an identity whose full time is past is as good as unknown). */
  readonly fullAt: number;
}

/** `fullAt`: the stored full time (0 or a past time for an unknown or full bucket). */
export function take(fullAt: number, now: number, cost: number, rate: BucketRate): Taken {
  const interval = rate.windowMs / rate.limit;
  const next = Math.max(fullAt, now) + cost * interval;
  const waitMs = next - rate.windowMs - now;
  return waitMs > 0 ? { waitMs, fullAt } : { waitMs: 0, fullAt: next };
}
