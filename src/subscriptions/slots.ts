// Subscription slots: at most `limit` subscriptions open at once per identity (src/identity.ts: app,
// token, acting user and group, by the identity's key), whatever transport carries them (WebSocket, SSE, multipart HTTP:
// each calls acquire() before the subscription starts and releases its slot when it ends). Each
// replica counts its own slots; with Redis the counts of the fleet are added up there
// (slots-redis.ts), so the limit holds across replicas. Redis trouble fails open: the subscription
// is admitted on this replica's own count, with a warning and a count for the metrics.
import type { Identity } from '../identity';
import type { SharedRedis } from '../redis/shared-redis';
import type { SlotStore } from './slot-store';
import { warner } from './warn';

/** A subscription admitted (release its slot once, when it ends), or refused at the limit. */
export type Admission = { admitted: true; release(): void } | { admitted: false; limit: number };

export interface SlotStats {
  /** Slots held on this replica now. */
  held: number;
  /** Subscriptions refused at the per-identity limit, since the start. */
  refused: number;
  /** Admissions decided without the fleet's count (Redis unreachable or failing), since the start. */
  failedOpen: number;
}

export type { SlotStore } from './slot-store';

export interface SubscriptionSlots {
  /** Counts in Redis in multi-replica mode (started after it); nothing to do otherwise. */
  start(): Promise<void>;
  acquire(identity: Pick<Identity, 'key'>): Promise<Admission>;
  readonly limit: number;
  stats(): SlotStats;
  close(): Promise<void>;
}

interface SubscriptionSlotsOptions {
  /** Most subscriptions open at once per identity. */
  limit: number;
  /** Set: the fleet's count lives in this Redis. */
  redis?: SharedRedis | undefined;
  /** How long a replica's count outlives it in Redis without renewal (a dead replica's slots free then). */
  leaseMs?: number;
}

/** A replica that dies holds its slots for at most this long (renewed every third of it). */
export const SLOT_LEASE_MS = 60_000;

const warn = warner('subscription limits');

export function subscriptionSlots(options: SubscriptionSlotsOptions): SubscriptionSlots {
  /** Slots held here per identity, counting admissions under way. */
  const held = new Map<string, number>();
  const counts = { refused: 0, failedOpen: 0 };
  let store: SlotStore | undefined;
  let total = 0;

  const drop = (key: string) => {
    const mine = held.get(key)! - 1;
    if (mine > 0) held.set(key, mine);
    else held.delete(key);
    total--;
    store?.report(key, mine);
  };

  const refuse = (): Admission => {
    counts.refused++;
    return { admitted: false, limit: options.limit };
  };

  return {
    limit: options.limit,
    async start() {
      if (store || !options.redis) return;
      const { redisSlotStore } = await import('./slots-redis');
      store = redisSlotStore({
        redis: options.redis,
        limit: options.limit,
        leaseMs: options.leaseMs ?? SLOT_LEASE_MS,
        held: () => held,
      });
    },
    async acquire({ key }) {
      // This replica's own count bounds it even when the fleet's cannot be read.
      const mine = (held.get(key) ?? 0) + 1;
      if (mine > options.limit) return refuse();
      held.set(key, mine);
      total++;
      let fits = true;
      try {
        if (store) fits = await store.claim(key, mine);
      } catch (err) {
        counts.failedOpen++;
        warn(`the fleet's count could not be read, admitted on this replica's own: ${(err as Error).message}`);
      }
      if (!fits) {
        drop(key);
        return refuse();
      }
      let released = false;
      return {
        admitted: true,
        release() {
          if (released) return;
          released = true;
          drop(key);
        },
      };
    },
    stats: () => ({ held: total, ...counts }),
    async close() {
      await store?.close();
      store = undefined;
    },
  };
}
