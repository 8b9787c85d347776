// The fleet's subscription count in Redis: per identity a hash with one field per replica, holding
// that replica's count and when it expires ("count:expiresAtMs", by Redis's clock). A claim adds
// up the live fields of the other replicas (dropping expired ones) and, within the limit, writes
// this replica's new count: atomically, in one script. Each replica renews its fields every third
// of the lease, writing its own count as it stands (so a lost write or a Redis that came back
// empty is mended at the next renewal); a replica that dies stops renewing, and its slots free
// when its fields expire. Nothing is ever held longer than a lease without a live owner.
import { randomBytes } from 'node:crypto';
import type { Redis, Result } from 'ioredis';
import { withScripts } from '../redis/scripts';
import type { SharedRedis } from '../redis/shared-redis';
import type { SlotStore } from './slot-store';
import { warner } from './warn';

declare module 'ioredis' {
  interface RedisCommander<Context> {
    /** 1 when the other replicas' live counts plus `mine` fit in `limit` (then `mine` is written). */
    slotClaim(key: string, replica: string, mine: number, limit: number, leaseMs: number): Result<number, Context>;
    /** Writes this replica's count (0: removes its field) and extends its life. */
    slotReport(key: string, replica: string, mine: number, leaseMs: number): Result<number, Context>;
  }
}

// Redis's own clock, so that replicas' clocks never disagree about an expiry.
const NOW = `local t = redis.call('TIME') local now = t[1] * 1000 + math.floor(t[2] / 1000)`;
// The key lives as long as its longest field may (another replica may use a longer lease).
const KEEP = `if redis.call('PTTL', KEYS[1]) < tonumber(lease) then redis.call('PEXPIRE', KEYS[1], lease) end`;

const SCRIPTS = {
  slotClaim: {
    keys: 1,
    lua: `${NOW}
      local replica, mine, limit, lease = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
      local others = 0
      local fields = redis.call('HGETALL', KEYS[1])
      for i = 1, #fields, 2 do
        if fields[i] ~= replica then
          local count, expires = string.match(fields[i + 1], '^(%d+):(%d+)$')
          if count and tonumber(expires) > now then others = others + tonumber(count)
          else redis.call('HDEL', KEYS[1], fields[i]) end
        end
      end
      if others + mine > limit then return 0 end
      redis.call('HSET', KEYS[1], replica, mine .. ':' .. (now + tonumber(lease)))
      ${KEEP}
      return 1`,
  },
  slotReport: {
    keys: 1,
    lua: `${NOW}
      local replica, mine, lease = ARGV[1], tonumber(ARGV[2]), ARGV[3]
      if mine == 0 then return redis.call('HDEL', KEYS[1], replica) end
      redis.call('HSET', KEYS[1], replica, mine .. ':' .. (now + tonumber(lease)))
      ${KEEP}
      return 1`,
  },
} as const;

interface RedisSlotStoreOptions {
  /** The gateway's Redis (src/redis/): keys `slots:<identity key>`. */
  redis: SharedRedis;
  limit: number;
  leaseMs: number;
  /** This replica's slots per identity, as they stand (renewed from it). */
  held(): ReadonlyMap<string, number>;
}

const warn = warner('subscription limits (Redis)');

// A slow Redis delays a subscription's start by at most its command timeout (src/redis/policy.ts),
// then it is admitted (fail open).
export function redisSlotStore(options: RedisSlotStoreOptions): SlotStore {
  return new RedisSlotStore(withScripts(options.redis, SCRIPTS), options);
}

class RedisSlotStore implements SlotStore {
  private readonly replica = randomBytes(8).toString('hex');
  /** Identities whose count could not be written: the next renewal writes it. */
  private readonly dirty = new Set<string>();
  private readonly timer: NodeJS.Timeout;
  private renewing = false;

  constructor(
    private readonly redis: () => Redis,
    private readonly options: RedisSlotStoreOptions,
  ) {
    this.timer = setInterval(() => void this.renew(), Math.max(10, Math.floor(options.leaseMs / 3)));
    this.timer.unref();
  }

  private keyOf(identity: string): string {
    return this.options.redis.key('slots', identity);
  }

  async claim(identity: string, mine: number): Promise<boolean> {
    const { limit, leaseMs } = this.options;
    try {
      return (await this.redis().slotClaim(this.keyOf(identity), this.replica, mine, limit, leaseMs)) === 1;
    } catch (err) {
      this.dirty.add(identity);
      throw err;
    }
  }

  report(identity: string, mine: number): void {
    // A Redis not connected throws here rather than reject: the same mending.
    Promise.resolve()
      .then(() => this.redis().slotReport(this.keyOf(identity), this.replica, mine, this.options.leaseMs))
      .catch((err: unknown) => {
        this.dirty.add(identity);
        warn(`a count could not be written (the next renewal writes it): ${(err as Error).message}`);
      });
  }

  /** Writes every count this replica holds (and those not written), one round trip for all. */
  private async renew(): Promise<void> {
    if (this.renewing) return;
    this.renewing = true;
    const held = this.options.held();
    const identities = [...new Set([...held.keys(), ...this.dirty])];
    this.dirty.clear();
    try {
      if (identities.length === 0) return;
      const pipeline = this.redis().pipeline();
      for (const identity of identities)
        pipeline.slotReport(this.keyOf(identity), this.replica, held.get(identity) ?? 0, this.options.leaseMs);
      const results = (await pipeline.exec()) ?? [];
      identities.forEach((identity, i) => {
        if (results[i]?.[0] !== null) this.dirty.add(identity);
      });
    } catch (err) {
      for (const identity of identities) this.dirty.add(identity);
      warn(`renewing the counts failed: ${(err as Error).message}`);
    } finally {
      this.renewing = false;
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    // This replica's slots are all released by now (its subscriptions ended); what is left expires.
    // The connection is the gateway's: closed with it.
  }
}
