// Multi-replica mode through a Redis outage: the test runs a redis-server of its own, kills it
// while messages are being sent, and starts it again empty. Every subscriber on both replicas
// gets every message once and in order, unread counts keep coming during the outage, a
// subscriber who joins during the outage gets fresh counts, and after Redis returns the replicas
// share one poller per topic again.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { createGateway, type Gateway } from '../../src/gateway/create-gateway';
import { startEmulator, type TestEmulator, type TestUser } from '../helpers/emulator';
import { startRedisServer, type TestRedis } from '../helpers/redis-server';
import { type Feed, wsClient } from '../helpers/subscriptions/clients';
import { sendText, UNREAD, type UnreadData } from '../helpers/subscriptions/operations';
import { maxPolls, pollsObserved } from '../helpers/subscriptions/polls';
import { sleep, until } from '../helpers/wait';
import { identity } from '../helpers/users';

const INTERVAL = 200;
const MESSAGES = 'subscription($with: ID!) { conversationMessages(with: $with) { id content } }';
type MessagesData = { conversationMessages: { id: string; content: string } };

const PREFIX = `outage-test:${randomBytes(4).toString('hex')}:`;

let emu: TestEmulator;
let redis: TestRedis;
/** A client of the test's Redis (it reconnects by itself after the restart). */
let probe: Redis;
const replicas: { gateway: Gateway; url: string }[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  probe = new Redis(redis.url, { lazyConnect: true });
  probe.on('error', () => {}); // refused while the server is down: the test waits for it
  emu = await startEmulator();
  for (let i = 0; i < 2; i++) {
    const env = { PORT: '1', IM_APP_ID: emu.appId, REDIS_URL: redis.url, POLL_INTERVAL_MS: String(INTERVAL) };
    const gateway = createGateway({ ...loadConfig(env), port: 0 }, { imBaseUrl: emu.url, redisPrefix: PREFIX });
    replicas.push({ gateway, url: await gateway.start() });
  }
});

afterAll(async () => {
  for (const { gateway } of replicas) await gateway.stop();
  probe?.disconnect();
  await emu?.stop();
  await redis?.stop();
});

const ids = (feed: Feed<MessagesData>) => feed.results.map((r) => r.data?.conversationMessages.id);
const lastCount = (feed: Feed<UnreadData>) => feed.results.at(-1)?.data?.unreadCounts[0]?.unreadCount;

async function login(user: { name: string; password: string }): Promise<string> {
  return (await emu.ok<{ token: string }>('POST', '/token/user', { body: { name: user.name, password: user.password } })).token;
}

describe('two replicas through a Redis outage', () => {
  it('deliver every message once and in order, keep unread counts coming, and share pollers again afterwards', async () => {
    const me = await emu.user();
    const peer = await emu.user();
    const clients = replicas.map(({ url }) => wsClient(url, identity(emu, me)));
    const joiners: ReturnType<typeof wsClient>[] = [];
    const sent: string[] = [];
    const send = async (n: number, gapMs: number) => {
      for (let i = 0; i < n; i++) {
        sent.push(await sendText(emu, peer, me, `m${sent.length + 1}`));
        await sleep(gapMs);
      }
    };
    try {
      const messages = clients.flatMap((c) => [
        c.feed<MessagesData>(MESSAGES, { with: String(peer.id) }),
        c.feed<MessagesData>(MESSAGES, { with: String(peer.id) }),
      ]);
      const unread = clients.map((c) => c.feed<UnreadData>(UNREAD));
      // Every topic joined, and the conversation's poll has its baseline (a snapshot in Redis).
      for (const feed of unread) await feed.next();
      await until('the conversation polled', async () => (await probe.keys(`${PREFIX}snapshot:*conversation*`)).length === 1);
      await send(2, 0);
      await until('the first messages everywhere', () => messages.every((f) => f.results.length === 2));

      await redis.kill();
      await send(5, 100);
      // Unread counts keep coming on both replicas while Redis is gone.
      await until('unread counts during the outage', () => unread.every((f) => lastCount(f) === 7));
      // A subscriber joining now gets the counts as they are, on a topic the replica has (same
      // token) and on one it opens during the outage (a second login).
      const second: TestUser = { ...me, token: await login(me) };
      joiners.push(wsClient(replicas[1]!.url, identity(emu, me)), wsClient(replicas[0]!.url, identity(emu, second)));
      for (const joiner of joiners) expect(lastCount(await started(joiner.feed<UnreadData>(UNREAD)))).toBe(7);
      await send(5, 100);

      await redis.restart();
      // Leases are taken again: unread for both tokens, and the conversation.
      await until('leases in the new Redis', async () => (await probe.keys(`${PREFIX}lease:*`)).length === 3);
      await send(10, 50);
      await until('every message everywhere', () => messages.every((f) => f.results.length >= sent.length));
      await until('unread counts after the outage', () => unread.every((f) => lastCount(f) === sent.length));
      await sleep(2 * INTERVAL); // anything delivered twice would have arrived by now
      for (const feed of messages) expect(ids(feed)).toEqual(sent);

      // One poller per topic again: two identities' unread counts polled once per interval each.
      const { polls, ms } = await pollsObserved(emu, 16, (c) => c.endpoint === 'GET /message/unread');
      expect(polls).toBeLessThanOrEqual(2 * maxPolls(ms, INTERVAL));
    } finally {
      await Promise.all([...clients, ...joiners].map((c) => c.dispose()));
    }
  });
});

/** The feed, once its first result arrived. */
async function started<T>(feed: Feed<T>): Promise<Feed<T>> {
  await feed.next();
  return feed;
}
