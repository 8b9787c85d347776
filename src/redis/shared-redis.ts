// The gateway's one Redis resource (REDIS_URL): two connections per replica, handed to every
// feature that keeps state across replicas.
// - `command`: every store's commands and scripts (APQ, rate-limit and sign-in buckets,
//   subscription slots, poll leases and snapshots, resume positions), pipelined by ioredis.
// - `subscriber`: pub/sub only (a subscribed connection can send no other command): the channels
//   the fleet's pollers publish on, and any other fan-out. Its listeners get every channel's
//   messages: each filters its own channels before reading one.
// Keys and channels come from `key(...)` (keys.ts), so the deployment's prefix is set once.
import type { Redis } from 'ioredis';
import { connectRedis } from './connect';
import { type KeyOf, keyspace } from './keys';

export interface SharedRedisOptions {
  url: string;
  /** Prepended to every key and channel; default DEFAULT_PREFIX. */
  prefix?: string | undefined;
}

export interface SharedRedis {
  /** Connects both clients; fails with a clear message when Redis cannot be reached. */
  start(): Promise<void>;
  /** The command connection; throws until started (stores catch it as Redis not answering). */
  readonly command: Redis;
  /** The pub/sub connection; throws until started. */
  readonly subscriber: Redis;
  /** The namespaced name of a key or channel. */
  readonly key: KeyOf;
  /** Quits both connections (the stores using them are closed before). */
  close(): Promise<void>;
}

/** CLIENT SETNAME of each connection (what `CLIENT LIST` shows per replica). */
export const CONNECTION_NAMES = { command: 'im-gateway', subscriber: 'im-gateway-sub' } as const;

export function sharedRedis({ url, prefix }: SharedRedisOptions): SharedRedis {
  let clients: { command: Redis; subscriber: Redis } | undefined;
  const connected = () => {
    if (!clients) throw new Error('Redis is not connected');
    return clients;
  };
  return {
    key: keyspace(prefix),
    get command() {
      return connected().command;
    },
    get subscriber() {
      return connected().subscriber;
    },
    async start() {
      if (clients) return;
      const [command, subscriber] = await connectRedis(url, [CONNECTION_NAMES.command, CONNECTION_NAMES.subscriber]);
      clients = { command: command!, subscriber: subscriber! };
    },
    async close() {
      const open = clients;
      clients = undefined;
      if (!open) return;
      await Promise.all([open.command.quit(), open.subscriber.quit()]).catch(() => {
        open.command.disconnect();
        open.subscriber.disconnect();
      });
    },
  };
}
