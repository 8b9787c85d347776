// An Apollo Client 4 acting as a test user, set up as the docs set one up: queries and mutations
// over HTTP, subscriptions over graphql-ws (a stable connection), an InMemoryCache with
// relayStylePagination on the User lists a test names, and nothing else: no cache code.
import { ApolloClient, ApolloLink, HttpLink, InMemoryCache, type TypePolicies } from '@apollo/client';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { relayStylePagination } from '@apollo/client/utilities';
import { OperationTypeNode } from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import type { TestUser } from './emulator';
import type { Stack } from './stack';
import { wsUrl } from './subscriptions/clients';
import { identity } from './users';

/** `lists`: User fields paged Relay-style, with their key arguments (`conversation: ['with']`); `possibleTypes` for fragments on interfaces. */
export function apolloAs(stack: Stack, user: TestUser, lists: Record<string, string[] | false>, possibleTypes?: Record<string, string[]>) {
  const headers = identity(stack.emu, user);
  const ws = createClient({ url: wsUrl(stack.url), webSocketImpl: WebSocket, connectionParams: headers, retryAttempts: 0 });
  const http = new HttpLink({ uri: `${stack.url}/graphql`, fetch, headers });
  const fields = Object.fromEntries(Object.entries(lists).map(([name, keyArgs]) => [name, relayStylePagination(keyArgs)]));
  const typePolicies: TypePolicies = { User: { fields } };
  const client = new ApolloClient({
    link: ApolloLink.split(({ operationType }) => operationType === OperationTypeNode.SUBSCRIPTION, new GraphQLWsLink(ws), http),
    cache: new InMemoryCache({ typePolicies, ...(possibleTypes ? { possibleTypes } : {}) }),
  });
  return { client, close: () => ws.dispose() };
}
