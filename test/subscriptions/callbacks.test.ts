// Live updates from the service's message callback, handed to the gateway's sink (the hub's
// `deliver`, as the callback route does once it accepted a message), over real sockets: both
// sides of a one-to-one conversation get MessageReceived built from the callback (no history
// read), nobody who is no party gets it, duplicates and out-of-order callbacks give each event
// once, unreadCounts is re-read (coalesced) instead of waiting for its timer, and the poll stays
// the safety net: a message no callback brought is found, delivered once, and puts the identity
// back on the fast interval.
import { describe, expect, it } from 'vitest';
import type { TestEmulator, TestUser } from '../helpers/emulator';
import { type Stack, useStack } from '../helpers/stack';
import { createGroup } from '../helpers/groups';
import { metric } from '../helpers/callbacks';
import { chat } from '../helpers/subscriptions/callbacks';
import { type Feed, wsClient } from '../helpers/subscriptions/clients';
import { EVENTS, type EventData, sendText, take, UNREAD, type UnreadData } from '../helpers/subscriptions/operations';
import { pollsStopped } from '../helpers/subscriptions/polls';
import { until } from '../helpers/wait';
import { identity } from '../helpers/users';

const FAST = 100;

const received = (peer: TestUser, id: string, content: string) => ({
  __typename: 'MessageReceived',
  conversationId: String(peer.id),
  messageId: id,
  message: { id, content },
});

/** Reads of the conversation of `viewer` (by token) with `peer`, since the emulator's mark. */
const readsOf = (emu: TestEmulator, peer: TestUser) =>
  emu.calls('GET /message/conversation').filter((c) => c.query.opposite_id === String(peer.id)).length;

/**
 * Slows the gateway's polls with a first callback (between two users nobody here watches), and
 * waits until the polls went quiet (a poll asleep at the fast interval when they slowed runs once more).
 */
async function slowDown(stack: Stack): Promise<void> {
  const [a, b] = [await stack.emu.user(), await stack.emu.user()];
  stack.gateway.callbacks.deliver(chat(stack.emu, a, b, '1', 'warm-up'));
  await until('the polls slowed', async () => (await metric(stack.url, 'im_gateway_subscription_polls_slowed')) === 1);
  await pollsStopped(stack.emu, FAST, (c) => c.endpoint === 'GET /message/conversation');
  stack.emu.mark();
}

describe('with callbacks, the slow interval far away', () => {
  const stack = useStack({ POLL_INTERVAL_MS: String(FAST), POLL_INTERVAL_WITH_CALLBACKS_MS: '600000' });

  it('gives both sides MessageReceived from the callback with no history read, each once whatever the order or repeats, and no one else anything', async () => {
    const { emu } = stack;
    const [me, peer, stranger, other] = [await emu.user(), await emu.user(), await emu.user(), await emu.user()];
    const clients = [me, peer, stranger].map((u) => wsClient(stack.url, identity(emu, u)));
    try {
      const mine = clients[0]!.feed<EventData>(EVENTS, { with: String(peer.id) });
      const theirs = clients[1]!.feed<EventData>(EVENTS, { with: String(me.id) });
      // The stranger watches its own conversation with the peer: the peer's messages to me are not in it.
      const strangers = clients[2]!.feed<EventData>(EVENTS, { with: String(peer.id) });
      emu.mark();
      await until('three conversations polled twice', () => readsOf(emu, peer) >= 4 && readsOf(emu, me) >= 2);
      await slowDown(stack);

      const hi = await sendText(emu, peer, me, 'hi');
      stack.gateway.callbacks.deliver(chat(emu, peer, me, hi, 'hi'));
      expect(await take(mine, 1)).toEqual([received(peer, hi, 'hi')]);
      expect(await take(theirs, 1)).toEqual([received(me, hi, 'hi')]);
      expect(readsOf(emu, peer) + readsOf(emu, me)).toBe(0);

      // A message between the peer and someone else, and one naming me from another: no party's subscription hears it.
      stack.gateway.callbacks.deliver(chat(emu, peer, other, '9000000000000000001', 'not yours'));
      stack.gateway.callbacks.deliver(chat(emu, other, me, '9000000000000000002', 'not this conversation'));

      // Out of order and repeated: each once, as the callbacks came.
      const [two, three] = [await sendText(emu, me, peer, 'two'), await sendText(emu, me, peer, 'three')];
      for (const [id, text] of [
        [three, 'three'],
        [two, 'two'],
        [three, 'three'],
      ] as const) {
        stack.gateway.callbacks.deliver(chat(emu, me, peer, id, text));
      }
      const four = await sendText(emu, peer, me, 'four');
      stack.gateway.callbacks.deliver(chat(emu, peer, me, four, 'four'));
      expect(await take(mine, 3)).toEqual([received(peer, three, 'three'), received(peer, two, 'two'), received(peer, four, 'four')]);
      expect(await take(theirs, 3)).toEqual([received(me, three, 'three'), received(me, two, 'two'), received(me, four, 'four')]);
      expect(strangers.pending).toBe(0);
      expect(mine.pending).toBe(0);
    } finally {
      await Promise.all(clients.map((c) => c.dispose()));
    }
  });

  it("gives a GROUPCHAT callback to the group's subscribers whose poll read the group, and nothing to one who is no member", async () => {
    const { emu } = stack;
    const [owner, member, outsider] = [await emu.user(), await emu.user(), await emu.user()];
    const group = await createGroup(emu, owner, { members: [member] });
    const clients = [member, outsider].map((u) => wsClient(stack.url, identity(emu, u)));
    try {
      const members = clients[0]!.feed<EventData>(EVENTS, { with: String(group) });
      const outsiders = clients[1]!.feed<EventData>(EVENTS, { with: String(group) });
      emu.mark();
      // Both polls' first rounds (the gateway is slowed: the test before): the member's read the group, the outsider's was refused.
      await until(
        'both polled the group',
        () => emu.calls('GET /message/conversation').filter((c) => c.query.opposite_id === String(group)).length >= 2,
      );
      const reply = await emu.rest('POST', '/message/send', {
        token: owner.token,
        body: { content_type: 0, content: 'to all', attachment: '', targets: [group], type: 2 },
      });
      const id = String(reply.msg_ids![0]);
      stack.gateway.callbacks.deliver({ ...chat(emu, owner, member, id, 'to all'), to: String(group), type: 'GROUPCHAT' });
      expect(await take(members, 1)).toEqual([
        { __typename: 'MessageReceived', conversationId: String(group), messageId: id, message: { id, content: 'to all' } },
      ]);
      expect(outsiders.results.filter((r) => r.data?.conversationEvents)).toEqual([]);
    } finally {
      await Promise.all(clients.map((c) => c.dispose()));
    }
  });

  it('re-reads unreadCounts when a message concerns the identity, once for callbacks that arrive together', async () => {
    const { emu } = stack;
    const [me, peer] = [await emu.user(), await emu.user()];
    const client = wsClient(stack.url, identity(emu, me));
    try {
      const feed: Feed<UnreadData> = client.feed<UnreadData>(UNREAD);
      // The gateway is slowed already (the test before): the poll's first round is followed by the slow interval.
      expect(await metric(stack.url, 'im_gateway_subscription_polls_slowed')).toBe(1);
      expect((await feed.next()).data).toEqual({ unreadCounts: [] });
      emu.mark();
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push(await sendText(emu, peer, me, `m${i}`));
      for (const id of ids) stack.gateway.callbacks.deliver(chat(emu, peer, me, id, 'm'));
      let last = 0;
      while (last < 5) {
        const result = await feed.next();
        expect(result.errors).toBeUndefined();
        last = result.data!.unreadCounts[0]!.unreadCount;
      }
      // Five callbacks, a re-read or two (those that arrived during a read wait for the next), not five.
      expect(emu.calls('GET /message/unread').length).toBeLessThanOrEqual(2);
    } finally {
      await client.dispose();
    }
  });
});

describe('polling as the safety net', () => {
  const SLOW = 4_000;
  const stack = useStack({ POLL_INTERVAL_MS: String(FAST), POLL_INTERVAL_WITH_CALLBACKS_MS: String(SLOW) });

  it('finds a message no callback brought, delivers it once (its late callback too), and puts the identity back on the fast interval', async () => {
    const { emu } = stack;
    const [me, peer] = [await emu.user(), await emu.user()];
    const client = wsClient(stack.url, identity(emu, me));
    try {
      const mine = client.feed<EventData>(EVENTS, { with: String(peer.id) });
      emu.mark();
      await until('the conversation polled twice', () => readsOf(emu, peer) >= 2);
      const first = await sendText(emu, peer, me, 'first');
      stack.gateway.callbacks.deliver(chat(emu, peer, me, first, 'first'));
      expect(await take(mine, 1)).toEqual([received(peer, first, 'first')]);
      expect(await metric(stack.url, 'im_gateway_subscription_polls_slowed')).toBe(1);
      const fallbacks = await metric(stack.url, 'im_gateway_subscription_fallbacks_total');

      // No callback for this one: the slow poll finds it.
      const lost = await sendText(emu, peer, me, 'lost');
      expect(await take(mine, 1)).toEqual([received(peer, lost, 'lost')]);
      await until('the fallback counted', async () => (await metric(stack.url, 'im_gateway_subscription_fallbacks_total')) > fallbacks);
      // Fast again: ten polls within the deadline (at the slow interval they would take 40 s).
      emu.mark();
      await until('ten polls', () => readsOf(emu, peer) >= 10);
      // Its callback, late: nothing more. The next message is the next event.
      stack.gateway.callbacks.deliver(chat(emu, peer, me, lost, 'lost'));
      const next = await sendText(emu, peer, me, 'next');
      stack.gateway.callbacks.deliver(chat(emu, peer, me, next, 'next'));
      expect(await take(mine, 1)).toEqual([received(peer, next, 'next')]);
      expect(mine.pending).toBe(0);
    } finally {
      await client.dispose();
    }
  });
});
