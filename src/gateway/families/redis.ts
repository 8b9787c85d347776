// The redis family: the one Redis resource (src/redis/) when REDIS_URL is set, handed to every
// store that shares state across replicas; started before them and closed after them.
import type { Config } from '../../config';
import { type SharedRedis, sharedRedis } from '../../redis/shared-redis';
import type { Resource } from '../lifecycle/resources';

export interface RedisFamily {
  readonly redis: SharedRedis | undefined;
  readonly resources: readonly (Resource | undefined)[];
}

/** `prefix`: of every key and channel (tests use one per run); default the gateway's own. */
export function redisFamily(config: Pick<Config, 'redisUrl'>, prefix: string | undefined): RedisFamily {
  const redis = config.redisUrl ? sharedRedis({ url: config.redisUrl, prefix }) : undefined;
  return { redis, resources: [redis && { name: 'redis', start: () => redis.start(), close: () => redis.close() }] };
}
