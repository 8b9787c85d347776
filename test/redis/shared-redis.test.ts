// The gateway's one Redis resource (src/redis/): a replica with every Redis feature in use holds
// two connections (one for commands, one for pub/sub), and every key it writes carries the
// deployment's prefix. A Redis of the test's own, so that CLIENT LIST shows only this replica.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway';
import { keyspace } from '../../src/redis/keys';
import { CONNECTION_NAMES } from '../../src/redis/shared-redis';
import { startEmulator, type TestEmulator } from '../helpers/emulator';
import { startRedisServer, type TestRedis } from '../helpers/redis-server';
import { suiteEnv } from '../helpers/stack';
import { wsClient } from '../helpers/subscriptions/clients';
import { UNREAD } from '../helpers/subscriptions/operations';
import { identity } from '../helpers/users';
import { persistedQuery, post, sha256 } from '../gateway/persisted/send';
import { until } from '../helpers/wait';

const PREFIX = `shared-redis-test:${randomBytes(4).toString('hex')}:`;

let emu: TestEmulator;
let redis: TestRedis;
let probe: Redis;
let gateway: Gateway;
let url: string;

beforeAll(async () => {
  [emu, redis] = await Promise.all([startEmulator(), startRedisServer()]);
  probe = new Redis(redis.url);
  const env = { ...suiteEnv(), PORT: '1', IM_APP_ID: emu.appId, REDIS_URL: redis.url, RATE_LIMIT: '10/1m' };
  gateway = createGateway({ ...loadConfig(env), port: 0 }, { imBaseUrl: emu.url, redisPrefix: PREFIX });
  url = await gateway.start();
});

afterAll(async () => {
  await gateway?.stop();
  probe?.disconnect();
  await Promise.all([emu?.stop(), redis?.stop()]);
});

/** The names of the connections other than the probe's (CLIENT LIST, one line a connection). */
async function gatewayConnections(): Promise<string[]> {
  const list = (await probe.client('LIST')) as string;
  const mine = (await probe.client('ID')) as number;
  return list
    .trim()
    .split('\n')
    .filter((line) => !line.startsWith(`id=${mine} `))
    .map((line) => /\bname=(\S*)/.exec(line)?.[1] ?? '')
    .sort();
}

describe('one Redis resource per replica', () => {
  it('holds two connections, one for commands and one for pub/sub, with every Redis feature in use', async () => {
    const me = await emu.user();
    // The rate limit, an APQ registration, a subscription's slot and its shared poll (lease, snapshot, channel).
    const query = '{ me { id } }';
    const registered = await post(url, { query, extensions: persistedQuery(sha256(query)) }, identity(emu, me));
    expect(registered.body).toEqual({ data: { me: { id: String(me.id) } } });
    const client = wsClient(url, identity(emu, me));
    try {
      await client.feed(UNREAD).next();
      await until('the shared poll announced in Redis', async () => (await probe.keys(`${PREFIX}snapshot:*`)).length > 0);
      expect(await gatewayConnections()).toEqual([CONNECTION_NAMES.command, CONNECTION_NAMES.subscriber].sort());
      // Every key the replica wrote is under its prefix.
      const keys = await probe.keys('*');
      expect(keys.length).toBeGreaterThan(2);
      expect(keys.filter((key) => !key.startsWith(PREFIX))).toEqual([]);
      expect(keys.some((key) => key.startsWith(`${PREFIX}apq:`))).toBe(true);
      expect(keys.some((key) => key.startsWith(`${PREFIX}ratelimit:`))).toBe(true);
    } finally {
      await client.dispose();
    }
  });
});

describe('keyspace', () => {
  it("joins a key's parts after the prefix, the gateway's own when none is given", () => {
    expect(keyspace()('apq', 'abc')).toBe('im-gateway:apq:abc');
    expect(keyspace('test:')('sign-in', 'address', 'k')).toBe('test:sign-in:address:k');
  });
});
