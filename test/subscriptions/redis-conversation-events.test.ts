// conversationEvents in multi-replica mode over a real Redis (the run's own, keys under a prefix
// of this run): two gateways share one emulator; the conversation is polled by one of them, and a
// subscriber on the other gets MessageReceived and MessageRecalled through Redis, and resumes
// after a message ID, each message once.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startEmulator, type TestEmulator } from '../helpers/emulator';
import { wsClient } from '../helpers/subscriptions/clients';
import { EVENTS, type EventData, sendText, take } from '../helpers/subscriptions/operations';
import { maxPolls, pollsObserved } from '../helpers/subscriptions/polls';
import { sleep, until } from '../helpers/wait';
import { identity } from '../helpers/users';
import { type Replica, startReplicas } from '../helpers/redis-replicas';

const REDIS_URL = inject('redisUrl');
const INTERVAL = 100;
const PREFIX = `im-gateway-test:${randomBytes(6).toString('hex')}:`;

let emu: TestEmulator;
let redis: Redis;
let replicas: Replica[] = [];

beforeAll(async () => {
  redis = new Redis(REDIS_URL);
  emu = await startEmulator();
  replicas = await startReplicas(emu, { redisUrl: REDIS_URL, prefix: PREFIX, intervalMs: INTERVAL, count: 2 });
});

afterAll(async () => {
  for (const { gateway } of replicas) await gateway.stop();
  await emu?.stop();
  const keys = await redis.keys(`${PREFIX}*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

/** Waits until both replicas listen on the conversation's channel: a subscriber on B gets what A publishes next. */
async function bothListen(): Promise<void> {
  await until('both replicas on the channel', async () => {
    const channels = (await redis.pubsub('CHANNELS', `${PREFIX}*`)) as string[];
    if (channels.length !== 1) return false;
    const [, count] = (await redis.pubsub('NUMSUB', channels[0]!)) as [string, number];
    return count === 2;
  });
}

describe('conversationEvents on two replicas sharing Redis', () => {
  it("gives the other replica's subscriber MessageReceived and MessageRecalled, and resumes it after a message ID", async () => {
    const [me, peer] = [await emu.user(), await emu.user()];
    const [onA, onB] = replicas.map(({ url }) => wsClient(url, identity(emu, me)));
    const reads = () => emu.calls('GET /message/conversation').filter((c) => c.query.opposite_id === String(peer.id));
    try {
      // A's subscriber comes first: A takes the lease and polls; its first rounds set the baseline.
      emu.mark();
      const onAFeed = onA!.feed<EventData>(EVENTS, { with: String(peer.id) });
      await until('A polls the conversation twice', () => reads().length >= 2);
      expect(await redis.keys(`${PREFIX}lease:*`)).toHaveLength(1);
      let feed = onB!.feed<EventData>(EVENTS, { with: String(peer.id) });
      await bothListen();

      const hi = await sendText(emu, peer, me, 'hi');
      const two = await sendText(emu, me, peer, 'two');
      const received = [
        { __typename: 'MessageReceived', conversationId: String(peer.id), messageId: hi, message: { id: hi, content: 'hi' } },
        { __typename: 'MessageReceived', conversationId: String(peer.id), messageId: two, message: { id: two, content: 'two' } },
      ];
      expect(await take(feed, 2)).toEqual(received);
      expect(await take(onAFeed, 2)).toEqual(received);

      await emu.ok('POST', '/message/recall', { token: peer.token, body: { conversation_id: me.id, msg_id: BigInt(hi) } });
      expect(await take(feed, 1)).toEqual([{ __typename: 'MessageRecalled', conversationId: String(peer.id), messageId: hi }]);

      // One poller for the fleet: about one newest-page read per interval, not two.
      const newest = await pollsObserved(
        emu,
        10,
        (c) => c.endpoint === 'GET /message/conversation' && c.query.opposite_id === String(peer.id) && c.query.msg_id_start === '0',
      );
      expect(newest.polls).toBeLessThanOrEqual(maxPolls(newest.ms, INTERVAL));

      // B's subscriber goes away; messages come meanwhile; it comes back after the last it got.
      await feed.close();
      const missed = [await sendText(emu, peer, me, 'three'), await sendText(emu, peer, me, 'four')];
      feed = onB!.feed<EventData>(EVENTS, { with: String(peer.id), after: two });
      expect((await take(feed, 2)).map((e) => [e.__typename, e.messageId])).toEqual(missed.map((id) => ['MessageReceived', id]));
      await bothListen();
      const five = await sendText(emu, peer, me, 'five');
      expect((await take(feed, 1)).map((e) => e.message?.content)).toEqual(['five']);
      expect((await take(onAFeed, 4)).map((e) => [e.__typename, e.messageId])).toEqual([
        ['MessageRecalled', hi],
        ...[...missed, five].map((id) => ['MessageReceived', id]),
      ]);
      await sleep(INTERVAL * 5);
      expect(feed.pending + onAFeed.pending).toBe(0);
    } finally {
      await Promise.all([onA!.dispose(), onB!.dispose()]);
    }
  });
});
