// Other users' public face (nickName, avatar, publicInfo, online) for a user token: through the
// gateway's service credential, one REST call per peer per request, remembered briefly per app;
// without the credential, null without an error. Private fields stay the caller's own.
import { describe, expect, it } from 'vitest';
import type { Group } from '../../../src/rest/records';
import { type Stack, startStack, useCredentialStacks } from '../../helpers/stack';
import { tokenOf } from '../../helpers/users';

const { withCredential, without } = useCredentialStacks();

/** Users with nicknames, and a group of all of them owned by the first, where each has spoken. */
async function chatGroup(stack: Stack, nicks: string[]) {
  const { emu } = stack;
  const users = await Promise.all(nicks.map(() => emu.user()));
  await Promise.all(users.map((u, i) => emu.ok('PUT', '/user/nickname', { token: u.token, query: { nick_name: nicks[i]! } })));
  const [owner, ...rest] = users;
  const g = await emu.ok<Group>('POST', '/group/create', { token: owner!.token, body: { name: 'team', user_list: rest.map((u) => u.id) } });
  const groupId = Number(g.group_id);
  for (const u of users) {
    const body = { content_type: 0, content: `hi from ${u.name}`, attachment: '', targets: [groupId], type: 2 };
    expect((await emu.rest('POST', '/message/send', { token: u.token, body })).code).toBe(200);
  }
  return { users, groupId };
}

const GROUP_SCREEN = `query($g: ID!) {
  group(id: $g) {
    owner { nickName }
    members { nodes { user { id nickName avatar publicInfo online } } }
  }
  me { conversation(with: $g) { nodes { from { nickName } } } }
}`;

describe('with a service credential', () => {
  it("shows a user token its peers' names, one profile call per peer per request", async () => {
    const stack = withCredential;
    const { users, groupId } = await chatGroup(stack, ['Ann', 'Bob', 'Cy']);
    const [, bob] = users;
    stack.emu.server.resetCalls();

    const reply = await stack.gql<{
      group: { owner: { nickName: string }; members: { nodes: { user: { id: string; nickName: string; online: boolean } }[] } };
      me: { conversation: { nodes: { from: { nickName: string } }[] } };
    }>(GROUP_SCREEN, { g: String(groupId) }, tokenOf(bob!));
    expect(reply.errors).toBeUndefined();
    expect(reply.data!.group.owner.nickName).toBe('Ann');
    expect(reply.data!.group.members.nodes.map((n) => n.user.nickName).sort()).toEqual(['Ann', 'Bob', 'Cy']);
    expect(reply.data!.me.conversation.nodes.map((n) => n.from.nickName)).toEqual(['Ann', 'Bob', 'Cy']);

    const profiles = stack.emu.server.calls.filter((c) => c.endpoint === 'GET /user/profile');
    // One with the caller's own token (who is asking), one per peer as that peer (the service
    // token with a user_id header: a user token never sends one).
    expect(profiles).toHaveLength(3);
    const asService = profiles.filter((c) => c.headers.user_id !== undefined);
    expect(asService.map((c) => c.headers.user_id).sort()).toEqual([String(users[0]!.id), String(users[2]!.id)].sort());
  });

  it('answers the same peers again from the brief per-app cache', async () => {
    const stack = withCredential;
    const { users, groupId } = await chatGroup(stack, ['Dee', 'Eve']);
    const first = await stack.gql(GROUP_SCREEN, { g: String(groupId) }, tokenOf(users[0]!));
    expect(first.errors).toBeUndefined();
    stack.emu.server.resetCalls();

    const again = await stack.gql(GROUP_SCREEN, { g: String(groupId) }, tokenOf(users[1]!));
    expect(again.errors).toBeUndefined();
    // Dee's view read Eve through the credential, and Dee as listed among them (her profile from
    // her own proof, her online flag as a peer's): Eve's view needs no peer read at all.
    const serviceCalls = stack.emu.server.calls.filter((c) => c.headers.user_id !== undefined);
    expect(serviceCalls.map((c) => `${c.endpoint} ${c.headers.user_id}`)).toEqual([]);
  });

  it('shows the caller its own change in the next list at once: its write through the gateway forgets its cached face', async () => {
    const stack = withCredential;
    const { users, groupId } = await chatGroup(stack, ['Ida', 'Jon']);
    const [, jon] = users;
    const names = async () => {
      const reply = await stack.gql<{ group: { members: { nodes: { user: { nickName: string } }[] } } }>(
        'query($g: ID!) { group(id: $g) { members { nodes { user { nickName } } } } }',
        { g: String(groupId) },
        tokenOf(jon!),
      );
      expect(reply.errors).toBeUndefined();
      return reply.data!.group.members.nodes.map((n) => n.user.nickName).sort();
    };
    expect(await names()).toEqual(['Ida', 'Jon']);
    const set = await stack.gql('mutation { setNickname(input: { nickName: "Jonny" }) { ok } }', {}, tokenOf(jon!));
    expect(set.errors).toBeUndefined();
    expect(await names()).toEqual(['Ida', 'Jonny']);
  });

  it("shows an admin's batch change of other users in the next list at once", async () => {
    const stack = withCredential;
    const { users, groupId } = await chatGroup(stack, ['Kay', 'Lea']);
    const [kay, lea] = users;
    const avatars = async () => {
      const reply = await stack.gql<{ group: { members: { nodes: { user: { id: string; avatar: string | null } }[] } } }>(
        'query($g: ID!) { group(id: $g) { members { nodes { user { id avatar } } } } }',
        { g: String(groupId) },
        tokenOf(kay!),
      );
      return reply.data!.group.members.nodes.find((n) => n.user.id === String(lea!.id))?.user.avatar;
    };
    expect(await avatars()).toBe('');
    const set = await stack.gql(
      'mutation($u: ID!) { setUserAvatars(input: { avatars: [{ userId: $u, avatar: "https://img.example/lea.png" }] }) { ok } }',
      { u: String(lea!.id) },
      { 'access-token': stack.emu.adminToken },
    );
    expect(set.errors).toBeUndefined();
    expect(await avatars()).toBe('https://img.example/lea.png');
  });

  it("keeps private fields the caller's own: another user's email is null, with no error (issue 42)", async () => {
    const stack = withCredential;
    const [a, b] = await Promise.all([stack.emu.user(), stack.emu.user()]);
    await stack.emu.ok('PUT', '/user/nickname', { token: b.token, query: { nick_name: 'Hal' } });
    const reply = await stack.gql('query($id: ID!) { user(id: $id) { nickName email } }', { id: String(b.id) }, tokenOf(a));
    expect(reply).toEqual({ data: { user: { nickName: 'Hal', email: null } } });
  });

  const PEER_NICK = 'query($id: ID!) { user(id: $id) { nickName } }';

  it("remembers the caller's proof per token: a second request reads no own profile", async () => {
    const stack = withCredential;
    const [a, b] = await Promise.all([stack.emu.user(), stack.emu.user()]);
    await stack.emu.ok('PUT', '/user/nickname', { token: b.token, query: { nick_name: 'Jo' } });
    // The caller's own reads: its token without a user_id header (the credential's carry one).
    const ownReads = () => stack.emu.calls('GET /user/profile').filter((c) => c.headers.user_id === undefined);

    stack.emu.mark();
    expect(await stack.gql(PEER_NICK, { id: String(b.id) }, tokenOf(a))).toEqual({ data: { user: { nickName: 'Jo' } } });
    expect(ownReads()).toHaveLength(1);

    stack.emu.mark();
    expect(await stack.gql(PEER_NICK, { id: String(b.id) }, tokenOf(a))).toEqual({ data: { user: { nickName: 'Jo' } } });
    // The proof and the peer both remembered: the second request makes no REST call at all.
    expect(ownReads()).toHaveLength(0);
    expect(stack.emu.calls()).toHaveLength(0);
  });

  it('forgets the proof at once when a call with that token is refused', async () => {
    const stack = withCredential;
    const [a, b] = await Promise.all([stack.emu.user(), stack.emu.user()]);
    await stack.emu.ok('PUT', '/user/nickname', { token: b.token, query: { nick_name: 'Kit' } });
    expect(await stack.gql(PEER_NICK, { id: String(b.id) }, tokenOf(a))).toEqual({ data: { user: { nickName: 'Kit' } } });

    stack.emu.server.state.tokens.revoke(a.id);
    // Any call with the revoked token answers 10008: the gateway forgets what proved it.
    const me = await stack.gql('{ me { id } }', {}, tokenOf(a));
    expect(me.errors).toMatchObject([{ extensions: { code: 'UNAUTHENTICATED' } }]);

    // Remembered, the proof and the cached peer would still answer 'Kit'; the token is asked again.
    const reply = await stack.gql(PEER_NICK, { id: String(b.id) }, tokenOf(a));
    expect(reply.data).toEqual({ user: null });
    expect(reply.errors).toMatchObject([{ path: ['user'], extensions: { code: 'UNAUTHENTICATED' } }]);
  });

  it("serves the service token's reads of listed users from the app cache, its acting user's too", async () => {
    const stack = withCredential;
    const [a, b] = await Promise.all([stack.emu.user(), stack.emu.user()]);
    await stack.emu.ok('PUT', '/user/nickname', { token: a.token, query: { nick_name: 'Max' } });
    await stack.emu.ok('PUT', '/user/nickname', { token: b.token, query: { nick_name: 'Lou' } });
    const query = 'query($a: ID!, $b: ID!) { a: user(id: $a) { nickName } b: user(id: $b) { nickName } }';
    const ask = () => stack.gql(query, { a: String(a.id), b: String(b.id) }, stack.asUser(a.id));
    expect((await ask()).errors).toBeUndefined();

    stack.emu.mark();
    expect((await ask()).data).toEqual({ a: { nickName: 'Max' }, b: { nickName: 'Lou' } });
    // Both from the app cache: the acting user listed by ID is read like anyone listed.
    expect(stack.emu.calls('GET /user/profile')).toEqual([]);
  });

  it('refuses a caller without a valid token: the credential serves signed-in users only', async () => {
    const stack = withCredential;
    const b = await stack.emu.user();
    stack.emu.server.resetCalls();
    const reply = await stack.gql(
      'query($id: ID!) { user(id: $id) { nickName } }',
      { id: String(b.id) },
      { 'access-token': 'not-a-token' },
    );
    // The refusal comes from reading whether the user exists, with the caller's own token.
    expect(reply.data).toEqual({ user: null });
    expect(reply.errors).toMatchObject([{ path: ['user'], extensions: { code: 'UNAUTHENTICATED' } }]);
    expect(stack.emu.server.calls.filter((c) => c.headers.user_id !== undefined)).toHaveLength(0);
  });
});

describe('without a service credential', () => {
  it("answers peers' public fields with null and no error, the caller's own still read", async () => {
    const stack = without;
    const { users, groupId } = await chatGroup(stack, ['Fay', 'Gus']);
    const reply = await stack.gql<{
      group: { owner: { nickName: string | null }; members: { nodes: { user: { id: string; nickName: string | null } }[] } };
    }>(GROUP_SCREEN, { g: String(groupId) }, tokenOf(users[1]!));
    expect(reply.errors).toBeUndefined();
    expect(reply.data!.group.owner.nickName).toBeNull();
    const byId = Object.fromEntries(reply.data!.group.members.nodes.map((n) => [n.user.id, n.user.nickName]));
    expect(byId).toEqual({ [String(users[0]!.id)]: null, [String(users[1]!.id)]: 'Gus' });
  });
});

describe('another admin token of the app than the credential', () => {
  it('reads peers and their ban status, acting as no user', async () => {
    const stack = await startStack({}, { serviceCredential: true, emulator: { otherAdminTokens: ['second-admin-token'] } });
    try {
      const peer = await stack.emu.user();
      await stack.emu.ok('PUT', '/user/nickname', { token: peer.token, query: { nick_name: 'Ida' } });
      const reply = await stack.gql(
        'query($id: ID!) { user(id: $id) { nickName online status } }',
        { id: String(peer.id) },
        {
          'access-token': 'second-admin-token',
        },
      );
      // Before, its check of who is asking (a profile read without user_id) failed every field.
      expect(reply).toEqual({ data: { user: { nickName: 'Ida', online: true, status: 'NORMAL' } } });
    } finally {
      await stack.stop();
    }
  });
});
