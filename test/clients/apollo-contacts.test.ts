// A normal Apollo Client 4 (InMemoryCache, relayStylePagination on the connections) running the
// contacts examples: accepting a request shows the new friend in the cached contacts screen and
// the request ACCEPTED in the cached requests screen, from the mutation's payload alone: no
// `update`, no `evict`, no refetch. And Apollo warns about nothing on the way.
import { ApolloClient, HttpLink, InMemoryCache } from '@apollo/client';
import { relayStylePagination } from '@apollo/client/utilities';
import { describe, expect, it } from 'vitest';
import { AcceptFriendRequestDocument, ContactsScreenDocument, FriendRequestsScreenDocument } from '../../src/generated/graphql';
import { expectNoConsoleWarnings } from '../helpers/apollo-warnings';
import type { TestUser } from '../helpers/emulator';
import { pendingRequest } from '../helpers/roster';
import { useStack } from '../helpers/stack';

const stack = useStack();

/** An Apollo client acting as `user`, configured as a client of any Relay-style API is. */
function apolloFor(user: TestUser) {
  return new ApolloClient({
    link: new HttpLink({ uri: `${stack.url}/graphql`, fetch, headers: { app_id: stack.emu.appId, 'access-token': user.token } }),
    cache: new InMemoryCache({
      typePolicies: { User: { fields: { friends: relayStylePagination(), friendRequests: relayStylePagination() } } },
    }),
  });
}

expectNoConsoleWarnings();

describe('Apollo Client 4 and the contacts screens', () => {
  it('shows the accepted friend in the cached contacts list and the request ACCEPTED, with no cache code', async () => {
    const [alice, bob] = [await stack.emu.user(), await stack.emu.user()];
    await pendingRequest(stack.emu, alice, bob);
    const client = apolloFor(bob);

    // Both screens are open (cached): no friends yet, one pending request.
    const contacts = await client.query({ query: ContactsScreenDocument });
    expect(contacts.data?.me?.friends.edges).toEqual([]);
    const requests = await client.query({ query: FriendRequestsScreenDocument });
    expect(requests.data?.me?.friendRequests.edges.map((e) => e.node.status)).toEqual(['PENDING']);

    const accepted = await client.mutate({ mutation: AcceptFriendRequestDocument, variables: { fromId: String(alice.id) } });
    expect(accepted.data?.acceptFriendRequest).toMatchObject({ ok: true, userErrors: [] });

    // Read from the cache alone: what the screens show now.
    stack.emu.server.resetCalls();
    const contactsNow = client.readQuery({ query: ContactsScreenDocument });
    expect(contactsNow?.me?.friends.edges.map((e) => [e.node.id, e.node.relation])).toEqual([[String(alice.id), 'FRIEND']]);
    expect(contactsNow?.me?.friends.totalCount).toBe(1);
    const requestsNow = client.readQuery({ query: FriendRequestsScreenDocument });
    expect(requestsNow?.me?.friendRequests.edges.map((e) => [e.node.fromId, e.node.status])).toEqual([[String(alice.id), 'ACCEPTED']]);
    // A watching screen is answered by the cache: no request is sent for it.
    const watched = await client.query({ query: ContactsScreenDocument, fetchPolicy: 'cache-only' });
    expect(watched.data?.me?.friends.edges).toHaveLength(1);
    expect(stack.emu.server.calls).toEqual([]);
  });
});
