// The one builder of the gateway's Redis clients: every connection is made here, with the one
// timeout policy (policy.ts). ioredis is loaded only when a gateway has REDIS_URL.
import type { Redis } from 'ioredis';
import { log } from '../log/logger';
import { CONNECTION_POLICY } from './policy';

/**
 * Connects one client per name (its CLIENT SETNAME, for `CLIENT LIST`), failing with a clear
 * message when Redis cannot be reached. Once connected, trouble is warned once per outage (each
 * client reconnects by itself; its commands fail at once meanwhile).
 */
export async function connectRedis(url: string, names: readonly string[]): Promise<Redis[]> {
  const { Redis } = await import('ioredis');
  const clients = names.map((connectionName) => new Redis(url, { ...CONNECTION_POLICY, connectionName }));
  let connecting = true;
  let cause = '';
  for (const client of clients) {
    let away = false;
    client.on('ready', () => (away = false));
    client.on('error', (err: Error) => {
      if (connecting) cause = err.message;
      else if (!away) {
        away = true;
        log().warn({ component: 'redis' }, `redis: ${client.options.connectionName}: ${err.message} (reconnecting)`);
      }
    });
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
