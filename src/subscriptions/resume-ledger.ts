// Where retried subscriptions resume: per subscription key (a digest of the identity, the
// client's key and the operation with its variables: gateway/ws/resume-on-retry.ts) the position
// of the last event delivered, kept for the resume window after it was last written. In bounded
// memory (the oldest written goes first), or in Redis when replicas share it (a retry may land on
// another replica): there, Redis trouble degrades to "nothing to resume", never to a failure.
import type { SharedRedis } from '../redis/shared-redis';
import { warner } from './warn';

export interface ResumeLedger {
  /** The position kept for `key`, if it was written within the window. */
  get(key: string): Promise<string | undefined>;
  /** Keeps `position` for `key` for the window from now. */
  set(key: string, position: string): void;
  close(): Promise<void>;
}

interface LedgerOptions {
  /** How long a position is kept after its last write. */
  windowMs: number;
  /** Memory: the most keys kept (the oldest written is dropped first). */
  maxEntries: number;
}

export function memoryLedger({ windowMs, maxEntries }: LedgerOptions): ResumeLedger {
  // Insertion order is write order: a write moves its key to the end.
  const entries = new Map<string, { position: string; until: number }>();
  return {
    get(key) {
      const entry = entries.get(key);
      if (entry && entry.until <= Date.now()) entries.delete(key);
      return Promise.resolve(entry && entry.until > Date.now() ? entry.position : undefined);
    },
    set(key, position) {
      entries.delete(key);
      entries.set(key, { position, until: Date.now() + windowMs });
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
    },
    close: () => Promise.resolve(),
  };
}

const warn = warner('resume');

/**
 * Positions under `resume:<key>`. Reads and writes wait no longer than the connection's command
 * timeout (src/redis/policy.ts): a resume is not worth a stalled subscribe.
 */
export function redisLedger(redis: SharedRedis, { windowMs }: Pick<LedgerOptions, 'windowMs'>): ResumeLedger {
  const keyOf = (key: string) => redis.key('resume', key);
  return {
    async get(key) {
      try {
        return (await redis.command.get(keyOf(key))) ?? undefined;
      } catch (err) {
        warn(`reading a resume position failed: ${(err as Error).message}`);
        return undefined;
      }
    },
    set(key, position) {
      // `redis.command` throws while Redis is not connected: the same warning.
      Promise.resolve()
        .then(() => redis.command.set(keyOf(key), position, 'PX', windowMs))
        .catch((err: Error) => warn(`keeping a resume position failed: ${err.message}`));
    },
    // The connection is the gateway's: closed with it.
    close: () => Promise.resolve(),
  };
}
