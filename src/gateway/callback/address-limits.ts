// The callback route's own bounds, apart from the GraphQL side's: a rate per source address (a
// token bucket: rate-limit/bucket.ts) and, for log lines, once per address and reason a minute.
// Both keep bounded memory whatever the number of addresses a flood comes from.
import { take } from '../rate-limit/bucket';

/** Addresses remembered at most; beyond, the oldest are forgotten (a forgotten bucket is a full one). */
const MAX_ADDRESSES = 10_000;

/** Forgets the oldest entries of a map kept in insertion order, down to its bound. */
function bound<K, V>(map: Map<K, V>, max: number): void {
  for (const key of map.keys()) {
    if (map.size < max) return;
    map.delete(key);
  }
}

/** Whether one more callback from `address` is within `perSecond` (a burst of as many, then the rate). */
export function addressRate(perSecond: number): (address: string, now: number) => boolean {
  const rate = { limit: perSecond, windowMs: 1_000 };
  const fullAt = new Map<string, number>();
  return (address, now) => {
    const taken = take(fullAt.get(address) ?? 0, now, 1, rate);
    if (taken.waitMs > 0) return false;
    // Moved to the end: the map's order is the order of last use.
    fullAt.delete(address);
    bound(fullAt, MAX_ADDRESSES);
    fullAt.set(address, taken.fullAt);
    return true;
  };
}

/** Whether a line about `key` (an address and a reason) may be logged now: once a minute at most. */
export function oncePerMinute(): (key: string, now: number) => boolean {
  const last = new Map<string, number>();
  return (key, now) => {
    const at = last.get(key);
    if (at !== undefined && now - at < 60_000) return false;
    last.delete(key);
    bound(last, MAX_ADDRESSES);
    last.set(key, now);
    return true;
  };
}
