// The chat home screen: me.conversations (the recent conversations, read or not, plus the joined
// groups) with each peer, unread count and last message, paged both ways with cursors that survive
// a list that moves; Conversation.messages; Group.unreadCount.
// Each test checks the values and the REST calls the emulator received: the list's reads do not
// grow with its length, and reading the last message marks nothing but that message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group } from '../../../src/rest/records';
import type { TestEmulator } from '../../helpers/emulator';
import { startStack, type Stack } from '../../helpers/stack';

let stack: Stack;
let emu: TestEmulator;
beforeAll(async () => {
  stack = await startStack();
  emu = stack.emu;
});
afterAll(() => stack.stop());

type TestUser = Awaited<ReturnType<TestEmulator['user']>>;

const gqlAs = <T = Record<string, unknown>>(u: TestUser, query: string, vars: Record<string, unknown> = {}) =>
  stack.gql<T>(query, vars, { 'access-token': u.token });

async function send(from: TestUser, to: number, content: string, type = 1): Promise<string> {
  const body = { content_type: 0, content, attachment: '', targets: [to], type };
  const reply = await emu.rest('POST', '/message/send', { token: from.token, body });
  expect(reply.code).toBe(200);
  return /"msg_ids":\[(\d+)\]/.exec(reply.text)![1]!;
}

async function groupOf(owner: TestUser, members: TestUser[], name = 'team'): Promise<number> {
  const body = { name, user_list: members.map((m) => m.id) };
  return Number((await emu.ok<Group>('POST', '/group/create', { token: owner.token, body })).group_id);
}

/** Statuses of a sender's messages to `to`, newest first, as the sender sees them (a read that marks nothing of the receiver's). */
async function statusesSeenBy(sender: TestUser, to: number): Promise<string[]> {
  const reply = await emu.rest('GET', '/message/conversation', {
    token: sender.token,
    query: { opposite_id: to, msg_id_start: 0, limit: 100 },
  });
  return [...reply.text.matchAll(/"status":"(\w+)"/g)].map((m) => m[1]!);
}

const endpointsCalled = () => emu.server.calls.map((c) => c.endpoint);
const count = (list: string[]) => list.reduce<Record<string, number>>((acc, e) => ({ ...acc, [e]: (acc[e] ?? 0) + 1 }), {});

const HOME = `query($first: Int, $after: String) { me { conversations(first: $first, after: $after) {
  totalCount pageInfo { hasNextPage endCursor }
  nodes { id unreadCount peer { __typename ... on User { id } ... on Group { id name unreadCount } }
          lastMessage { id content status } } } } }`;

interface HomeNode {
  id: string;
  unreadCount: number;
  peer: { __typename: 'User' | 'Group'; id: string; name?: string; unreadCount?: number } | null;
  lastMessage: { id: string; content: string; status: string } | null;
}
interface Home {
  me: { conversations: { totalCount: number; pageInfo: { hasNextPage: boolean; endCursor: string | null }; nodes: HomeNode[] } };
}

const PAGED = `query($first: Int, $after: String, $last: Int, $before: String) { me {
  conversations(first: $first, after: $after, last: $last, before: $before) {
    pageInfo { hasPreviousPage hasNextPage startCursor endCursor } edges { cursor node { id } } } } }`;

interface Paged {
  me: {
    conversations: {
      pageInfo: { hasPreviousPage: boolean; hasNextPage: boolean; startCursor: string | null; endCursor: string | null };
      edges: { cursor: string; node: { id: string } }[];
    };
  };
}

const ids = (page: Paged['me']['conversations']) => page.edges.map((e) => e.node.id);

/** A user with `peers` one-to-one conversations (one unread message each) and `groups` groups, the first with an unread message. */
async function homeOf(peers: number, groups: number) {
  const me = await emu.user();
  const others = await Promise.all(Array.from({ length: peers }, () => emu.user()));
  const owner = await emu.user();
  const groupIds: number[] = [];
  for (let i = 0; i < groups; i++) groupIds.push(await groupOf(owner, [me], `g${i}`));
  if (groupIds[0] !== undefined) await send(owner, groupIds[0], 'to the group', 2);
  for (const [i, o] of others.entries()) await send(o, me.id, `hello ${i}`);
  return { me, others, owner, groupIds };
}

describe('me.conversations', () => {
  it('lists the recent conversations (newest activity first), then the other joined groups, with peer, unreadCount and lastMessage', async () => {
    const { me, others, groupIds } = await homeOf(2, 2);
    emu.server.resetCalls();
    const reply = await gqlAs<Home>(me, HOME);
    expect(reply.errors).toBeUndefined();
    const list = reply.data!.me.conversations;
    expect(list.totalCount).toBe(4);
    expect(list.pageInfo).toEqual({ hasNextPage: false, endCursor: expect.any(String) });
    expect(list.nodes.map((n) => ({ id: n.id, unreadCount: n.unreadCount, peer: n.peer, content: n.lastMessage?.content }))).toEqual([
      { id: String(others[1]!.id), unreadCount: 1, peer: { __typename: 'User', id: String(others[1]!.id) }, content: 'hello 1' },
      { id: String(others[0]!.id), unreadCount: 1, peer: { __typename: 'User', id: String(others[0]!.id) }, content: 'hello 0' },
      {
        id: String(groupIds[0]),
        unreadCount: 1,
        peer: { __typename: 'Group', id: String(groupIds[0]), name: 'g0', unreadCount: 1 },
        content: 'to the group',
      },
      {
        id: String(groupIds[1]),
        unreadCount: 0,
        peer: { __typename: 'Group', id: String(groupIds[1]), name: 'g1', unreadCount: 0 },
        content: undefined,
      },
    ]);
    // The status as it was before this read.
    expect(list.nodes[0]!.lastMessage!.status).toBe('UNREAD');
    expect(count(endpointsCalled())).toEqual({
      'GET /message/unread': 1,
      'GET /group/user_joined': 1,
      'GET /user/conversation/pin_list': 1,
      'POST /group/info/batch': 1,
      'GET /message/conversation': 4,
    });
  });

  it('costs the same list reads for 8 conversations as for 2: only the last messages are read one by one', async () => {
    const small = await homeOf(1, 1);
    const large = await homeOf(4, 4);
    const callsFor = async (me: TestUser) => {
      emu.server.resetCalls();
      const reply = await gqlAs<Home>(me, HOME);
      expect(reply.errors).toBeUndefined();
      return { n: reply.data!.me.conversations.nodes.length, calls: count(endpointsCalled()) };
    };
    const a = await callsFor(small.me);
    const b = await callsFor(large.me);
    expect([a.n, b.n]).toEqual([2, 8]);
    const { 'GET /message/conversation': historiesA, ...listA } = a.calls;
    const { 'GET /message/conversation': historiesB, ...listB } = b.calls;
    expect(listB).toEqual(listA);
    expect([historiesA, historiesB]).toEqual([2, 8]);
  });

  it('reads the last message marking only that one DELIVERED: older unread messages stay UNREAD, the unread count stays', async () => {
    const [me, peer] = [await emu.user(), await emu.user()];
    await send(peer, me.id, 'first');
    await send(peer, me.id, 'second');
    const reply = await gqlAs<Home>(me, HOME);
    expect(reply.data!.me.conversations.nodes.map((n) => [n.lastMessage?.content, n.unreadCount])).toEqual([['second', 2]]);
    expect(await statusesSeenBy(peer, me.id)).toEqual(['DELIVERED', 'UNREAD']);
    const again = await gqlAs<Home>(me, HOME);
    expect(again.data!.me.conversations.nodes[0]!.unreadCount).toBe(2);
  });

  it('pages with first/after: every conversation once, until hasNextPage is false', async () => {
    const { me } = await homeOf(3, 2);
    const seen: string[] = [];
    let after: string | null = null;
    for (let pages = 0; pages < 5; pages++) {
      const reply: Awaited<ReturnType<typeof gqlAs<Home>>> = await gqlAs<Home>(me, HOME, { first: 2, after });
      expect(reply.errors).toBeUndefined();
      const { nodes, pageInfo } = reply.data!.me.conversations;
      seen.push(...nodes.map((n) => n.id));
      expect(pageInfo.endCursor).toEqual(nodes.length > 0 ? expect.any(String) : null);
      if (!pageInfo.hasNextPage) break;
      after = pageInfo.endCursor;
    }
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
  });

  it('keeps a conversation marked read on the list, with unreadCount 0 and its last message', async () => {
    const [bob, alice] = [await emu.user(), await emu.user()];
    await send(alice, bob.id, 'hi bob');
    const read = await gqlAs(bob, 'mutation($id: ID!) { markConversationRead(input: { conversationId: $id }) { ok } }', {
      id: String(alice.id),
    });
    expect(read.errors).toBeUndefined();
    const reply = await gqlAs<Home>(bob, HOME);
    expect(reply.errors).toBeUndefined();
    expect(reply.data!.me.conversations.nodes.map((n) => [n.id, n.unreadCount, n.lastMessage?.content])).toEqual([
      [String(alice.id), 0, 'hi bob'],
    ]);
  });

  it('pages on after a row moved to the top between two pages: no row twice, and the moved row is read before the first page', async () => {
    const { me, others } = await homeOf(4, 0); // newest first: others[3], [2], [1], [0]
    const first = await gqlAs<Paged>(me, PAGED, { first: 2 });
    expect(first.errors).toBeUndefined();
    const page1 = first.data!.me.conversations;
    expect(ids(page1)).toEqual([others[3]!.id, others[2]!.id].map(String));

    await send(others[0]!, me.id, 'back on top'); // a row of page 2 moves above page 1
    const second = await gqlAs<Paged>(me, PAGED, { first: 2, after: page1.pageInfo.endCursor });
    expect(second.errors).toBeUndefined();
    const page2 = second.data!.me.conversations;
    expect(ids(page2)).toEqual([String(others[1]!.id)]);
    expect(page2.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false });

    const newer = await gqlAs<Paged>(me, PAGED, { last: 10, before: page1.pageInfo.startCursor });
    expect(newer.errors).toBeUndefined();
    expect(ids(newer.data!.me.conversations)).toEqual([String(others[0]!.id)]);
    expect(newer.data!.me.conversations.pageInfo).toMatchObject({ hasPreviousPage: false, hasNextPage: true });
  });

  it('pages backwards with last/before from the end of the list to its start', async () => {
    const { me, others, groupIds } = await homeOf(3, 1);
    const all = [others[2]!.id, others[1]!.id, others[0]!.id, groupIds[0]!].map(String);
    const seen: string[][] = [];
    let before: string | null = null;
    for (let pages = 0; pages < 4; pages++) {
      const reply: Awaited<ReturnType<typeof gqlAs<Paged>>> = await gqlAs<Paged>(me, PAGED, { last: 3, before });
      expect(reply.errors).toBeUndefined();
      const list = reply.data!.me.conversations;
      seen.unshift(ids(list));
      if (!list.pageInfo.hasPreviousPage) break;
      before = list.pageInfo.startCursor;
    }
    expect(seen).toEqual([all.slice(0, 1), all.slice(1)]);
  });

  it('refuses first and last together, naming `last`, before any REST call', async () => {
    const me = await emu.user();
    emu.server.resetCalls();
    const reply = await gqlAs(me, PAGED, { first: 1, last: 1 });
    expect(reply.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'last' });
    expect(endpointsCalled()).toEqual([]);
  });

  it('refuses a cursor it did not give, naming `after`, before any REST call', async () => {
    const me = await emu.user();
    emu.server.resetCalls();
    const reply = await gqlAs(me, HOME, { after: 'abc' });
    expect(reply.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'after' });
    expect(endpointsCalled()).toEqual([]);
  });
});

describe('Conversation.messages', () => {
  it('pages a conversation backwards with last/before, oldest first within a page', async () => {
    const [me, peer] = [await emu.user(), await emu.user()];
    for (const text of ['m1', 'm2', 'm3']) await send(peer, me.id, text);
    const query = `query($before: String) { me { conversations { nodes { messages(last: 2, before: $before) {
      nodes { content } pageInfo { hasPreviousPage startCursor } } } } } }`;
    type Reply = {
      me: {
        conversations: {
          nodes: { messages: { nodes: { content: string }[]; pageInfo: { hasPreviousPage: boolean; startCursor: string | null } } }[];
        };
      };
    };
    const first = await gqlAs<Reply>(me, query);
    const newest = first.data!.me.conversations.nodes[0]!.messages;
    expect(newest.nodes.map((m) => m.content)).toEqual(['m2', 'm3']);
    expect(newest.pageInfo.hasPreviousPage).toBe(true);
    const older = (await gqlAs<Reply>(me, query, { before: newest.pageInfo.startCursor })).data!.me.conversations.nodes[0]!.messages;
    expect(older.nodes.map((m) => m.content)).toEqual(['m1']);
    expect(older.pageInfo).toEqual({ hasPreviousPage: false, startCursor: expect.any(String) });
  });
});

describe('Group.unreadCount', () => {
  it('answers every joined group from one GET /message/unread', async () => {
    const { me, groupIds } = await homeOf(0, 3);
    emu.server.resetCalls();
    const reply = await gqlAs<{ me: { joinedGroups: { nodes: { id: string; unreadCount: number }[] } } }>(
      me,
      '{ me { joinedGroups { nodes { id unreadCount } } } }',
    );
    expect(reply.errors).toBeUndefined();
    expect(reply.data!.me.joinedGroups.nodes).toEqual(groupIds.map((id, i) => ({ id: String(id), unreadCount: i === 0 ? 1 : 0 })));
    expect(count(endpointsCalled())).toEqual({ 'GET /group/user_joined': 1, 'GET /message/unread': 1 });
  });
});
