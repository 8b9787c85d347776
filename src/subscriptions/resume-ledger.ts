// Where retried subscriptions resume: per subscription key (a digest of the identity, the
// client's key and the operation with the variables it uses: gateway/ws/resume-on-retry.ts) the
// position of the last event each holder (one subscription under that key: one socket's) delivered,
// kept for the resume window after it was last written. A retry resumes from the EARLIEST position
// a holder of the key left: two sockets of one client key (two tabs) never make each other skip an
// event (one may get again what the other had). In bounded memory, or in Redis when replicas
// share it (a retry may land on another replica): there, Redis trouble degrades to "nothing to
// resume", never to a failure.
//
// Memory is bounded per identity (`owner`): one identity's subscribe/complete pairs push out its
// own oldest positions, never another identity's; the bound over all identities drops from the
// identity that holds the most.
import type { SharedRedis } from '../redis/shared-redis';
import { warner } from './warn';

/** Who writes a position: the subscription (`holder`) and its identity's key (`owner`). */
export interface LedgerWriter {
  holder: string;
  owner: string;
}

export interface ResumeLedger {
  /** The earliest position a holder kept for `key`, if written within the window. */
  get(key: string): Promise<string | undefined>;
  /** Keeps `position` for `key` as the writer's (default: one anonymous holder) for the window from now. */
  set(key: string, position: string, writer?: LedgerWriter): void;
  close(): Promise<void>;
}

interface LedgerOptions {
  /** How long a position is kept after its last write. */
  windowMs: number;
  /** Memory: the most keys kept over all identities. */
  maxEntries: number;
  /** Memory: the most keys one identity keeps (its oldest written is dropped first). Default min(1000, maxEntries). */
  maxPerIdentity?: number;
}

const ANONYMOUS: LedgerWriter = { holder: '', owner: '' };
/** Holders of one key kept at once (sockets of one client key): the oldest written goes first. */
const MAX_HOLDERS = 8;
const PER_IDENTITY = 1_000;

const POSITION = /^(\d{1,40})(?::(.*))?$/;

/**
 * Orders positions of one stream: by their leading number (a message ID, a request's expiry), then
 * by how many IDs follow the colon (friend-request-source.ts: a later state knows more).
 */
export function comparePositionText(a: string, b: string): number {
  const x = POSITION.exec(a);
  const y = POSITION.exec(b);
  if (!x || !y) return a < b ? -1 : a > b ? 1 : 0;
  const [p, q] = [BigInt(x[1]!), BigInt(y[1]!)];
  if (p !== q) return p < q ? -1 : 1;
  const count = (ids: string | undefined) => (ids ? ids.split(',').length : 0);
  return Math.sign(count(x[2]) - count(y[2]));
}

const earliest = (positions: readonly string[]) =>
  positions.reduce<string | undefined>((min, p) => (min === undefined || comparePositionText(p, min) < 0 ? p : min), undefined);

type Holders = Map<string, { position: string; until: number }>;

export function memoryLedger({ windowMs, maxEntries, maxPerIdentity }: LedgerOptions): ResumeLedger {
  const perIdentity = Math.min(maxPerIdentity ?? PER_IDENTITY, maxEntries);
  // Per identity, per key, per holder. Insertion order is write order: a write moves its key to the end.
  const owners = new Map<string, Map<string, Holders>>();
  const ownerOf = new Map<string, string>();

  function drop(owner: string, keys: Map<string, Holders>): void {
    const oldest = keys.keys().next().value!;
    keys.delete(oldest);
    ownerOf.delete(oldest);
    if (keys.size === 0) owners.delete(owner);
  }
  function largest(): [string, Map<string, Holders>] {
    let most: [string, Map<string, Holders>] | undefined;
    for (const entry of owners) if (!most || entry[1].size > most[1].size) most = entry;
    return most!;
  }

  return {
    get(key) {
      const owner = ownerOf.get(key);
      const holders = owner === undefined ? undefined : owners.get(owner)?.get(key);
      if (!holders) return Promise.resolve(undefined);
      const now = Date.now();
      for (const [holder, entry] of holders) if (entry.until <= now) holders.delete(holder);
      return Promise.resolve(earliest([...holders.values()].map((e) => e.position)));
    },
    set(key, position, { holder, owner } = ANONYMOUS) {
      let keys = owners.get(owner);
      if (!keys) owners.set(owner, (keys = new Map()));
      const previous = ownerOf.get(key);
      if (previous !== undefined && previous !== owner) owners.get(previous)?.delete(key); // never: keys digest the identity
      const holders: Holders = keys.get(key) ?? new Map();
      keys.delete(key);
      keys.set(key, holders);
      ownerOf.set(key, owner);
      holders.delete(holder);
      holders.set(holder, { position, until: Date.now() + windowMs });
      if (holders.size > MAX_HOLDERS) holders.delete(holders.keys().next().value!);
      while (keys.size > perIdentity) drop(owner, keys);
      while (ownerOf.size > maxEntries) drop(...largest());
    },
    close: () => Promise.resolve(),
  };
}

const warn = warner('resume');

/**
 * In Redis: a hash per key (holder → "<until>|<position>") that expires a window after its last
 * write. Nothing evicts another identity's keys (each lives out its window; Redis must not evict).
 */
export function redisLedger(redis: SharedRedis, { windowMs }: Pick<LedgerOptions, 'windowMs'>): ResumeLedger {
  // Reads and writes wait no longer than the connection's command timeout (src/redis/policy.ts):
  // a resume is not worth a stalled subscribe.
  const keyOf = (key: string) => redis.key('resume', key);
  return {
    async get(key) {
      try {
        const holders = await redis.command.hgetall(keyOf(key));
        const now = Date.now();
        const live = Object.values(holders).flatMap((text) => {
          const bar = text.indexOf('|');
          return Number(text.slice(0, bar)) > now ? [text.slice(bar + 1)] : [];
        });
        return earliest(live);
      } catch (err) {
        warn(`reading a resume position failed: ${(err as Error).message}`);
        return undefined;
      }
    },
    set(key, position, { holder } = ANONYMOUS) {
      // `redis.command` throws while Redis is not connected: the same warning.
      Promise.resolve()
        .then(() =>
          redis.command
            .multi()
            .hset(keyOf(key), holder, `${Date.now() + windowMs}|${position}`)
            .pexpire(keyOf(key), windowMs)
            .exec(),
        )
        .catch((err: Error) => warn(`keeping a resume position failed: ${err.message}`));
    },
    // The connection is the gateway's: closed with it.
    close: () => Promise.resolve(),
  };
}
