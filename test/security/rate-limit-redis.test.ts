// RATE_LIMIT shared through Redis: two gateways on one Redis hold one bucket per identity (the
// limit holds across them, once each replica has proven the token: proofs are per replica), keys hold no token and expire; with Redis gone the limit fails open,
// warns once for the outage and counts what it let through; Redis back, the limit holds again.
import { captureLog } from '../helpers/log-capture';
import { createLogger, setLogger } from '../../src/log/logger';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway';
import { startEmulator, type TestEmulator, type TestUser } from '../helpers/emulator';
import { startRedisServer, type TestRedis } from '../helpers/redis-server';
import { suiteEnv } from '../helpers/stack';
import { identity } from '../helpers/users';
import { until } from '../helpers/wait';
import { proveToken } from '../helpers/http-from';

const ME = '{ me { nickName } }';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startEmulator();
});
afterAll(() => emu?.stop());

async function replica(redisUrl: string, prefix: string, rateLimit: string): Promise<{ gateway: Gateway; url: string }> {
  const env = { ...suiteEnv(), PORT: '1', IM_APP_ID: emu.appId, REDIS_URL: redisUrl, RATE_LIMIT: rateLimit };
  const gateway = createGateway({ ...loadConfig(env), port: 0 }, { imBaseUrl: emu.url, redisPrefix: prefix });
  return { gateway, url: await gateway.start() };
}

async function post(url: string, user: TestUser): Promise<{ status: number; code: unknown }> {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...identity(emu, user) },
    body: JSON.stringify({ query: ME }),
  });
  const body = (await res.json()) as { errors?: { extensions?: { code?: unknown } }[] };
  return { status: res.status, code: body.errors?.[0]?.extensions?.code };
}

const metric = async (url: string, name: string) =>
  Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(await (await fetch(`${url}/metrics`)).text())?.[1]);

describe('two gateways on one Redis', () => {
  const PREFIX = `rate-limit-test:${randomBytes(4).toString('hex')}:`;
  const replicas: { gateway: Gateway; url: string }[] = [];
  let redis: Redis;
  beforeAll(async () => {
    redis = new Redis(inject('redisUrl'));
    for (let i = 0; i < 2; i++) replicas.push(await replica(inject('redisUrl'), PREFIX, '3/1m'));
  });
  afterAll(async () => {
    for (const { gateway } of replicas) await gateway.stop();
    const keys = await redis.keys(`${PREFIX}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  it('hold the limit across them: the 4th operation is refused on either, before any REST call', async () => {
    const user = await emu.user();
    const [a, b] = replicas.map((r) => r.url) as [string, string];
    // Each replica proves the token on its first sight: both proofs take from the token's one bucket.
    for (const url of [a, b]) await proveToken(url, identity(emu, user));
    emu.mark();
    expect((await post(a, user)).status).toBe(200);
    expect(emu.calls()).toHaveLength(1);
    for (const url of [b, a]) expect(await post(url, user)).toEqual({ status: 429, code: 'RATE_LIMITED' });
    expect(emu.calls()).toHaveLength(1);
    // Another identity is untouched on both.
    const other = await emu.user();
    await proveToken(b, identity(emu, other));
    expect((await post(b, other)).status).toBe(200);
  });

  it('keep buckets under digests, never tokens, each expiring once full again', async () => {
    const user = await emu.user();
    await post(replicas[0]!.url, user);
    const keys = await redis.keys(`${PREFIX}ratelimit:*`);
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      expect(key).not.toContain(user.token);
      const ttl = await redis.pttl(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
    }
  });
});

describe('Redis gone', () => {
  const captured = captureLog('warn');
  let redis: TestRedis;
  let gw: { gateway: Gateway; url: string };
  beforeAll(async () => {
    setLogger(captured.logger);
    redis = await startRedisServer();
    gw = await replica(redis.url, `rate-limit-outage:${randomBytes(4).toString('hex')}:`, '1/1h');
  });
  afterAll(async () => {
    await gw?.gateway.stop();
    await redis?.stop();
    setLogger(createLogger());
  });

  const rateLimitWarnings = () => captured.entries.map((e) => e.msg).filter((line) => line.startsWith('rate limit:'));

  it('lets operations through, warns once and counts them; once Redis is back the limit holds again', async () => {
    const user = await emu.user();
    // The proof was the token's one operation of the hour.
    await proveToken(gw.url, identity(emu, user));
    expect((await post(gw.url, user)).status).toBe(429);

    await redis.kill();
    const failuresBefore = await metric(gw.url, 'im_gateway_rate_limit_redis_failures_total');
    for (let i = 0; i < 3; i++) expect(await post(gw.url, user)).toEqual({ status: 200, code: undefined });
    expect(await metric(gw.url, 'im_gateway_rate_limit_redis_failures_total')).toBe(failuresBefore + 3);
    expect(rateLimitWarnings()).toEqual([expect.stringMatching(/^rate limit: Redis does not answer .*let through/)]);

    // Back, and empty: the bucket starts full, and the limit holds again.
    await redis.restart();
    const fresh = await emu.user();
    await proveToken(gw.url, identity(emu, fresh));
    await until('the limiter uses Redis again', async () => (await post(gw.url, fresh)).status === 429);
    expect(rateLimitWarnings().at(-1)).toMatch(/^rate limit: Redis answers again/);
    expect(rateLimitWarnings().filter((l) => l.includes('does not answer'))).toHaveLength(1);
  });
});
