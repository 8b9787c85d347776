// The contacts screen: friends with the viewer's notes, relations, questions, findUser,
// viewerCanMessage and the personal blacklist, read through the gateway.
import { describe, expect, it } from 'vitest';
import { onlyError } from '../../helpers/stack';
import { askQuestion, befriend } from '../../helpers/roster';
import { useRosterWorld } from './roster-world';

const w = useRosterWorld();

interface FriendPage {
  me: {
    friends: {
      totalCount: number;
      edges: { cursor: string; alias: string | null; ext: string | null; muted: boolean | null; node: { id: string; relation: string } }[];
      pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; endCursor: string | null; startCursor: string | null };
    };
  };
}

const FRIENDS = `query($first: Int, $after: String, $last: Int, $before: String) {
  me { friends(first: $first, after: $after, last: $last, before: $before) {
    totalCount edges { cursor alias ext muted node { id relation } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }`;

describe('friends', () => {
  it('lists friends by ID with the viewer notes on each edge, the notes read in one POST /roster/list for the page', async () => {
    const me = await w.user();
    const friends = [await w.user(), await w.user(), await w.user()];
    for (const f of friends) await befriend(w.stack.emu, me, f, `alias-${f.id}`);
    await w.stack.emu.ok('PUT', '/roster/ext', { token: me.token, body: { user_id: friends[1]!.id, ext: 'x', mute_notification: true } });
    w.mark();
    const page = await w.data<FriendPage>(me, FRIENDS, { first: 10 });
    expect(page.me.friends.totalCount).toBe(3);
    expect(page.me.friends.edges.map((e) => e.node.id)).toEqual(friends.map((f) => String(f.id)));
    expect(page.me.friends.edges.map((e) => [e.alias, e.ext, e.muted, e.node.relation])).toEqual([
      [`alias-${friends[0]!.id}`, '', false, 'FRIEND'],
      [`alias-${friends[1]!.id}`, 'x', true, 'FRIEND'],
      [`alias-${friends[2]!.id}`, '', false, 'FRIEND'],
    ]);
    expect(w.endpoints().sort()).toEqual(['GET /roster/list', 'POST /roster/list']);
  });

  it('pages both ways with item cursors: first/after, then last/before', async () => {
    const me = await w.user();
    const friends = [await w.user(), await w.user(), await w.user()];
    for (const f of friends) await befriend(w.stack.emu, me, f);
    const first = await w.data<FriendPage>(me, FRIENDS, { first: 2 });
    expect(first.me.friends.edges.map((e) => e.node.id)).toEqual([friends[0]!.id, friends[1]!.id].map(String));
    expect(first.me.friends.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const next = await w.data<FriendPage>(me, FRIENDS, { first: 2, after: first.me.friends.pageInfo.endCursor });
    expect(next.me.friends.edges.map((e) => e.node.id)).toEqual([String(friends[2]!.id)]);
    expect(next.me.friends.pageInfo.hasNextPage).toBe(false);
    const back = await w.data<FriendPage>(me, FRIENDS, { last: 1, before: next.me.friends.pageInfo.startCursor });
    expect(back.me.friends.edges.map((e) => e.node.id)).toEqual([String(friends[1]!.id)]);
  });

  it('refuses a first out of range before any REST call', async () => {
    const me = await w.user();
    w.mark();
    const reply = await w.stack.gqlAs(me, FRIENDS, { first: 0 });
    expect(onlyError(reply).extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'first' });
    expect(w.endpoints()).toEqual([]);
  });
});

describe('relation', () => {
  it('answers FRIEND, FORMER_FRIEND, STRANGER and BLOCKED, for all users of the request in one POST /roster/list', async () => {
    const me = await w.user();
    const [friend, former, stranger, blocked] = [await w.user(), await w.user(), await w.user(), await w.user()];
    await befriend(w.stack.emu, me, friend);
    await befriend(w.stack.emu, me, former);
    await w.stack.emu.ok('POST', '/roster/delete', { token: me.token, query: { user_id: former.id } });
    await w.stack.emu.ok('POST', '/roster/block', { token: me.token, query: { user_id: blocked.id } });
    w.mark();
    const ids = [friend, former, stranger, blocked].map((u) => u.id);
    const data = await w.data<Record<string, { relation: string; alias: string | null }>>(
      me,
      `{ ${ids.map((id, i) => `u${i}: findUser(id: "${id}") { relation alias }`).join(' ')} }`,
    );
    expect(Object.values(data).map((u) => u.relation)).toEqual(['FRIEND', 'FORMER_FRIEND', 'STRANGER', 'BLOCKED']);
    expect(Object.values(data).map((u) => u.alias)).toEqual(['', null, null, null]);
    // Each lookup's item answers its fields: no batch read after the lookups.
    expect(w.endpoints()).toEqual(['GET /roster/id', 'GET /roster/id', 'GET /roster/id', 'GET /roster/id']);

    w.mark();
    const batch = await w.data<{ me: { blockedUsers: { nodes: { id: string; relation: string; viewerCanMessage: boolean }[] } } }>(
      me,
      '{ me { blockedUsers { nodes { id relation } } } }',
    );
    expect(batch.me.blockedUsers.nodes).toEqual([{ id: String(blocked.id), relation: 'BLOCKED' }]);
    expect(w.endpoints().sort()).toEqual(['GET /roster/blocked_list', 'POST /roster/list']);
  });

  it("answers the user's question only where they ask one", async () => {
    const [me, asks, admits] = [await w.user(), await w.user(), await w.user()];
    await askQuestion(w.stack.emu, asks, 'Favourite colour?', 'blue');
    const data = await w.data<{ a: { authQuestion: string | null }; b: { authQuestion: string | null } }>(
      me,
      `{ a: findUser(id: "${asks.id}") { authQuestion } b: findUser(id: "${admits.id}") { authQuestion } }`,
    );
    expect(data).toEqual({ a: { authQuestion: 'Favourite colour?' }, b: { authQuestion: null } });
  });
});

describe('findUser', () => {
  it('finds a user by user name and by mobile number', async () => {
    const [me, other] = [await w.user(), await w.user()];
    const mobile = `139${String(other.id).slice(-8).padStart(8, '0')}`;
    await w.stack.emu.ok('PUT', '/user/mobile', { token: other.token, query: { mobile } });
    const byName = await w.data<{ findUser: { id: string; relation: string } }>(
      me,
      `{ findUser(username: "${other.name}") { id relation } }`,
    );
    expect(byName.findUser).toEqual({ id: String(other.id), relation: 'STRANGER' });
    w.mark();
    const byMobile = await w.data<{ findUser: { id: string } }>(me, `{ findUser(mobile: "${mobile}") { id } }`);
    expect(byMobile.findUser).toEqual({ id: String(other.id) });
    expect(w.endpoints()).toEqual(['GET /roster/mobile']);
  });

  it('answers null for nobody', async () => {
    const me = await w.user();
    const data = await w.data<{ a: null; b: null }>(me, '{ a: findUser(id: "1") { id } b: findUser(username: "nobody-at-all") { id } }');
    expect(data).toEqual({ a: null, b: null });
  });

  it('refuses none or several arguments with BAD_USER_INPUT before any REST call', async () => {
    const me = await w.user();
    w.mark();
    const none = await w.stack.gqlAs(me, '{ findUser { id } }');
    expect(onlyError(none).extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'id' });
    const two = await w.stack.gqlAs(me, `{ findUser(id: "${me.id}", username: "x") { id } }`);
    expect(onlyError(two).extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'username' });
    expect(w.endpoints()).toEqual([]);
  });
});

describe('viewerCanMessage', () => {
  it('is false only when the user has the viewer on their blacklist', async () => {
    const [me, open, blocker] = [await w.user(), await w.user(), await w.user()];
    await w.stack.emu.ok('POST', '/roster/block', { token: blocker.token, query: { user_id: me.id } });
    const data = await w.data<{ a: { viewerCanMessage: boolean }; b: { viewerCanMessage: boolean } }>(
      me,
      `{ a: user(id: "${open.id}") { viewerCanMessage } b: user(id: "${blocker.id}") { viewerCanMessage } }`,
    );
    expect(data).toEqual({ a: { viewerCanMessage: true }, b: { viewerCanMessage: false } });
    expect(w.stack.emu.server.calls.filter((c) => c.endpoint === 'GET /roster/may_message').map((c) => c.query)).toEqual(
      expect.arrayContaining([{ user_id: String(me.id), roster_id: String(blocker.id) }]),
    );
  });
});
