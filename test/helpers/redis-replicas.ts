// Gateways in this process sharing one Redis (prefix) and one emulator: replicas of a fleet.
import { loadConfig } from '../../src/config';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway';
import type { TestEmulator } from './emulator';

export interface Replica {
  gateway: Gateway;
  url: string;
}

/** Starts `count` replicas polling every `intervalMs`, on free ports. */
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
