// Resume positions are bounded per identity (issue 40, item 4): one identity's many
// subscribe/complete pairs under its clientKey push out its own oldest positions, never another
// identity's, whose reconnect still gets the message sent while it was away. Variables the
// document does not use make no new position.
import { describe, expect, it } from 'vitest';
import { useStack } from '../helpers/stack';
import { type Feed, wsClient } from '../helpers/subscriptions/clients';
import { EVENTS, type EventData, sendText, take } from '../helpers/subscriptions/operations';
import { baselineSet, openSubscriptions } from '../helpers/subscriptions/polls';
import { until } from '../helpers/wait';
import { identity } from '../helpers/users';

const MAX_ENTRIES = 100;
const BATCH = 50;
const PAIRS = 1_000;
const stack = useStack({ POLL_INTERVAL_MS: '100', RESUME_MAX_ENTRIES: String(MAX_ENTRIES), MAX_SUBSCRIPTIONS_PER_SOCKET: '200' });

/** A conversationEvents subscription of its own text (its own resume key), selecting the message IDs. */
const numbered = (i: number) => `subscription Flood${i}($with: ID!) { conversationEvents(with: $with) { messageId } }`;

describe('resume positions per identity', () => {
  it("keeps an identity's position while another runs a thousand subscribe/complete pairs; its reconnect gets the message sent while away", async () => {
    const { emu } = stack;
    const [victim, friend, attacker, other] = [await emu.user(), await emu.user(), await emu.user(), await emu.user()];
    const params = { ...identity(emu, victim), clientKey: 'victim-phone' };
    let client = wsClient(stack.url, params);
    let feed = client.feed<EventData>(EVENTS, { with: String(friend.id) });
    await baselineSet(emu, friend);
    const first = await sendText(emu, friend, victim, 'first');
    expect((await take(feed, 1))[0]!.messageId).toBe(first);
    await client.dispose();
    await until('the victim gone', async () => (await openSubscriptions(stack.url)) === 0);

    // The attacker: a thousand positions of its own, fifty open at a time (each marked once it runs).
    const flood = wsClient(stack.url, { ...identity(emu, attacker), clientKey: 'attacker' });
    try {
      for (let start = 0; start < PAIRS; start += BATCH) {
        const feeds: Feed<unknown>[] = [];
        for (let i = start; i < start + BATCH; i++) feeds.push(flood.feed(numbered(i), { with: String(other.id), [`unused${i}`]: i }));
        await until('the batch open', async () => (await openSubscriptions(stack.url)) === BATCH);
        await Promise.all(feeds.map((f) => f.close()));
        await until('the batch closed', async () => (await openSubscriptions(stack.url)) === 0);
      }
    } finally {
      await flood.dispose();
    }

    const away = await sendText(emu, friend, victim, 'while away');
    client = wsClient(stack.url, params);
    try {
      // The same subscription re-sent by the same client resumes after `first`.
      feed = client.feed<EventData>(EVENTS, { with: String(friend.id) });
      const [event] = await take(feed, 1);
      expect(event).toMatchObject({ messageId: away, message: { content: 'while away' } });
    } finally {
      await client.dispose();
    }
  });

  it('ignores variables the document does not use: the subscription re-sent with other ones resumes', async () => {
    const { emu } = stack;
    const [me, friend] = [await emu.user(), await emu.user()];
    const params = { ...identity(emu, me), clientKey: 'tab-1' };
    let client = wsClient(stack.url, params);
    let feed = client.feed<EventData>(EVENTS, { with: String(friend.id), unused: 'a' });
    await baselineSet(emu, friend);
    const first = await sendText(emu, friend, me, 'first');
    expect((await take(feed, 1))[0]!.messageId).toBe(first);
    await client.dispose();
    const away = await sendText(emu, friend, me, 'while away');
    client = wsClient(stack.url, params);
    try {
      feed = client.feed<EventData>(EVENTS, { with: String(friend.id), unused: 'b' });
      expect((await take(feed, 1))[0]!.messageId).toBe(away);
    } finally {
      await client.dispose();
    }
  });

  it('keeps a position per socket of one clientKey: a tab that dropped resumes from its own, not from the other tab ahead of it', async () => {
    const { emu } = stack;
    const [me, friend] = [await emu.user(), await emu.user()];
    const params = { ...identity(emu, me), clientKey: 'shared-by-two-tabs' };
    const tabA = wsClient(stack.url, params);
    let tabB = wsClient(stack.url, params);
    try {
      const a = tabA.feed<EventData>(EVENTS, { with: String(friend.id) });
      let b = tabB.feed<EventData>(EVENTS, { with: String(friend.id) });
      await baselineSet(emu, friend);
      const first = await sendText(emu, friend, me, 'first');
      expect((await take(a, 1))[0]!.messageId).toBe(first);
      expect((await take(b, 1))[0]!.messageId).toBe(first);
      await tabB.dispose();
      // Tab A goes on and marks the next message; tab B, away, never had it.
      const away = await sendText(emu, friend, me, 'while B was away');
      expect((await take(a, 1))[0]!.messageId).toBe(away);
      tabB = wsClient(stack.url, params);
      b = tabB.feed<EventData>(EVENTS, { with: String(friend.id) });
      expect((await take(b, 1))[0]!.messageId).toBe(away);
    } finally {
      await Promise.all([tabA.dispose(), tabB.dispose()]);
    }
  });
});
