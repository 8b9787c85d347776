// Gateways in this process sharing one Redis (prefix) and one emulator: replicas of a fleet.
import { loadConfig } from '../../src/config';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { startEmulator, type TestEmulator } from './emulator';
import { lateBound } from './late-bound';

export interface Replica {
  gateway: Gateway;
  url: string;
}

/** Starts `count` replicas polling every `intervalMs`, on free ports; `env`: more settings. */
export async function startReplicas(
  emu: TestEmulator,
  o: { redisUrl: string; prefix: string; intervalMs: number; count: number; env?: Record<string, string> },
) {
  const replicas: Replica[] = [];
  for (let i = 0; i < o.count; i++) {
    const env = { PORT: '1', IM_APP_ID: emu.appId, REDIS_URL: o.redisUrl, POLL_INTERVAL_MS: String(o.intervalMs), ...o.env };
    const gateway = createGateway({ ...loadConfig(env), port: 0 }, { imBaseUrl: emu.url, redisPrefix: o.prefix });
    replicas.push({ gateway, url: await gateway.start() });
  }
  return replicas;
}

export interface ReplicaFleet {
  emu: TestEmulator;
  /** A client of the run's Redis (the test's own reads of keys and channels). */
  redis: Redis;
  replicas: Replica[];
  prefix: string;
}

/**
 * For the test file: an emulator and `count` replicas on the run's Redis under a prefix of their
 * own, started before its tests; stopped after them, their keys deleted.
 */
export function useReplicas(o: { redisUrl: string; intervalMs: number; count: number; env?: Record<string, string> }): ReplicaFleet {
  let fleet: ReplicaFleet | undefined;
  beforeAll(async () => {
    const prefix = `im-gateway-test:${randomBytes(6).toString('hex')}:`;
    const emu = await startEmulator();
    fleet = { emu, redis: new Redis(o.redisUrl), prefix, replicas: await startReplicas(emu, { ...o, prefix }) };
  });
  afterAll(async () => {
    if (!fleet) return;
    for (const { gateway } of fleet.replicas) await gateway.stop();
    await fleet.emu.stop();
    const keys = await fleet.redis.keys(`${fleet.prefix}*`);
    if (keys.length) await fleet.redis.del(...keys);
    fleet.redis.disconnect();
  });
  return lateBound(() => fleet, 'the replicas');
}
