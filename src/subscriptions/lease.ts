// The Redis side of shared polling: per topic a lease (who polls), a snapshot (where the poll
// stands) and a channel (what it publishes). Every write by a holder is fenced by its lease token
// in one script, so a replica that lost its lease (paused, partitioned) can never publish again.
import type { Result } from 'ioredis';
import type { KeyOf } from '../redis/keys';
import type { Script } from '../redis/scripts';

declare module 'ioredis' {
  interface RedisCommander<Context> {
    /** 1 when published: the lease is still `token`'s. Empty snapshot or event: that part is skipped. */
    leasePublish(
      lease: string,
      snapshot: string,
      token: string,
      channel: string,
      snapshotText: string,
      eventText: string,
      snapshotMs: number,
    ): Result<number, Context>;
    /** 1 when renewed (the snapshot's life is extended with it). */
    leaseRenew(lease: string, snapshot: string, token: string, leaseMs: number, snapshotMs: number): Result<number, Context>;
    leaseRelease(lease: string, token: string): Result<number, Context>;
  }
}

const LUA = {
  leasePublish: `
    if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
    if ARGV[3] ~= '' then redis.call('SET', KEYS[2], ARGV[3], 'PX', ARGV[5]) end
    if ARGV[4] ~= '' then redis.call('PUBLISH', ARGV[2], ARGV[4]) end
    return 1`,
  leaseRenew: `
    if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
    redis.call('PEXPIRE', KEYS[2], ARGV[3])
    return 1`,
  leaseRelease: `
    if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
    return 0`,
} as const;

/** The lease scripts, for `withScripts` (src/redis/scripts.ts). */
export const LEASE_SCRIPTS: Readonly<Record<keyof typeof LUA, Script>> = {
  leasePublish: { keys: 2, lua: LUA.leasePublish },
  leaseRenew: { keys: 2, lua: LUA.leaseRenew },
  leaseRelease: { keys: 1, lua: LUA.leaseRelease },
};

export interface TopicKeys {
  lease: string;
  snapshot: string;
  channel: string;
}

/** The Redis names of a topic; `key` holds no secret (identity.ts). */
export function topicKeys(keyOf: KeyOf, key: string): TopicKeys {
  return { lease: keyOf('lease', key), snapshot: keyOf('snapshot', key), channel: keyOf('events', key) };
}

export interface LeaseTimings {
  /** How often holders renew and the others try to take free leases. */
  tickMs: number;
  /** A lease's life without renewal. */
  leaseMs: number;
  /** A snapshot's life without its holder: longer than a takeover, short after everyone left. */
  snapshotMs: number;
}

/**
 * A dead holder's lease expires within 1.5 intervals and is taken at the next tick (a quarter
 * interval): polling resumes within two intervals.
 */
export function leaseTimings(intervalMs: number): LeaseTimings {
  const tickMs = Math.max(10, Math.floor(intervalMs / 4));
  const leaseMs = Math.max(Math.ceil(intervalMs * 1.5), tickMs * 3);
  return { tickMs, leaseMs, snapshotMs: leaseMs * 3 };
}
