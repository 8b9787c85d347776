// The one timeout policy of the gateway's Redis connections. Redis serves the request path (rate
// limits, APQ, subscription slots, resume positions) and the fleet's background ticks alike:
// while it is away a command fails at once (no offline queue), and a slow or silently
// partitioned Redis costs a command at most COMMAND_TIMEOUT_MS, after which its caller degrades
// (lets the operation through, misses, admits on its own count, polls in process).
import type { RedisOptions } from 'ioredis';

/** The longest wait for one command's answer: the most a slow Redis adds to a request. */
export const COMMAND_TIMEOUT_MS = 1_000;

/** The longest wait for a connection to open (at start, and each reconnection). */
export const CONNECT_TIMEOUT_MS = 5_000;

export const CONNECTION_POLICY: Readonly<RedisOptions> = {
  lazyConnect: true,
  enableOfflineQueue: false,
  // A command in flight when the connection drops fails at the first reconnection attempt after it.
  maxRetriesPerRequest: 1,
  connectTimeout: CONNECT_TIMEOUT_MS,
  commandTimeout: COMMAND_TIMEOUT_MS,
};
