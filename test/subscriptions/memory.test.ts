// Subscriptions in one gateway process, over real sockets: graphql-ws and SSE clients, one poller
// per identity (polls counted at the emulator), change detection, stop on the last unsubscribe,
// refusal of a bad token at connect, new messages of a conversation, and clean shutdown.
import { describe, expect, it } from 'vitest';
import { useStack } from '../helpers/stack';
import { type Feed, sseFeed, wsClient } from '../helpers/subscriptions/clients';
import type { TestUser } from '../helpers/emulator';
import { sendText, UNREAD, type UnreadData } from '../helpers/subscriptions/operations';
import { baselineSet, maxPolls, pollsObserved, pollsStopped } from '../helpers/subscriptions/polls';
import { sleep } from '../helpers/wait';
import { identity } from '../helpers/users';

const INTERVAL = 100;
const stack = useStack({ POLL_INTERVAL_MS: String(INTERVAL) });

async function pair(): Promise<[TestUser, TestUser]> {
  return [await stack.emu.user(), await stack.emu.user()];
}

/** Checks the unread counts of the first (only) conversation of a result. */
function expectCounts(result: { data?: UnreadData | null; errors?: unknown }, peer: TestUser, count: number) {
  expect(result.errors).toBeUndefined();
  expect(result.data?.unreadCounts).toEqual([
    { conversationId: String(peer.id), unreadCount: count, user: { id: String(peer.id) }, group: null },
  ]);
}

async function expectIdle(feed: Feed<UnreadData>, intervals = 5) {
  await sleep(INTERVAL * intervals);
  expect(feed.pending).toBe(0);
}

describe('unreadCounts', () => {
  it('over graphql-ws: the counts at subscribe time, an update after a message, nothing while idle', async () => {
    const [me, peer] = await pair();
    await sendText(stack.emu, peer, me, 'hello');
    const client = wsClient(stack.url, identity(stack.emu, me));
    try {
      const feed = client.feed<UnreadData>(UNREAD);
      expectCounts(await feed.next(), peer, 1);
      await expectIdle(feed);
      await sendText(stack.emu, peer, me, 'again');
      expectCounts(await feed.next(), peer, 2);
      await expectIdle(feed);
    } finally {
      await client.dispose();
    }
  });

  it('over SSE: the same, with the identity in the HTTP headers', async () => {
    const [me, peer] = await pair();
    const feed = sseFeed<UnreadData>(stack.url, identity(stack.emu, me), UNREAD);
    try {
      // No conversation yet: an empty list, sent at once.
      expect((await feed.next()).data).toEqual({ unreadCounts: [] });
      await sendText(stack.emu, peer, me, 'hello');
      expectCounts(await feed.next(), peer, 1);
      await expectIdle(feed);
    } finally {
      await feed.close();
    }
  });

  it('shares one poller among 100 subscribers of one token, and stops it after the last leaves', async () => {
    const [me, peer] = await pair();
    await sendText(stack.emu, peer, me, 'hello');
    const clients = Array.from({ length: 100 }, () => wsClient(stack.url, identity(stack.emu, me)));
    try {
      const feeds = clients.map((c) => c.feed<UnreadData>(UNREAD));
      for (const feed of feeds) expectCounts(await feed.next(), peer, 1);

      // Shared: it keeps polling, never more than once per interval for all 100 (over the time the
      // polls took: a loaded machine delays rounds).
      const { polls, ms } = await pollsObserved(stack.emu, 10, (c) => c.endpoint === 'GET /message/unread');
      expect(polls).toBeLessThanOrEqual(maxPolls(ms, INTERVAL));

      // Everyone gets the update; the counts were checked at connect once for all of them.
      await sendText(stack.emu, peer, me, 'again');
      for (const feed of feeds) expectCounts(await feed.next(), peer, 2);

      for (const feed of feeds) await feed.close();
      await pollsStopped(stack.emu, INTERVAL, (c) => c.endpoint === 'GET /message/unread');
    } finally {
      await Promise.all(clients.map((c) => c.dispose()));
    }
  });

  it('verifies a connecting identity once for many connections', async () => {
    const [me] = await pair();
    stack.emu.mark();
    const clients = Array.from({ length: 20 }, () => wsClient(stack.url, identity(stack.emu, me)));
    try {
      const feeds = clients.map((c) => c.feed<UnreadData>(UNREAD));
      for (const feed of feeds) await feed.next();
      expect(stack.emu.calls('GET /user/profile').length).toBe(1);
    } finally {
      await Promise.all(clients.map((c) => c.dispose()));
    }
  });

  it("takes an operation's identity from extensions.headers, as GraphiQL sends it over WebSocket", async () => {
    const [me, peer] = await pair();
    await sendText(stack.emu, peer, me, 'hello');
    const client = wsClient(stack.url, {});
    try {
      const feed = client.feed<UnreadData>(UNREAD, undefined, { headers: identity(stack.emu, me) });
      expectCounts(await feed.next(), peer, 1);
    } finally {
      await client.dispose();
    }
  });

  it('refuses an invalid token at connect (close code 4401), before any subscription runs', async () => {
    const client = wsClient(stack.url, { app_id: stack.emu.appId, 'access-token': 'not-a-token' });
    try {
      const feed = client.feed(UNREAD);
      expect(await feed.ending).toMatchObject({ error: { code: 4401 } });
      // The socket closed before the subscription ran: no result at all. (The emulator records no
      // call that fails its token check, so its call list cannot tell; pollers of the file's other
      // tests may still be finishing a round there.)
      expect(feed.results).toEqual([]);
    } finally {
      await client.dispose();
    }
  });

  it('ends the subscriptions with UNAUTHENTICATED when the service stops accepting the token', async () => {
    const [me, peer] = await pair();
    const client = wsClient(stack.url, identity(stack.emu, me));
    const sse = sseFeed<UnreadData>(stack.url, identity(stack.emu, me), UNREAD);
    try {
      const feed = client.feed<UnreadData>(UNREAD);
      await feed.next();
      await sse.next();
      stack.emu.server.state.tokens.revoke(me.id);
      for (const f of [feed, sse]) {
        const result = await f.next();
        expect(result.errors?.[0]?.extensions).toMatchObject({
          code: 'UNAUTHENTICATED',
          upstreamCode: 10008,
          endpoint: 'GET /message/unread',
        });
        expect(await f.ending).toEqual({ complete: true });
      }
      // The poller is gone too.
      stack.emu.mark();
      await sleep(INTERVAL * 4);
      expect(stack.emu.calls('GET /message/unread').length).toBe(0);
      void peer;
    } finally {
      await client.dispose();
      await sse.close();
    }
  });
});

describe('conversationMessages', () => {
  const MESSAGES =
    'subscription($with: ID!) { conversationMessages(with: $with) { id content from { id } to { ... on User { id } ... on Group { id } } } }';
  interface MessagesData {
    conversationMessages: { id: string; content: string; from: { id: string }; to: { id: string } };
  }

  it('sends each new message once, in order, with exact IDs, and nothing sent before subscribing', async () => {
    const [me, peer] = await pair();
    await sendText(stack.emu, peer, me, 'before');
    const client = wsClient(stack.url, identity(stack.emu, me));
    try {
      const feed = client.feed<MessagesData>(MESSAGES, { with: String(peer.id) });
      // The first poll sets the baseline; wait for it before sending.
      await baselineSet(stack.emu, peer);
      const ids: string[] = [];
      for (const text of ['one', 'two']) ids.push(await sendText(stack.emu, peer, me, text));
      ids.push(await sendText(stack.emu, me, peer, 'mine'));
      const got = [await feed.next(), await feed.next(), await feed.next()].map((r) => r.data!.conversationMessages);
      expect(got.map((m) => [m.id, m.content])).toEqual([
        [ids[0], 'one'],
        [ids[1], 'two'],
        [ids[2], 'mine'],
      ]);
      expect(BigInt(ids[0]!)).toBeGreaterThan(2n ** 53n);
      expect(got[2]).toMatchObject({ from: { id: String(me.id) }, to: { id: String(peer.id) } });
      await sleep(INTERVAL * 4);
      expect(feed.pending).toBe(0);
    } finally {
      await client.dispose();
    }
  });

  it('misses nothing when more than a page arrives between two polls', async () => {
    const [me, peer] = await pair();
    const client = wsClient(stack.url, identity(stack.emu, me));
    try {
      const feed = client.feed<MessagesData>(MESSAGES, { with: String(peer.id) });
      await baselineSet(stack.emu, peer);
      // 45 messages at once: more than two pages of 20.
      const sent = await Promise.all(Array.from({ length: 45 }, (_, i) => sendText(stack.emu, peer, me, `m${i}`)));
      const got: string[] = [];
      for (let i = 0; i < 45; i++) got.push((await feed.next()).data!.conversationMessages.id);
      expect(got).toEqual([...sent].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)));
    } finally {
      await client.dispose();
    }
  });

  it('ends with BAD_USER_INPUT for a conversation with nobody (the service answers 10002 for opposite_id)', async () => {
    const [me] = await pair();
    const client = wsClient(stack.url, identity(stack.emu, me));
    try {
      const feed = client.feed<MessagesData>(MESSAGES, { with: '999999999' });
      const result = await feed.next();
      expect(result.errors?.[0]?.extensions).toMatchObject({
        code: 'BAD_USER_INPUT',
        upstreamCode: 10002,
        endpoint: 'GET /message/conversation',
      });
      expect(await feed.ending).toEqual({ complete: true });
    } finally {
      await client.dispose();
    }
  });
});
