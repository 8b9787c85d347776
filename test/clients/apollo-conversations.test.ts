// The chat screens in Apollo Client 4 with no cache code of their own: InMemoryCache with
// relayStylePagination on User.conversations and User.conversation (as any Relay-style list) and
// possibleTypes, an HTTP link and a graphql-ws link. What a client needs and nothing more:
// - a pin moves the home row when the home query selects `me { id }` (so the list lives on the
//   User entry) and the pin's payload `user { id conversations(first:) }` with the home query's
//   page (examples/home.graphql's ChatHome and PinConversation): the list arrives in its new
//   order (a page read without `after` replaces the cached edges), no refetch, no `update`;
// - an edit shows in the open conversation from the payload's `message { id content }` (the cached
//   Message of the same ID), and from conversationEvents' MessageChanged `message { id content }`
//   when another user edits: Apollo writes subscription results to the cache like any result.
import { ApolloClient, ApolloLink, gql, HttpLink, InMemoryCache } from '@apollo/client';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { getMainDefinition, relayStylePagination } from '@apollo/client/utilities';
import { createClient } from 'graphql-ws';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ChatHomeDocument, PinConversationDocument, UnpinConversationDocument } from '../../src/generated/graphql';
import type { TestUser } from '../helpers/emulator';
import { expectNoConsoleWarnings } from '../helpers/apollo-warnings';
import { useStack } from '../helpers/stack';
import { sendText } from '../helpers/subscriptions/operations';
import { baselineSet } from '../helpers/subscriptions/polls';
import { until } from '../helpers/wait';

const stack = useStack({ POLL_INTERVAL_MS: '100' });

/** An Apollo client acting as `user`, queries over HTTP and subscriptions over graphql-ws. */
function apolloFor(user: TestUser) {
  const identity = { app_id: stack.emu.appId, 'access-token': user.token };
  const ws = createClient({ url: stack.url.replace(/^http/, 'ws') + '/graphql', webSocketImpl: WebSocket, connectionParams: identity });
  const isSubscription = ({ query }: { query: Parameters<typeof getMainDefinition>[0] }) => {
    const definition = getMainDefinition(query);
    return definition.kind === 'OperationDefinition' && definition.operation === 'subscription';
  };
  const client = new ApolloClient({
    link: ApolloLink.split(isSubscription, new GraphQLWsLink(ws), new HttpLink({ uri: `${stack.url}/graphql`, fetch, headers: identity })),
    cache: new InMemoryCache({
      possibleTypes: {
        ConversationPeer: ['User', 'Group'],
        ConversationEvent: ['MessageReceived', 'MessageChanged', 'MessageRecalled', 'MessageRead'],
      },
      typePolicies: { User: { fields: { conversations: relayStylePagination(), conversation: relayStylePagination(['with']) } } },
    }),
  });
  return { client, close: () => ws.dispose() };
}

expectNoConsoleWarnings();

type HomeData = { me: { conversations: { edges: { node: { id: string; pinned: boolean } }[] } } };
const rowsOf = (data: HomeData | null | undefined) => data!.me.conversations.edges.map((e) => [e.node.id, e.node.pinned]);

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
type HistoryData = { me: { conversation: { edges: { node: { id: string; content: string } }[] } } };
const contentsOf = (data: HistoryData | null | undefined) => data!.me.conversation.edges.map((e) => e.node.content);

describe('Apollo Client 4: the home list and an open conversation follow pins and edits with no cache code', () => {
  it('a pin moves the row to the top of the cached home list, an unpin moves it back', async () => {
    const [me, older, newer] = [await stack.emu.user(), await stack.emu.user(), await stack.emu.user()];
    await sendText(stack.emu, older, me, 'older');
    await sendText(stack.emu, newer, me, 'newer');
    const { client, close } = apolloFor(me);
    try {
      // The examples' home screen and pin mutations (examples/home.graphql), as generated.
      const home = await client.query<HomeData>({ query: ChatHomeDocument, fetchPolicy: 'network-only' });
      expect(rowsOf(home.data)).toEqual([
        [String(newer.id), false],
        [String(older.id), false],
      ]);
      await client.mutate({ mutation: PinConversationDocument, variables: { conversationId: String(older.id) } });
      expect(rowsOf(client.readQuery<HomeData>({ query: ChatHomeDocument }))).toEqual([
        [String(older.id), true],
        [String(newer.id), false],
      ]);
      await client.mutate({ mutation: UnpinConversationDocument, variables: { conversationId: String(older.id) } });
      expect(rowsOf(client.readQuery<HomeData>({ query: ChatHomeDocument }))).toEqual([
        [String(newer.id), false],
        [String(older.id), false],
      ]);
    } finally {
      await close();
    }
  });

  it("an append shows in the sender's open conversation from the payload, and in the reader's from conversationEvents", async () => {
    const [writer, reader] = [await stack.emu.user(), await stack.emu.user()];
    const messageId = await sendText(stack.emu, writer, reader, 'Hel');
    const sender = apolloFor(writer);
    const receiver = apolloFor(reader);
    try {
      await sender.client.query({ query: HISTORY, variables: { with: String(reader.id) }, fetchPolicy: 'network-only' });
      const open = await receiver.client.query<HistoryData>({
        query: HISTORY,
        variables: { with: String(writer.id) },
        fetchPolicy: 'network-only',
      });
      expect(contentsOf(open.data)).toEqual(['Hel']);
      const events: string[] = [];
      const subscription = receiver.client
        .subscribe({
          query: gql`
            subscription Events($with: ID!) {
              conversationEvents(with: $with) {
                __typename
                id
                messageId
                ... on MessageChanged {
                  message {
                    id
                    content
                  }
                }
              }
            }
          `,
          variables: { with: String(writer.id) },
        })
        .subscribe({ next: (result) => void events.push(JSON.stringify(result.data)) });
      try {
        await baselineSet(stack.emu, writer);
        await sender.client.mutate({
          mutation: gql`
            mutation Append($c: ID!, $m: ID!, $text: String!) {
              appendToMessage(input: { conversationId: $c, messageId: $m, content: $text }) {
                ok
                message {
                  id
                  content
                }
              }
            }
          `,
          variables: { c: String(reader.id), m: messageId, text: 'lo' },
        });
        // The sender's cached conversation, from the payload alone.
        expect(contentsOf(sender.client.readQuery<HistoryData>({ query: HISTORY, variables: { with: String(reader.id) } }))).toEqual([
          'Hello',
        ]);
        // The reader's, from the MessageChanged event written to the cache.
        await until('the MessageChanged event', () => events.some((e) => e.includes('MessageChanged')));
        expect(contentsOf(receiver.client.readQuery<HistoryData>({ query: HISTORY, variables: { with: String(writer.id) } }))).toEqual([
          'Hello',
        ]);
      } finally {
        subscription.unsubscribe();
      }
    } finally {
      await Promise.all([sender.close(), receiver.close()]);
    }
  });
});
