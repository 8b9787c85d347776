// Lua scripts as commands of the shared command client (EVALSHA through ioredis's defineCommand):
// each store declares its own, by a name no other store uses, and gets them defined on the client
// the first time it reaches for it (the client exists once the resource started).
import type { Redis } from 'ioredis';
import type { SharedRedis } from './shared-redis';

export interface Script {
  /** How many of the script's arguments are keys (KEYS[1..n]); the rest are ARGV. */
  keys: number;
  lua: string;
}

/** The command client with `scripts` defined on it; throws as `redis.command` does before the start. */
export function withScripts(redis: SharedRedis, scripts: Readonly<Record<string, Script>>): () => Redis {
  const defined = new WeakSet<Redis>();
  return () => {
    const client = redis.command;
    if (!defined.has(client)) {
      for (const [name, { keys, lua }] of Object.entries(scripts)) client.defineCommand(name, { numberOfKeys: keys, lua });
      defined.add(client);
    }
    return client;
  };
}
