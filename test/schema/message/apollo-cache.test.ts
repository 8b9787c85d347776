// Payloads return what changed, as a normalized cache needs it: Apollo Client 4's InMemoryCache
// (relayStylePagination on the connections, possibleTypes of the unions) follows
// markConversationRead, recallMessage and kickGroupMembers from their payloads alone: no `update`,
// no `evict`, no refetch. And Apollo warns about nothing on the way.
import { ApolloClient, gql, HttpLink, InMemoryCache } from '@apollo/client';
import { relayStylePagination } from '@apollo/client/utilities';
import { describe, expect, it } from 'vitest';
import { failOnConsoleWarnings } from '../../helpers/no-warnings';
import type { Group } from '../../../src/rest/records';
import type { TestEmulator } from '../../helpers/emulator';
import { useStack } from '../../helpers/stack';
import { sendText } from '../../helpers/subscriptions/operations';

const stack = useStack();
type TestUser = Awaited<ReturnType<TestEmulator['user']>>;

const NODE_TYPES = ['User', 'Group', 'Message', 'Conversation', 'Member', 'BlockedMember', 'Announcement', 'SharedFile'];
const MORE_NODE_TYPES = ['GroupApplication', 'GroupInvitation', 'Device'];

/** An Apollo client acting as `user`; `ids: 'global'` asks for global IDs (X-ID-Format). */
function apolloFor(user: TestUser, ids?: 'global') {
  const headers: Record<string, string> = { app_id: stack.emu.appId, 'access-token': user.token };
  if (ids) headers['x-id-format'] = ids;
  return new ApolloClient({
    link: new HttpLink({ uri: `${stack.url}/graphql`, fetch, headers }),
    cache: new InMemoryCache({
      possibleTypes: { ConversationPeer: ['User', 'Group'], Node: [...NODE_TYPES, ...MORE_NODE_TYPES] },
      typePolicies: {
        User: { fields: { conversations: relayStylePagination(), conversation: relayStylePagination(['with']) } },
        Conversation: { fields: { messages: relayStylePagination() } },
        Group: { fields: { members: relayStylePagination() } },
      },
    }),
  });
}

failOnConsoleWarnings();

const HOME = gql`
  query Home {
    me {
      id
      conversations(first: 20) {
        edges {
          cursor
          node {
            id
            unreadCount
          }
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
`;
type HomeData = { me: { conversations: { edges: { node: { id: string; unreadCount: number } }[] } } };

const HISTORY = gql`
  query History($with: ID!) {
    me {
      id
      conversation(with: $with, last: 10) {
        edges {
          cursor
          node {
            id
            content
            status
          }
        }
        pageInfo {
          hasPreviousPage
          startCursor
        }
      }
    }
  }
`;
type HistoryData = { me: { conversation: { edges: { node: { id: string; content: string; status: string } }[] } } };

/** The member list of a group as its screen reads it; the kick's payload selects the same. */
const MEMBER_LIST = gql`
  fragment MemberList on Group {
    id
    members(first: 20) {
      totalCount
      edges {
        node {
          id
          userId
        }
        cursor
      }
    }
  }
`;

const MEMBERS = gql`
  query Members($id: ID!) {
    group(id: $id) {
      ...MemberList
    }
  }
  ${MEMBER_LIST}
`;
type MembersData = { group: { members: { edges: { node: { userId: string } }[] } } };

describe('the cached screens follow the payloads alone', () => {
  it('markConversationRead: the home row shows unreadCount 0', async () => {
    const [alice, bob] = await Promise.all([stack.emu.user(), stack.emu.user()]);
    await sendText(stack.emu, alice, bob, 'one');
    await sendText(stack.emu, alice, bob, 'two');
    const client = apolloFor(bob);
    const home = await client.query<HomeData>({ query: HOME, fetchPolicy: 'network-only' });
    expect(home.data!.me.conversations.edges.map((e) => e.node)).toEqual([
      { __typename: 'Conversation', id: String(alice.id), unreadCount: 2 },
    ]);

    await client.mutate({
      mutation: gql`
        mutation Read($id: ID!) {
          markConversationRead(input: { conversationId: $id }) {
            ok
            conversation {
              id
              unreadCount
            }
          }
        }
      `,
      variables: { id: String(alice.id) },
    });
    const cached = client.readQuery<HomeData>({ query: HOME });
    expect(cached!.me.conversations.edges.map((e) => e.node)).toEqual([
      { __typename: 'Conversation', id: String(alice.id), unreadCount: 0 },
    ]);
  });

  it('recallMessage: the cached history shows the message RECALLED', async () => {
    const [alice, bob] = await Promise.all([stack.emu.user(), stack.emu.user()]);
    await sendText(stack.emu, alice, bob, 'kept');
    const gone = await sendText(stack.emu, alice, bob, 'gone');
    const client = apolloFor(alice);
    await client.query<HistoryData>({ query: HISTORY, variables: { with: String(bob.id) }, fetchPolicy: 'network-only' });

    await client.mutate({
      mutation: gql`
        mutation Recall($c: ID!, $m: ID!) {
          recallMessage(input: { conversationId: $c, messageId: $m }) {
            ok
            message {
              id
              status
            }
          }
        }
      `,
      variables: { c: String(bob.id), m: gone },
    });
    const cached = client.readQuery<HistoryData>({ query: HISTORY, variables: { with: String(bob.id) } });
    expect(cached!.me.conversation.edges.map((e) => [e.node.content, e.node.status])).toEqual([
      ['kept', 'UNREAD'],
      ['gone', 'RECALLED'],
    ]);
  });

  it('kickGroupMembers: the cached member list loses the kicked member', async () => {
    const [owner, a, b] = await Promise.all([stack.emu.user(), stack.emu.user(), stack.emu.user()]);
    const body = { name: 'team', user_list: [a.id, b.id] };
    const groupId = String((await stack.emu.ok<Group>('POST', '/group/create', { token: owner.token, body })).group_id);
    const client = apolloFor(owner);
    const before = await client.query<MembersData>({ query: MEMBERS, variables: { id: groupId }, fetchPolicy: 'network-only' });
    expect(before.data!.group.members.edges).toHaveLength(3);

    await client.mutate({
      mutation: gql`
        mutation Kick($g: ID!, $u: [ID!]!) {
          kickGroupMembers(input: { groupId: $g, userIds: $u }) {
            ok
            removedMemberIds
            group {
              ...MemberList
            }
          }
        }
        ${MEMBER_LIST}
      `,
      variables: { g: groupId, u: [String(a.id)] },
    });
    const cached = client.readQuery<MembersData>({ query: MEMBERS, variables: { id: groupId } });
    expect(cached!.group.members.edges.map((e) => e.node.userId)).toEqual([String(owner.id), String(b.id)]);
  });
});

describe('global IDs: node(id:) refetches into the same cache entries', () => {
  const NODE = gql`
    query Refetch($id: ID!) {
      node(id: $id) {
        id
        ... on Conversation {
          unreadCount
        }
        ... on Message {
          content
          status
        }
      }
    }
  `;

  it('a conversation refetched by node(id:) updates its home row', async () => {
    const [alice, bob] = await Promise.all([stack.emu.user(), stack.emu.user()]);
    await sendText(stack.emu, alice, bob, 'first');
    const client = apolloFor(bob, 'global');
    const home = await client.query<HomeData>({ query: HOME, fetchPolicy: 'network-only' });
    const [row] = home.data!.me.conversations.edges.map((e) => e.node);
    expect(row).toMatchObject({ __typename: 'Conversation', unreadCount: 1 });
    expect(row!.id).not.toBe(String(alice.id));

    await sendText(stack.emu, alice, bob, 'second');
    await client.query({ query: NODE, variables: { id: row!.id }, fetchPolicy: 'network-only' });
    expect(client.readQuery<HomeData>({ query: HOME })!.me.conversations.edges.map((e) => e.node)).toEqual([
      { __typename: 'Conversation', id: row!.id, unreadCount: 2 },
    ]);
  });

  it("a message refetched by node(id:) updates the sender's cached history: the read receipt", async () => {
    const [alice, bob] = await Promise.all([stack.emu.user(), stack.emu.user()]);
    await sendText(stack.emu, alice, bob, 'did you read this?');
    const client = apolloFor(alice, 'global');
    const home = await client.query<HomeData>({ query: HOME, fetchPolicy: 'network-only' });
    const conversation = home.data!.me.conversations.edges[0]!.node.id;
    const history = await client.query<HistoryData>({ query: HISTORY, variables: { with: conversation }, fetchPolicy: 'network-only' });
    const sent = history.data!.me.conversation.edges.at(-1)!.node;
    expect(sent.status).not.toBe('READ');

    await stack.emu.ok('GET', '/message/ack', { token: bob.token, query: { conversation_id: alice.id } });
    await client.query({ query: NODE, variables: { id: sent.id }, fetchPolicy: 'network-only' });
    const cached = client.readQuery<HistoryData>({ query: HISTORY, variables: { with: conversation } });
    expect(cached!.me.conversation.edges.at(-1)!.node).toMatchObject({ id: sent.id, content: 'did you read this?', status: 'READ' });
  });
});
