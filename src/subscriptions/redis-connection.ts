// Redis connections of the subscription machinery (the fleet's pollers, the subscription slots):
// no offline queue and a command timeout, so that while Redis is away commands fail at once rather
// than wait, and callers degrade (poll in process, admit without the fleet's count).
import type { Redis, RedisOptions } from 'ioredis';

interface RedisConnectionOptions {
  /** Longest wait for one command's answer (a timeout also catches a silent partition). */
  commandTimeoutMs: number;
  /** Connection errors once connected (ioredis reconnects by itself). */
  warn(message: string): void;
}

/** Connects one client per name, failing with a clear message when Redis cannot be reached. */
export async function connectRedis(url: string, names: readonly string[], options: RedisConnectionOptions): Promise<Redis[]> {
  // Loaded only in multi-replica mode: without REDIS_URL the gateway never needs the package.
  const { Redis } = await import('ioredis');
  const connection: RedisOptions = {
    lazyConnect: true,
    maxRetriesPerRequest: 2,
    connectTimeout: 5_000,
    enableOfflineQueue: false,
    commandTimeout: options.commandTimeoutMs,
  };
  const clients = names.map((connectionName) => new Redis(url, { ...connection, connectionName }));
  let connecting = true;
  let cause = '';
  for (const client of clients) {
    client.on('error', (err: Error) => (connecting ? (cause = err.message) : options.warn(err.message)));
  }
  try {
    await Promise.all(clients.map((c) => c.connect()));
    connecting = false;
  } catch (err) {
    for (const c of clients) c.disconnect();
    throw new Error(`cannot connect to Redis at ${new URL(url).host}: ${cause || (err as Error).message}`);
  }
  return clients;
}

/** Lua scripts as commands of a client: `keys` is how many of a script's arguments are keys. */
export function defineScripts(redis: Redis, scripts: Readonly<Record<string, { keys: number; lua: string }>>): void {
  for (const [name, { keys, lua }] of Object.entries(scripts)) redis.defineCommand(name, { numberOfKeys: keys, lua });
}
