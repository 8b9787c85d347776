// friendRequestReceived and friendEvents in one gateway process, over graphql-ws: new requests
// only, one poller per identity whatever the number of subscribers (polls counted at the
// emulator), resuming after a request's cursor, a bad cursor refused, and friends coming and going.
import { describe, expect, it } from 'vitest';
import { useStack } from '../helpers/stack';
import { type Feed, wsClient } from '../helpers/subscriptions/clients';
import { maxPolls, pollsObserved } from '../helpers/subscriptions/polls';
import {
  acceptRequest,
  consentingUser,
  FRIEND_EVENTS,
  type FriendEventData,
  polledTwice,
  removeFriend,
  REQUESTS,
  type RequestData,
  requestFriend,
} from '../helpers/subscriptions/roster';
import { sleep } from '../helpers/wait';
import { identity } from '../helpers/users';

const INTERVAL = 100;
const stack = useStack({ POLL_INTERVAL_MS: String(INTERVAL) });

async function nextRequest(feed: Feed<RequestData>) {
  const result = await feed.next();
  expect(result.errors).toBeUndefined();
  return result.data!.friendRequestReceived;
}

describe('friendRequestReceived', () => {
  it('sends each new request once to every subscriber, from one poller for the identity', async () => {
    const me = await consentingUser(stack.emu);
    const old = await stack.emu.user();
    await requestFriend(stack.emu, old, me, 'before subscribing');
    const clients = [wsClient(stack.url, identity(stack.emu, me)), wsClient(stack.url, identity(stack.emu, me))];
    try {
      const feeds = clients.map((c) => c.feed<RequestData>(REQUESTS));
      await polledTwice(stack.emu, 'GET /roster/apply/list');
      const { polls, ms } = await pollsObserved(stack.emu, 10, (c) => c.endpoint === 'GET /roster/apply/list');
      expect(polls).toBeLessThanOrEqual(maxPolls(ms, INTERVAL));

      const [a, b] = [await stack.emu.user(), await stack.emu.user()];
      await requestFriend(stack.emu, a, me, 'hi from a');
      await requestFriend(stack.emu, b, me, 'hi from b');
      for (const feed of feeds) {
        const got = [await nextRequest(feed), await nextRequest(feed)];
        expect(got.map((r) => [r.request.from.id, r.request.message, r.request.status])).toEqual([
          [String(a.id), 'hi from a', 'PENDING'],
          [String(b.id), 'hi from b', 'PENDING'],
        ]);
        expect(Date.parse(got[0]!.request.expiresAt)).toBeGreaterThan(Date.now());
      }
      await sleep(INTERVAL * 4);
      expect(feeds.map((f) => f.pending)).toEqual([0, 0]);
    } finally {
      await Promise.all(clients.map((c) => c.dispose()));
    }
  });

  it('resumes after a cursor: the pending requests that came after it first, then the live ones, each once', async () => {
    const me = await consentingUser(stack.emu);
    const [a, b, c, d] = await Promise.all([1, 2, 3, 4].map(() => stack.emu.user()));
    const client = wsClient(stack.url, identity(stack.emu, me));
    try {
      const first = client.feed<RequestData>(REQUESTS);
      await polledTwice(stack.emu, 'GET /roster/apply/list');
      await requestFriend(stack.emu, a!, me, 'a');
      const seen = await nextRequest(first);
      await first.close();

      // While no one listens: b's request, and c's that is accepted at once (not pending any more).
      await requestFriend(stack.emu, b!, me, 'b');
      await requestFriend(stack.emu, c!, me, 'c');
      await acceptRequest(stack.emu, me, c!);
      const resumed = client.feed<RequestData>(REQUESTS, { after: seen.cursor });
      expect((await nextRequest(resumed)).request.from.id).toBe(String(b!.id));
      await requestFriend(stack.emu, d!, me, 'd');
      expect((await nextRequest(resumed)).request.from.id).toBe(String(d!.id));
      await sleep(INTERVAL * 4);
      expect(resumed.pending).toBe(0);
    } finally {
      await client.dispose();
    }
  });

  it('refuses a cursor that is none with BAD_USER_INPUT naming after', async () => {
    const me = await stack.emu.user();
    const client = wsClient(stack.url, identity(stack.emu, me));
    try {
      const feed = client.feed<RequestData>(REQUESTS, { after: 'yesterday' });
      const result = await feed.next();
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'after' });
      expect(await feed.ending).toEqual({ complete: true });
    } finally {
      await client.dispose();
    }
  });
});

describe('friendEvents', () => {
  it('tells a friendship that began and one that ended, whichever side acted', async () => {
    const me = await stack.emu.user();
    const friend = await consentingUser(stack.emu);
    const client = wsClient(stack.url, identity(stack.emu, me));
    try {
      const feed = client.feed<FriendEventData>(FRIEND_EVENTS);
      await polledTwice(stack.emu, 'GET /roster/list');
      await requestFriend(stack.emu, me, friend);
      await acceptRequest(stack.emu, friend, me);
      expect((await feed.next()).data?.friendEvents).toEqual({
        __typename: 'FriendAdded',
        id: `FriendAdded:${friend.id}`,
        user: { id: String(friend.id) },
      });
      await removeFriend(stack.emu, friend, me);
      expect((await feed.next()).data?.friendEvents).toMatchObject({ __typename: 'FriendRemoved', user: { id: String(friend.id) } });
    } finally {
      await client.dispose();
    }
  });
});
