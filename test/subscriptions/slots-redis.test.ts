// MAX_SUBSCRIPTIONS_PER_IDENTITY across replicas sharing a Redis (the run's own, keys under a prefix of
// the run's own): the identity's subscriptions on both count against one limit; a replica that
// dies without releasing its slots loses them when its lease expires; with Redis gone, a
// subscription is admitted on the replica's own count (fail open), counted in /metrics.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway';
import { identityHash } from '../../src/identity';
import { sharedRedis } from '../../src/redis/shared-redis';
import { redisSlotStore } from '../../src/subscriptions/slots-redis';
import { startEmulator, type TestEmulator } from '../helpers/emulator';
import { startRedisServer } from '../helpers/redis-server';
import { sseFeed, wsClient } from '../helpers/subscriptions/clients';
import { admittedEventually, limitRefusal } from '../helpers/subscriptions/limits';
import { UNREAD, type UnreadData } from '../helpers/subscriptions/operations';
import { suiteEnv } from '../helpers/stack';
import { identity } from '../helpers/users';
import { sleep } from '../helpers/wait';

const REDIS_URL = inject('redisUrl');
const PREFIX = `im-gateway-test:${randomBytes(6).toString('hex')}:`;
const LIMIT = 3;
const LEASE_MS = 1_000;
const env = (redisUrl: string) => ({
  ...suiteEnv(),
  PORT: '1',
  IM_APP_ID: emu.appId,
  REDIS_URL: redisUrl,
  POLL_INTERVAL_MS: '200',
  MAX_SUBSCRIPTIONS_PER_IDENTITY: String(LIMIT),
});

let emu: TestEmulator;
let redis: Redis;
const gateways: Gateway[] = [];

async function startGateway(redisUrl = REDIS_URL): Promise<string> {
  const gateway = createGateway(
    { ...loadConfig(env(redisUrl)), port: 0 },
    { imBaseUrl: emu.url, redisPrefix: PREFIX, subscriptionLeaseMs: LEASE_MS },
  );
  gateways.push(gateway);
  return gateway.start();
}

beforeAll(async () => {
  redis = new Redis(REDIS_URL);
  emu = await startEmulator();
});

afterAll(async () => {
  for (const gateway of gateways) await gateway.stop();
  await emu?.stop();
  const keys = await redis.keys(`${PREFIX}*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

describe('MAX_SUBSCRIPTIONS_PER_IDENTITY with Redis', () => {
  it('holds across two replicas, WebSocket and SSE: the one over it is refused, and a slot freed on one admits on the other', async () => {
    const [a, b] = [await startGateway(), await startGateway()];
    const me = await emu.user();
    const onA = wsClient(a, identity(emu, me));
    const onB = wsClient(b, identity(emu, me));
    try {
      const held = [onA.feed<UnreadData>(UNREAD), onA.feed<UnreadData>(UNREAD), sseFeed<UnreadData>(b, identity(emu, me), UNREAD)];
      for (const feed of held) expect(await limitRefusal(feed)).toBeUndefined();
      expect(await limitRefusal(onB.feed(UNREAD))).toEqual({ code: 'SUBSCRIPTION_LIMIT', limit: LIMIT, scope: 'identity' });
      expect(await limitRefusal(onA.feed(UNREAD))).toMatchObject({ scope: 'identity' });
      await held[0]!.close();
      await admittedEventually(() => onB.feed<UnreadData>(UNREAD));
      expect(await limitRefusal(sseFeed(a, identity(emu, me), UNREAD))).toMatchObject({ scope: 'identity' });
    } finally {
      await Promise.all([onA.dispose(), onB.dispose()]);
    }
  });

  it('frees the slots of a replica that died without releasing them once its lease expires', async () => {
    const main = await startGateway();
    const me = await emu.user();
    // The other replica, as far as Redis sees one: its store, holding the identity's every slot.
    const key = identityHash({ appId: emu.appId, token: me.token }, emu.appId);
    const held = new Map([[key, LIMIT]]);
    const otherRedis = sharedRedis({ url: REDIS_URL, prefix: PREFIX });
    await otherRedis.start();
    const other = redisSlotStore({ redis: otherRedis, limit: LIMIT, leaseMs: LEASE_MS, held: () => held });
    const onMain = wsClient(main, identity(emu, me));
    try {
      expect(await other.claim(key, LIMIT)).toBe(true);
      // Alive, it renews its count past its lease: the slots stay taken.
      await sleep(2 * LEASE_MS);
      expect(await limitRefusal(onMain.feed(UNREAD))).toMatchObject({ scope: 'identity' });
      // It dies: no release, no renewal. Its slots free when its count expires.
      await other.close();
      const feed = await admittedEventually(() => onMain.feed<UnreadData>(UNREAD));
      expect(feed.results[0]?.data?.unreadCounts).toEqual([]);
    } finally {
      await otherRedis.close();
      await onMain.dispose();
    }
  });

  it("admits on the replica's own count while Redis is down (fail open), and says so in /metrics", async () => {
    const own = await startRedisServer();
    try {
      const url = await startGateway(own.url);
      const me = await emu.user();
      const client = wsClient(url, identity(emu, me));
      try {
        expect(await limitRefusal(client.feed(UNREAD))).toBeUndefined();
        await own.kill();
        expect(await limitRefusal(client.feed(UNREAD))).toBeUndefined();
        expect(await limitRefusal(client.feed(UNREAD))).toBeUndefined();
        // This replica alone holds the limit now.
        expect(await limitRefusal(client.feed(UNREAD))).toMatchObject({ scope: 'identity' });
        const metrics = await (await fetch(`${url}/metrics`)).text();
        expect(metrics).toMatch(/^im_gateway_subscription_limit_fail_open_total 2$/m);
      } finally {
        await client.dispose();
      }
    } finally {
      await own.stop();
    }
  });
});
