// Live events keep cached lists current with no cache code (issue 42, item 1): a normal Apollo
// Client 4 (InMemoryCache, relayStylePagination, GraphQLWsLink for subscriptions, HttpLink for the
// rest) runs the contacts examples. A friend request that arrives shows in the cached requests
// screen, a friend who comes or goes in the cached contacts screen, from the events alone. The
// event's edge carries the list's own cursor, and the viewer's re-read is made once per event
// for the identity, whatever the number of subscriptions that select it.
import { gql } from '@apollo/client';
import { describe, expect, it } from 'vitest';
import {
  ContactsChangedDocument,
  ContactsScreenDocument,
  FriendRequestArrivedDocument,
  FriendRequestsScreenDocument,
} from '../../src/generated/graphql';
import { apolloAs } from '../helpers/apollo';
import { expectNoConsoleWarnings } from '../helpers/apollo-warnings';
import type { TestUser } from '../helpers/emulator';
import { useStack } from '../helpers/stack';
import { wsClient } from '../helpers/subscriptions/clients';
import { sendText } from '../helpers/subscriptions/operations';
import { baselineSet } from '../helpers/subscriptions/polls';
import { acceptRequest, consentingUser, polledTwice, removeFriend, requestFriend } from '../helpers/subscriptions/roster';
import { identity } from '../helpers/users';
import { until } from '../helpers/wait';

// Without coalescing, so that only the event's shared reads can make two subscriptions' reads one.
const stack = useStack({ POLL_INTERVAL_MS: '100', IM_COALESCE: 'false' });

/** An Apollo client acting as `user`, with the contacts screens' lists paged Relay-style. */
const apolloFor = (user: TestUser) => apolloAs(stack, user, { friends: false, friendRequests: false });

/** The chat list's rows, as a home screen and the event's `me` read them (with `id`, so the event's `me` finds the list). */
const CHAT_ROWS = gql`
  fragment ChatRows on User {
    id
    conversations(first: 20) {
      edges {
        cursor
        node {
          id
          unreadCount
        }
      }
    }
  }
`;
const HOME = gql`
  query Home {
    me {
      ...ChatRows
    }
  }
  ${CHAT_ROWS}
`;
type HomeData = { me: { conversations: { edges: { node: { id: string; unreadCount: number } }[] } } };

/** New messages of one conversation, with the chat list read fresh. */
const CHAT_EVENTS = gql`
  subscription ChatEvents($with: ID!) {
    conversationEvents(with: $with) {
      __typename
      id
      ... on MessageReceived {
        edge {
          cursor
          node {
            id
          }
        }
      }
      me {
        ...ChatRows
      }
    }
  }
  ${CHAT_ROWS}
`;

expectNoConsoleWarnings();

describe('live events and the cached lists they change', () => {
  it('a friend request that arrives shows in the cached requests screen, its edge cursor valid as after', async () => {
    const [me, alice] = [await consentingUser(stack.emu), await stack.emu.user()];
    const { client, close } = apolloFor(me);
    try {
      const before = await client.query({ query: FriendRequestsScreenDocument });
      expect(before.data?.me?.friendRequests.edges).toEqual([]);
      const events: string[] = [];
      const subscription = client
        .subscribe({ query: FriendRequestArrivedDocument })
        .subscribe({ next: ({ data }) => data && events.push(data.friendRequestReceived.edge.cursor) });
      await polledTwice(stack.emu, 'GET /roster/apply/list');
      await requestFriend(stack.emu, alice, me, 'hi from alice');
      await until('the event', () => events.length === 1);
      subscription.unsubscribe();

      // The screen, from the cache alone: the request is listed, with no cache code.
      const now = client.readQuery({ query: FriendRequestsScreenDocument });
      expect(now?.me?.friendRequests.edges.map((e) => [e.node.fromId, e.node.message, e.node.status])).toEqual([
        [String(alice.id), 'hi from alice', 'PENDING'],
      ]);
      // The event's edge cursor is the list's own: the list's first edge has it, and it reads on as `after`.
      expect(now?.me?.friendRequests.edges[0]?.cursor).toBe(events[0]);
      const after = await client.query({
        query: FriendRequestsScreenDocument,
        variables: { after: events[0] },
        fetchPolicy: 'network-only',
      });
      expect(after.error).toBeUndefined();
    } finally {
      await close();
    }
  });

  it('a friend who comes, then goes, shows and leaves in the cached contacts screen', async () => {
    const [me, friend] = [await stack.emu.user(), await consentingUser(stack.emu)];
    const { client, close } = apolloFor(me);
    try {
      expect((await client.query({ query: ContactsScreenDocument })).data?.me?.friends.edges).toEqual([]);
      const events: string[] = [];
      const subscription = client
        .subscribe({ query: ContactsChangedDocument })
        .subscribe({ next: ({ data }) => data && events.push(data.friendEvents.__typename) });
      await polledTwice(stack.emu, 'GET /roster/list');
      await requestFriend(stack.emu, me, friend);
      await acceptRequest(stack.emu, friend, me);
      await until('FriendAdded', () => events.length === 1);
      const added = client.readQuery({ query: ContactsScreenDocument });
      expect(added?.me?.friends.edges.map((e) => [e.node.id, e.node.relation])).toEqual([[String(friend.id), 'FRIEND']]);
      expect(added?.me?.friends.totalCount).toBe(1);

      await removeFriend(stack.emu, friend, me);
      await until('FriendRemoved', () => events.length === 2);
      subscription.unsubscribe();
      expect(events).toEqual(['FriendAdded', 'FriendRemoved']);
      const removed = client.readQuery({ query: ContactsScreenDocument });
      expect(removed?.me?.friends.edges).toEqual([]);
      expect(removed?.me?.friends.totalCount).toBe(0);
    } finally {
      await close();
    }
  });

  it('a message received moves its row to the top of the cached chat list, from the event alone', async () => {
    const [me, peer, other] = [await stack.emu.user(), await stack.emu.user(), await stack.emu.user()];
    await sendText(stack.emu, peer, me, 'older');
    await sendText(stack.emu, other, me, 'newer');
    const { client, close } = apolloAs(
      stack,
      me,
      { conversations: false },
      { ConversationEvent: ['MessageReceived', 'MessageChanged', 'MessageRecalled', 'MessageRead'] },
    );
    try {
      const rows = (data: HomeData | null | undefined) => data!.me.conversations.edges.map((e) => [e.node.id, e.node.unreadCount]);
      const home = await client.query<HomeData>({ query: HOME });
      expect(rows(home.data)).toEqual([
        [String(other.id), 1],
        [String(peer.id), 1],
      ]);
      const events: { edge: { cursor: string; node: { id: string } } }[] = [];
      const subscription = client
        .subscribe<{ conversationEvents: (typeof events)[number] }>({ query: CHAT_EVENTS, variables: { with: String(peer.id) } })
        .subscribe({ next: ({ data }) => data && events.push(data.conversationEvents) });
      await baselineSet(stack.emu, peer);
      const sent = await sendText(stack.emu, peer, me, 'latest');
      await until('MessageReceived', () => events.length === 1);
      subscription.unsubscribe();
      expect(events[0]!.edge.node.id).toBe(sent);
      expect(rows(client.readQuery<HomeData>({ query: HOME }))).toEqual([
        [String(peer.id), 2],
        [String(other.id), 1],
      ]);
    } finally {
      await close();
    }
  });

  it("reads the viewer's list once per event for two subscriptions of the identity that select it differently", async () => {
    const [me, alice] = [await consentingUser(stack.emu), await stack.emu.user()];
    const ws = wsClient(stack.url, identity(stack.emu, me));
    // Two documents (two executions), the same list: polls read 100 a page, these read 7.
    const docs = [
      'subscription { friendRequestReceived { me { friendRequests(first: 7) { edges { node { id } } } } } }',
      'subscription { friendRequestReceived { cursor me { id friendRequests(first: 7) { edges { cursor node { fromId } } } } } }',
    ];
    try {
      type Data = { friendRequestReceived: { me: { friendRequests: { edges: { node: { id?: string; fromId?: string } }[] } } } };
      const feeds = docs.map((doc) => ws.feed<Data>(doc));
      await polledTwice(stack.emu, 'GET /roster/apply/list');
      await requestFriend(stack.emu, alice, me);
      for (const feed of feeds) {
        const result = await feed.next();
        expect(result.errors).toBeUndefined();
        expect(result.data!.friendRequestReceived.me.friendRequests.edges).toHaveLength(1);
      }
      const listReads = stack.emu.server.calls.filter((c) => c.endpoint === 'GET /roster/apply/list' && c.query.limit === '7');
      expect(listReads).toHaveLength(1);
    } finally {
      await ws.dispose();
    }
  });
});
