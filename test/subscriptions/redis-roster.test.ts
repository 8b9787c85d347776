// friendRequestReceived in multi-replica mode over a real Redis (the run's own, keys under a
// prefix of this run): two gateways share one emulator and poll the identity's requests once for
// the fleet; and a subscription graphql-ws re-sends after a drop to the other replica resumes
// there (the resume positions live in Redis).
import { randomBytes, randomUUID } from 'node:crypto';
import { createClient } from 'graphql-ws';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import WebSocket from 'ws';
import { startEmulator, type TestEmulator } from '../helpers/emulator';
import type { GqlReply } from '../helpers/stack';
import { Feed, wsClient, wsUrl } from '../helpers/subscriptions/clients';
import { maxPolls, pollsObserved } from '../helpers/subscriptions/polls';
import { consentingUser, polledTwice, REQUESTS, type RequestData, requestFriend } from '../helpers/subscriptions/roster';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy';
import { identity } from '../helpers/users';
import { type Replica, startReplicas } from '../helpers/redis-replicas';

const REDIS_URL = inject('redisUrl');
const INTERVAL = 100;
const PREFIX = `im-gateway-test:${randomBytes(6).toString('hex')}:`;

let emu: TestEmulator;
let redis: Redis;
let proxy: TcpProxy;
let replicas: Replica[] = [];

beforeAll(async () => {
  redis = new Redis(REDIS_URL);
  emu = await startEmulator();
  replicas = await startReplicas(emu, { redisUrl: REDIS_URL, prefix: PREFIX, intervalMs: INTERVAL, count: 2 });
  proxy = await startTcpProxy(replicas[0]!.url);
});

afterAll(async () => {
  await proxy?.close();
  for (const { gateway } of replicas) await gateway.stop();
  await emu?.stop();
  const keys = await redis.keys(`${PREFIX}*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

const requestOf = async (feed: Feed<RequestData>) => {
  const result = await feed.next();
  expect(result.errors).toBeUndefined();
  return result.data!.friendRequestReceived;
};

describe('friendRequestReceived on two replicas sharing Redis', () => {
  it('polls once per interval for the fleet and gives each replica’s subscriber each request once', async () => {
    const me = await consentingUser(emu);
    const clients = replicas.map(({ url }) => wsClient(url, identity(emu, me)));
    try {
      const feeds = clients.map((c) => c.feed<RequestData>(REQUESTS));
      await polledTwice(emu, 'GET /roster/apply/list');
      const { polls, ms } = await pollsObserved(emu, 10, (c) => c.endpoint === 'GET /roster/apply/list');
      expect(polls).toBeLessThanOrEqual(maxPolls(ms, INTERVAL));
      const sender = await emu.user();
      await requestFriend(emu, sender, me, 'hello');
      for (const feed of feeds) expect((await requestOf(feed)).request.from.id).toBe(String(sender.id));
      expect(feeds.map((f) => f.pending)).toEqual([0, 0]);
    } finally {
      await Promise.all(clients.map((c) => c.dispose()));
    }
  });

  it('resumes on the other replica a subscription re-sent there after a drop, with its clientKey', async () => {
    const me = await consentingUser(emu);
    let connects = 0;
    let reopen!: () => void;
    const reopened = new Promise<void>((resolve) => (reopen = resolve));
    const client = createClient({
      // The first connection goes to replica A (through the proxy that drops it), the retry to B.
      url: () => wsUrl(connects++ === 0 ? proxy.url : replicas[1]!.url),
      webSocketImpl: WebSocket,
      connectionParams: { ...identity(emu, me), clientKey: randomUUID() },
      retryAttempts: 3,
      shouldRetry: () => true,
      retryWait: () => reopened,
    });
    const feed = new Feed<RequestData>();
    client.subscribe<RequestData>(
      { query: REQUESTS, variables: {} },
      {
        next: (r) => feed.push(r as GqlReply<RequestData>),
        error: (error) => feed.end({ error }),
        complete: () => feed.end({ complete: true }),
      },
    );
    // Another device of the same user on B keeps B's topic going: the retry joins a poll already past b.
    const other = wsClient(replicas[1]!.url, identity(emu, me));
    try {
      const onB = other.feed<RequestData>(REQUESTS);
      await polledTwice(emu, 'GET /roster/apply/list');
      const [a, b] = [await emu.user(), await emu.user()];
      await requestFriend(emu, a, me, 'a');
      expect((await requestOf(feed)).request.message).toBe('a');
      expect((await requestOf(onB)).request.message).toBe('a');
      expect(proxy.drop()).toBe(1);
      await requestFriend(emu, b, me, 'b');
      expect((await requestOf(onB)).request.message).toBe('b');
      reopen();
      expect((await requestOf(feed)).request.message).toBe('b');
      expect(connects).toBe(2);
      expect(feed.pending).toBe(0);
    } finally {
      await Promise.all([client.dispose(), other.dispose()]);
    }
  });
});
