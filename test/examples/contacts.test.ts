// The contacts examples (examples/contacts.graphql) as a client uses them: search, add, the
// requests screen, accept, and the contacts screen, as generated typed documents.
import { describe, expect, it } from 'vitest';
import {
  AcceptFriendRequestDocument,
  AddFriendDocument,
  ContactsScreenDocument,
  FindUserByNameDocument,
  FriendRequestsScreenDocument,
} from '../../src/generated/graphql';
import { setAuthMode } from '../helpers/roster';
import { useStack } from '../helpers/stack';
import { run } from '../helpers/typed';

const stack = useStack();
const as = (u: { token: string }) => ({ 'access-token': u.token });

describe('contacts examples', () => {
  it('FindUserByName and AddFriend ask; FriendRequestsScreen and AcceptFriendRequest answer; ContactsScreen shows the friend', async () => {
    const [alice, bob] = [await stack.emu.user(), await stack.emu.user()];
    await setAuthMode(stack.emu, bob, 1);
    const found = await run(stack, FindUserByNameDocument, { username: bob.name }, as(alice));
    expect(found.data?.findUser).toMatchObject({ id: String(bob.id), relation: 'STRANGER', authQuestion: null, viewerCanMessage: true });

    const added = await run(stack, AddFriendDocument, { userId: String(bob.id), message: 'Hi Bob' }, as(alice));
    expect(added.data?.sendFriendRequest).toMatchObject({ ok: true, userErrors: [], outcome: 'WAITING', user: { relation: 'STRANGER' } });

    const requests = await run(stack, FriendRequestsScreenDocument, {}, as(bob));
    const row = requests.data?.me?.friendRequests.edges[0]?.node;
    expect(row).toMatchObject({ fromId: String(alice.id), message: 'Hi Bob', status: 'PENDING', from: { id: String(alice.id) } });

    const accepted = await run(stack, AcceptFriendRequestDocument, { fromId: row!.fromId }, as(bob));
    expect(accepted.data?.acceptFriendRequest).toMatchObject({
      ok: true,
      request: { id: row!.id, status: 'ACCEPTED' },
      user: { id: String(alice.id), relation: 'FRIEND' },
      me: { friends: { totalCount: 1 } },
    });

    const contacts = await run(stack, ContactsScreenDocument, {}, as(alice));
    expect(contacts.data?.me?.friends.edges.map(({ node: { id, relation, alias, muted } }) => ({ id, relation, alias, muted }))).toEqual([
      { id: String(bob.id), relation: 'FRIEND', alias: '', muted: false },
    ]);
  });
});
