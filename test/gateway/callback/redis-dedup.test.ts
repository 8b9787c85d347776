// Exactly once across the fleet (issue 41 item 2): two gateways on one Redis receive the same
// callbacks (the service may repeat them, or a load balancer send them to either replica); each
// appId + msgId is handed on by one of them only.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../../src/config';
import { createGateway, type Gateway } from '../../../src/gateway/create-gateway';
import { callbackBody, CALLBACK_SECRET, metric, postCallback, recordingSink } from '../../helpers/callbacks';
import { useEmulator } from '../../helpers/emulator';
import { suiteEnv } from '../../helpers/stack';
import { until } from '../../helpers/wait';

const REDIS_URL = inject('redisUrl');
const PREFIX = `im-gateway-test:${randomBytes(6).toString('hex')}:`;
const emu = useEmulator();
const replicas: { gateway: Gateway; url: string; sink: ReturnType<typeof recordingSink> }[] = [];

beforeAll(async () => {
  for (let i = 0; i < 2; i++) {
    const sink = recordingSink();
    const config = loadConfig({ PORT: '1', ...suiteEnv(), IM_APP_ID: emu.appId, IM_CALLBACK_SECRET: CALLBACK_SECRET, REDIS_URL });
    const gateway = createGateway({ ...config, port: 0 }, { imBaseUrl: emu.url, redisPrefix: PREFIX, callbackSink: sink });
    replicas.push({ gateway, sink, url: await gateway.start() });
  }
});
afterAll(async () => {
  await Promise.all(replicas.map((r) => r.gateway.stop()));
});

describe('two gateways on one Redis', () => {
  it('hand each appId + msgId on once, whichever replica and however often it arrives', async () => {
    const bodies = Array.from({ length: 20 }, () => callbackBody(emu.appId));
    // Every callback three times to each replica, all at once.
    const posts = bodies.flatMap((body) => replicas.flatMap((r) => [1, 2, 3].map(() => postCallback(r.url, body))));
    const replies = await Promise.all(posts);
    expect(replies.every((r) => r.status === 200)).toBe(true);
    const handled = async () => {
      let total = 0;
      for (const r of replicas) total += r.sink.messages.length + (await metric(r.url, 'im_gateway_callback_duplicates_total'));
      return total;
    };
    await until('every callback handed on or counted a repeat', async () => (await handled()) === posts.length);
    const delivered = replicas.flatMap((r) => r.sink.messages.map((m) => m.msgId)).sort();
    expect(delivered).toEqual(bodies.map((b) => String(b.msgId)).sort());
  });

  it('remember a message ID in Redis for IM_CALLBACK_DEDUP_SECONDS, under the gateway prefix', async () => {
    const body = callbackBody(emu.appId);
    expect((await postCallback(replicas[1]!.url, body)).status).toBe(200);
    await until('the message handed on', () => replicas[1]!.sink.messages.some((m) => m.msgId === body.msgId));
    const redis = new Redis(REDIS_URL);
    try {
      const ttl = await redis.pttl(`${PREFIX}callback:${emu.appId}:${String(body.msgId)}`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(600_000);
    } finally {
      redis.disconnect();
    }
  });
});
