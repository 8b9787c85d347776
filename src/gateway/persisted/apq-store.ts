// Where automatic persisted queries (APQ) are kept: document text by SHA-256 hash. With REDIS_URL,
// in Redis, so that a hash registered through one replica serves on all; otherwise in a bounded
// map in process (least recently used first out). Redis trouble never fails a request: a lookup
// that fails is a miss (Apollo clients then send the text again) and a store that fails is skipped.
import type { SharedRedis } from '../../redis/shared-redis';

export interface ApqStore {
  get(hash: string): Promise<string | undefined>;
  set(hash: string, document: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Longest document kept: larger ones still run when sent whole, they are only not remembered (a
 * store of entries × this size stays bounded). MAX_QUERY_TOKENS refuses most of them anyway.
 */
export const MAX_APQ_DOCUMENT_BYTES = 64 * 1024;

const storable = (document: string) => Buffer.byteLength(document) <= MAX_APQ_DOCUMENT_BYTES;

/** At most `maxEntries` documents; a hit makes its entry the most recent. */
export function memoryApqStore(maxEntries: number): ApqStore {
  // A Map iterates in insertion order: re-inserting on use makes its first key the least recent.
  const entries = new Map<string, string>();
  return {
    async get(hash) {
      const document = entries.get(hash);
      if (document !== undefined) {
        entries.delete(hash);
        entries.set(hash, document);
      }
      return document;
    },
    async set(hash, document) {
      if (!storable(document)) return;
      entries.delete(hash);
      entries.set(hash, document);
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
    },
    async close() {
      entries.clear();
    },
  };
}

interface RedisApqOptions {
  /** The gateway's Redis (src/redis/): its command connection, and the key `apq:<hash>`. */
  redis: SharedRedis;
  ttlSeconds: number;
  warn: (message: string) => void;
}

/** Documents under `<prefix>apq:<hash>`, each expiring `ttlSeconds` after its last registration. */
export function redisApqStore({ redis, ttlSeconds, warn }: RedisApqOptions): ApqStore {
  // The connection fails commands at once while Redis is away (src/redis/policy.ts): a lookup misses.
  const key = (hash: string) => redis.key('apq', hash);
  return {
    async get(hash) {
      try {
        return (await redis.command.get(key(hash))) ?? undefined;
      } catch (err) {
        warn(`APQ store: a lookup failed (${(err as Error).message}); the client is asked for the text`);
        return undefined;
      }
    },
    async set(hash, document) {
      if (!storable(document)) return;
      try {
        await redis.command.set(key(hash), document, 'EX', ttlSeconds);
      } catch (err) {
        warn(`APQ store: a document could not be stored (${(err as Error).message})`);
      }
    },
    // The connection is the gateway's: closed with it.
    async close() {},
  };
}
