// conversationEvents over real sockets: received, recalled and read events of one conversation;
// resuming after a message ID (each message exactly once, also while messages keep arriving);
// unreadCounts sending a zero for a conversation read; and SSE as a browser's EventSource makes
// it, the identity in the query string (and in no log line).
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEEP_EVERY } from '../../src/subscriptions/conversation-events';
import { startStack, type Stack } from '../helpers/stack';
import { eventSourceFeed, type Feed, wsClient } from '../helpers/subscriptions/clients';
import type { TestUser } from '../helpers/emulator';
import { EVENTS, type EventData, sendText, take, UNREAD, type UnreadData } from '../helpers/subscriptions/operations';
import { baselineSet } from '../helpers/subscriptions/polls';
import { sleep, until } from '../helpers/wait';
import { identity } from '../helpers/users';

const INTERVAL = 100;
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ POLL_INTERVAL_MS: String(INTERVAL) });
});
afterAll(() => stack.stop());
afterEach(() => vi.restoreAllMocks());

async function pair(): Promise<[TestUser, TestUser]> {
  return [await stack.emu.user(), await stack.emu.user()];
}

const contents = (events: EventData['conversationEvents'][]) => events.map((e) => [e.__typename, e.message?.content]);

async function expectNothingMore(feed: Feed<unknown>, intervals = 5) {
  await sleep(INTERVAL * intervals);
  expect(feed.pending).toBe(0);
}

describe('conversationEvents', () => {
  it('sends MessageReceived for either side, then MessageRead on a read receipt and MessageRecalled on a recall', async () => {
    const [me, peer] = await pair();
    const client = wsClient(stack.url, identity(stack.emu, me));
    try {
      const feed = client.feed<EventData>(EVENTS, { with: String(peer.id) });
      await baselineSet(stack.emu, peer); // the first poll sets the baseline
      const theirs = await sendText(stack.emu, peer, me, 'hi');
      const mine = await sendText(stack.emu, me, peer, 'hello back');
      const received = await take(feed, 2);
      expect(received).toEqual([
        { __typename: 'MessageReceived', conversationId: String(peer.id), messageId: theirs, message: { id: theirs, content: 'hi' } },
        { __typename: 'MessageReceived', conversationId: String(peer.id), messageId: mine, message: { id: mine, content: 'hello back' } },
      ]);

      // The peer reads my message: a read receipt.
      await stack.emu.ok('GET', '/message/ack', { token: peer.token, query: { conversation_id: me.id } });
      expect(await take(feed, 1)).toEqual([
        { __typename: 'MessageRead', conversationId: String(peer.id), messageId: mine, messages: [{ id: mine, status: 'READ' }] },
      ]);

      await stack.emu.ok('POST', '/message/recall', { token: peer.token, body: { conversation_id: me.id, msg_id: BigInt(theirs) } });
      expect(await take(feed, 1)).toEqual([{ __typename: 'MessageRecalled', conversationId: String(peer.id), messageId: theirs }]);
      await expectNothingMore(feed);
    } finally {
      await client.dispose();
    }
  });

  it('gives every event an id of its own, the same for each subscriber (its type and message), so client caches keep them apart', async () => {
    const [me, peer] = await pair();
    const ids = `subscription($with: ID!) { conversationEvents(with: $with) { __typename id messageId } }`;
    type Ids = { conversationEvents: { __typename: string; id: string; messageId: string } };
    const client = wsClient(stack.url, identity(stack.emu, me));
    const other = wsClient(stack.url, identity(stack.emu, me));
    try {
      const feeds = [client.feed<Ids>(ids, { with: String(peer.id) }), other.feed<Ids>(ids, { with: String(peer.id) })];
      await baselineSet(stack.emu, peer);
      const next = () =>
        Promise.all(
          feeds.map(async (feed) => {
            const result = await feed.next();
            expect(result.errors).toBeUndefined();
            return result.data!.conversationEvents;
          }),
        );
      const mine = await sendText(stack.emu, me, peer, 'hello');
      const received = await next();
      // Each step waits for its event: a recall seen before the read would leave the read unseen.
      await stack.emu.ok('GET', '/message/ack', { token: peer.token, query: { conversation_id: me.id } });
      const read = await next();
      await stack.emu.ok('POST', '/message/recall', { token: me.token, body: { conversation_id: peer.id, msg_id: BigInt(mine) } });
      const recalled = await next();
      for (const [i, events] of [received, read, recalled].entries()) {
        const type = ['MessageReceived', 'MessageRead', 'MessageRecalled'][i]!;
        expect(events).toEqual([0, 1].map(() => ({ __typename: type, id: `${type}:${mine}`, messageId: mine })));
      }
    } finally {
      await Promise.all([client.dispose(), other.dispose()]);
    }
  });

  it('sends MessageRead and MessageRecalled for watched messages below the newest 20, re-read every few rounds only', async () => {
    const [me, peer] = await pair();
    const client = wsClient(stack.url, identity(stack.emu, me));
    try {
      const feed = client.feed<EventData>(EVENTS, { with: String(peer.id) });
      await baselineSet(stack.emu, peer);
      const theirs: string[] = [];
      const mine: string[] = [];
      for (let i = 0; i < 25; i++) theirs.push(await sendText(stack.emu, peer, me, `t${i}`));
      for (let i = 0; i < 25; i++) mine.push(await sendText(stack.emu, me, peer, `m${i}`));
      expect((await take(feed, 50)).map((e) => e.messageId)).toEqual([...theirs, ...mine]);

      // Most rounds read the newest page alone; one in DEEP_EVERY also re-reads the watched messages below it.
      stack.emu.mark();
      const reads = () => stack.emu.calls('GET /message/conversation').filter((c) => c.query.opposite_id === String(peer.id));
      const newest = () => reads().filter((c) => c.query.msg_id_start === '0').length;
      await until('ten rounds with a deeper read', () => newest() >= 10 && reads().length > newest());
      const all = reads();
      const polls = all.filter((c) => c.query.msg_id_start === '0').length;
      const deeper = all.length - polls;
      expect(deeper).toBeLessThanOrEqual(Math.ceil(polls / DEEP_EVERY));

      // The peer reads my oldest message (the 25th newest) and recalls theirs (the 50th newest).
      await stack.emu.ok('GET', '/message/ack', { token: peer.token, query: { msg_id: mine[0]! } });
      await stack.emu.ok('POST', '/message/recall', { token: peer.token, body: { conversation_id: me.id, msg_id: BigInt(theirs[0]!) } });
      const events = (await take(feed, 2)).sort((a, b) => a.__typename.localeCompare(b.__typename));
      expect(events).toEqual([
        { __typename: 'MessageRead', conversationId: String(peer.id), messageId: mine[0], messages: [{ id: mine[0], status: 'READ' }] },
        { __typename: 'MessageRecalled', conversationId: String(peer.id), messageId: theirs[0] },
      ]);
      await expectNothingMore(feed, DEEP_EVERY * 2);
    } finally {
      await client.dispose();
    }
  });

  it('misses no message when more than a page arrives between two polls', async () => {
    const [me, peer] = await pair();
    const client = wsClient(stack.url, identity(stack.emu, me));
    try {
      const feed = client.feed<EventData>(EVENTS, { with: String(peer.id) });
      await baselineSet(stack.emu, peer);
      const sent = await Promise.all(Array.from({ length: 45 }, (_, i) => sendText(stack.emu, peer, me, `m${i}`)));
      const got = (await take(feed, 45)).map((e) => e.messageId);
      expect(got).toEqual([...sent].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)));
      await expectNothingMore(feed);
    } finally {
      await client.dispose();
    }
  });

  it('resumes after a message ID: the messages after it first, then live ones, each once', async () => {
    const [me, peer] = await pair();
    const sent: string[] = [];
    for (let i = 0; i < 5; i++) sent.push(await sendText(stack.emu, peer, me, `m${i}`));
    const client = wsClient(stack.url, identity(stack.emu, me));
    try {
      const feed = client.feed<EventData>(EVENTS, { with: String(peer.id), after: sent[1] });
      expect(contents(await take(feed, 3))).toEqual([
        ['MessageReceived', 'm2'],
        ['MessageReceived', 'm3'],
        ['MessageReceived', 'm4'],
      ]);
      await baselineSet(stack.emu, peer);
      await sendText(stack.emu, peer, me, 'm5');
      expect(contents(await take(feed, 1))).toEqual([['MessageReceived', 'm5']]);
      await expectNothingMore(feed);
    } finally {
      await client.dispose();
    }
  });

  it('resumes exactly once while messages keep arriving, beside a subscriber already polling', async () => {
    const [me, peer] = await pair();
    const first = await sendText(stack.emu, peer, me, 'start');
    const client = wsClient(stack.url, identity(stack.emu, me));
    try {
      const watching = client.feed<EventData>(EVENTS, { with: String(peer.id) });
      await baselineSet(stack.emu, peer);
      // Messages arrive before, during and after the resuming subscriber joins.
      const sent: string[] = [];
      const sending = (async () => {
        for (let i = 0; i < 30; i++) {
          sent.push(await sendText(stack.emu, peer, me, `n${i}`));
          await sleep(INTERVAL / 5);
        }
      })();
      await sleep(INTERVAL * 2);
      const resumed = client.feed<EventData>(EVENTS, { with: String(peer.id), after: first });
      await sending;
      const got = (await take(resumed, 30)).map((e) => e.messageId);
      expect(got).toEqual(sent);
      expect((await take(watching, 30)).map((e) => e.messageId)).toEqual(sent);
      await expectNothingMore(resumed);
    } finally {
      await client.dispose();
    }
  });

  it('refuses a resume that is not a message ID, naming `after`', async () => {
    const [me, peer] = await pair();
    const client = wsClient(stack.url, identity(stack.emu, me));
    try {
      const feed = client.feed<EventData>(EVENTS, { with: String(peer.id), after: 'x' });
      expect(await feed.ending).toEqual({ complete: true });
      expect(feed.results.map((r) => r.errors?.[0]?.extensions?.code)).toEqual(['BAD_USER_INPUT']);
      expect(feed.results[0]!.errors![0]!.message).toMatch(/^after: .*"x"/);
    } finally {
      await client.dispose();
    }
  });
});

describe('unreadCounts and a conversation read', () => {
  it('sends the read conversation once with unreadCount 0, then leaves it out', async () => {
    const [me, peer] = await pair();
    const other = await stack.emu.user();
    await sendText(stack.emu, peer, me, 'hello');
    const client = wsClient(stack.url, identity(stack.emu, me));
    try {
      const feed = client.feed<UnreadData>(UNREAD);
      const counts = async () => {
        const result = await feed.next();
        expect(result.errors).toBeUndefined();
        return result.data!.unreadCounts.map((c) => [c.conversationId, c.unreadCount]);
      };
      expect(await counts()).toEqual([[String(peer.id), 1]]);
      await stack.emu.ok('GET', '/message/ack', { token: me.token, query: { conversation_id: peer.id } });
      expect(await counts()).toEqual([[String(peer.id), 0]]);
      await sendText(stack.emu, other, me, 'later');
      expect(await counts()).toEqual([[String(other.id), 1]]);
    } finally {
      await client.dispose();
    }
  });
});

describe("SSE as a browser's EventSource", () => {
  const url = (params: Record<string, string>) => `${stack.url}/graphql?${new URLSearchParams(params)}`;

  it('takes access-token and app_id from the query string, and writes the token to no log', async () => {
    const [me, peer] = await pair();
    const written: string[] = [];
    const capture = (...args: unknown[]) => void written.push(args.map(String).join(' '));
    for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) vi.spyOn(console, method).mockImplementation(capture);
    const feed = eventSourceFeed<EventData>(
      url({ query: EVENTS, variables: JSON.stringify({ with: String(peer.id) }), 'access-token': me.token, app_id: stack.emu.appId }),
    );
    try {
      await baselineSet(stack.emu, peer);
      const id = await sendText(stack.emu, peer, me, 'to the browser');
      expect(await take(feed, 1)).toEqual([
        { __typename: 'MessageReceived', conversationId: String(peer.id), messageId: id, message: { id, content: 'to the browser' } },
      ]);
    } finally {
      await feed.close();
    }
    expect(written.filter((line) => line.includes(me.token))).toEqual([]);
  });

  it('reads no identity from the URL of a request that is not SSE', async () => {
    const [me] = await pair();
    const res = await fetch(url({ query: '{ me { id } }', 'access-token': me.token, app_id: stack.emu.appId }), {
      headers: { accept: 'application/graphql-response+json', 'x-graphql-yoga-csrf': '1' },
    });
    const body = (await res.json()) as { data?: { me: { id: string } | null }; errors?: { extensions?: { code?: string } }[] };
    expect(body.data?.me?.id).not.toBe(String(me.id));
    expect(body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});
