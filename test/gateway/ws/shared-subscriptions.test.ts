// WebSocket subscribers of the same operation for the same identity share one execution: each
// event is resolved once for all of them (its nested fields' REST calls made once), a subscriber
// who joins late gets the latest unread counts at once but no earlier message, and one who
// leaves leaves the others running.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../helpers/stack';
import { wsClient } from '../../helpers/subscriptions/clients';
import { sendText, UNREAD, type UnreadData } from '../../helpers/subscriptions/operations';
import { baselineSet, openSubscriptions } from '../../helpers/subscriptions/polls';
import { sleep, until } from '../../helpers/wait';
import { identity } from '../../helpers/users';

const INTERVAL = 100;
const MESSAGES = 'subscription($with: ID!) { conversationMessages(with: $with) { id content } }';
type MessagesData = { conversationMessages: { id: string; content: string } };

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ POLL_INTERVAL_MS: String(INTERVAL) });
});
afterAll(() => stack.stop());

const count = (result: { data?: UnreadData | null }) => result.data?.unreadCounts[0]?.unreadCount;

describe('subscribers of one operation and identity', () => {
  it('share one execution: each event resolved once, the latest counts replayed to a late joiner', async () => {
    const me = await stack.emu.user();
    const peer = await stack.emu.user();
    await sendText(stack.emu, peer, me, 'hello');
    const clients = Array.from({ length: 4 }, () => wsClient(stack.url, identity(stack.emu, me)));
    try {
      const feeds = clients.slice(0, 3).map((c) => c.feed<UnreadData>(UNREAD));
      for (const feed of feeds) expect(count(await feed.next())).toBe(1);

      stack.emu.mark();
      await sendText(stack.emu, peer, me, 'again');
      for (const feed of feeds) expect(count(await feed.next())).toBe(2);
      // `user` and `group` of the event resolved once for the three (one batch call), not thrice.
      expect(stack.emu.calls('POST /group/info/batch').length).toBe(1);

      const late = clients[3]!.feed<UnreadData>(UNREAD);
      expect(count(await late.next())).toBe(2);
      expect(stack.emu.calls('POST /group/info/batch').length).toBe(1);
      await sleep(3 * INTERVAL); // anything sent twice would have come by now
      for (const feed of [...feeds, late]) expect(feed.pending).toBe(0);
    } finally {
      await Promise.all(clients.map((c) => c.dispose()));
    }
  });

  it('each get each message once; a late joiner only what comes next; one leaving leaves the others running', async () => {
    const me = await stack.emu.user();
    const peer = await stack.emu.user();
    const [a, b, c] = Array.from({ length: 3 }, () => wsClient(stack.url, identity(stack.emu, me)));
    try {
      const early = [a!, b!].map((client) => client.feed<MessagesData>(MESSAGES, { with: String(peer.id) }));
      await baselineSet(stack.emu, peer);
      const first = await sendText(stack.emu, peer, me, 'one');
      for (const feed of early) expect((await feed.next()).data?.conversationMessages).toEqual({ id: first, content: 'one' });

      const late = c!.feed<MessagesData>(MESSAGES, { with: String(peer.id) });
      // It gets only what comes after it joined: send once it has.
      await until('the late subscriber joined', async () => (await openSubscriptions(stack.url)) === 3);
      const second = await sendText(stack.emu, peer, me, 'two');
      for (const feed of [...early, late]) expect((await feed.next()).data?.conversationMessages).toEqual({ id: second, content: 'two' });

      await a!.dispose();
      const third = await sendText(stack.emu, peer, me, 'three');
      for (const feed of [early[1]!, late]) expect((await feed.next()).data?.conversationMessages).toEqual({ id: third, content: 'three' });
      await sleep(3 * INTERVAL);
      for (const feed of [early[1]!, late]) expect(feed.pending).toBe(0);
    } finally {
      await Promise.all([a, b, c].map((client) => client!.dispose()));
    }
  });
});
