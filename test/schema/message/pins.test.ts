// Conversation pins: pinConversation / unpinConversation (global or plain conversation IDs),
// Conversation.pinned, me.conversations with the pinned rows first (newest pin first) and item
// cursors that stay exact while a pin moves a row, me.pinnedConversations, and the refusals.
import { describe, expect, it } from 'vitest';
import { encodeGlobalId } from '../../../src/schema/core/global-id';
import type { TestUser } from '../../helpers/emulator';
import { createGroup } from '../../helpers/groups';
import { type GqlReply, onlyError, useStack } from '../../helpers/stack';
import { sendText } from '../../helpers/subscriptions/operations';

const stack = useStack();

const gqlAs = <T = Record<string, unknown>>(u: TestUser, query: string, vars: Record<string, unknown> = {}, headers = {}) =>
  stack.gql<T>(query, vars, { 'access-token': u.token, ...headers });

function dataOf<T>(reply: GqlReply<T>): T {
  expect(reply.errors).toBeUndefined();
  return reply.data!;
}

const count = (list: string[]) => list.reduce<Record<string, number>>((acc, e) => ({ ...acc, [e]: (acc[e] ?? 0) + 1 }), {});

/** A user with one conversation per peer, the last peer's the newest. */
async function homeWith(peers: number) {
  const me = await stack.emu.user();
  const others: TestUser[] = [];
  for (let i = 0; i < peers; i++) {
    const other = await stack.emu.user();
    await sendText(stack.emu, other, me, `hello ${i}`);
    others.push(other);
  }
  return { me, others };
}

const LIST = `query($first: Int, $after: String, $last: Int, $before: String) { me {
  conversations(first: $first, after: $after, last: $last, before: $before) {
    pageInfo { hasNextPage endCursor startCursor } edges { cursor node { id pinned } } } } }`;
type List = {
  me: {
    conversations: {
      pageInfo: { hasNextPage: boolean; endCursor: string | null; startCursor: string | null };
      edges: { cursor: string; node: { id: string; pinned: boolean } }[];
    };
  };
};

const PIN = `mutation($id: ID!) { pinConversation(conversationId: $id) {
  ok userErrors { code field message } conversationId conversation { id pinned unreadCount }
  user { conversations(first: 10) { edges { node { id pinned } } } } } }`;
const UNPIN = `mutation($id: ID!) { unpinConversation(conversationId: $id) {
  ok userErrors { code field } conversation { id pinned } } }`;
type PinReply = {
  ok: boolean;
  userErrors: { code: string; field: string[] | null; message?: string }[];
  conversationId?: string;
  conversation: { id: string; pinned: boolean; unreadCount?: number } | null;
  user?: { conversations: { edges: { node: { id: string; pinned: boolean } }[] } };
};

const pin = async (u: TestUser, id: number | string, headers = {}) =>
  dataOf(await gqlAs<{ pinConversation: PinReply }>(u, PIN, { id: String(id) }, headers)).pinConversation;
const unpin = async (u: TestUser, id: number | string) =>
  dataOf(await gqlAs<{ unpinConversation: PinReply }>(u, UNPIN, { id: String(id) })).unpinConversation;
const listOf = async (u: TestUser, vars: Record<string, unknown> = { first: 50 }) =>
  dataOf(await gqlAs<List>(u, LIST, vars)).me.conversations;
const idsOf = (page: List['me']['conversations']) => page.edges.map((e) => e.node.id);

describe('pinConversation and unpinConversation', () => {
  it('lists pinned conversations first, newest pin first, the payload answering the row and the list in its new order', async () => {
    const { me, others } = await homeWith(4);
    const [u0, u1, u2, u3] = others.map((o) => String(o.id));
    expect(idsOf(await listOf(me))).toEqual([u3, u2, u1, u0]);

    expect((await pin(me, u1!)).ok).toBe(true);
    stack.emu.mark();
    const second = await pin(me, u0!);
    expect(second).toEqual({
      ok: true,
      userErrors: [],
      conversationId: u0,
      conversation: { id: u0, pinned: true, unreadCount: 1 },
      user: {
        conversations: {
          edges: [u0, u1, u3, u2].map((id) => ({ node: { id, pinned: id === u0 || id === u1 } })),
        },
      },
    });
    // The write, then the list read once for the row and the user's list alike (the request's GET memo).
    expect(count(stack.emu.calls().map((c) => c.endpoint))).toEqual({
      'PUT /user/conversation/pin': 1,
      'GET /user/conversation/pin_list': 1,
      'GET /message/unread': 1,
      'GET /group/user_joined': 1,
    });

    // Pinning a pinned conversation changes nothing: it keeps its place.
    expect((await pin(me, u1!)).ok).toBe(true);
    expect(idsOf(await listOf(me))).toEqual([u0, u1, u3, u2]);

    const pinned = dataOf(
      await gqlAs<{ me: { pinnedConversations: { edges: { node: { id: string } }[] } } }>(
        me,
        '{ me { pinnedConversations { edges { node { id } } } } }',
      ),
    ).me.pinnedConversations;
    expect(pinned.edges.map((e) => e.node.id)).toEqual([u0, u1]);

    expect(await unpin(me, u0!)).toEqual({ ok: true, userErrors: [], conversation: { id: u0, pinned: false } });
    expect(idsOf(await listOf(me))).toEqual([u1, u3, u2, u0]);
    // Unpinning one that is not pinned changes nothing.
    expect((await unpin(me, u0!)).ok).toBe(true);
    expect(idsOf(await listOf(me))).toEqual([u1, u3, u2, u0]);
  });

  it('takes the global ID of the row, and lists a conversation pinned before its first message', async () => {
    const [me, quiet] = [await stack.emu.user(), await stack.emu.user()];
    const global = { 'x-id-format': 'global' };
    const rowId = encodeGlobalId('Conversation', [quiet.id]);
    const reply = await pin(me, rowId, global);
    expect(reply.ok).toBe(true);
    expect(reply.conversation).toEqual({ id: rowId, pinned: true, unreadCount: 0 });
    expect(reply.user!.conversations.edges).toEqual([{ node: { id: rowId, pinned: true } }]);
    expect(idsOf(await listOf(me))).toEqual([String(quiet.id)]);
  });

  it('pages on exactly while pins move rows: no row twice, none lost, the newly pinned row read with before: startCursor', async () => {
    const { me, others } = await homeWith(5);
    const [u0, u1, u2, u3, u4] = others.map((o) => String(o.id));
    await pin(me, u2!);
    await pin(me, u3!);
    const page1 = await listOf(me, { first: 2 });
    expect(idsOf(page1)).toEqual([u3, u2]);

    // u0 (on a later page) is pinned: it moves above the first page.
    await pin(me, u0!);
    const page2 = await listOf(me, { first: 2, after: page1.pageInfo.endCursor });
    expect(idsOf(page2)).toEqual([u4, u1]);
    expect(page2.pageInfo.hasNextPage).toBe(false);
    const above = await listOf(me, { last: 10, before: page1.pageInfo.startCursor });
    expect(idsOf(above)).toEqual([u0]);

    // A pinned row's cursor: u2 (page1's last) is unpinned; reading on after it resumes beside the pin before it.
    await unpin(me, u2!);
    const fromPinned = await listOf(me, { first: 10, after: page1.pageInfo.endCursor });
    expect(idsOf(fromPinned)).toEqual([u4, u2, u1]);
  });

  it('pins a group the user is in; refuses one the user is not in, and the pin beyond the limit, as userErrors', async () => {
    const [me, owner] = [await stack.emu.user(), await stack.emu.user()];
    const mine = await createGroup(stack.emu, owner, { members: [me] });
    const theirs = await createGroup(stack.emu, owner);
    expect((await pin(me, mine)).conversation).toEqual({ id: String(mine), pinned: true, unreadCount: 0 });

    stack.emu.mark();
    const refused = await pin(me, theirs);
    expect(refused).toMatchObject({ ok: false, userErrors: [{ code: 'NOT_A_MEMBER', field: ['conversationId'] }], conversation: null });
    expect(stack.emu.calls().map((c) => c.endpoint)).toEqual(['PUT /user/conversation/pin']);

    const users = await Promise.all(Array.from({ length: 49 }, () => stack.emu.user()));
    for (const u of users) await stack.emu.ok('PUT', '/user/conversation/pin', { token: me.token, body: { conversation_id: u.id } });
    const one = await stack.emu.user();
    const beyond = await pin(me, one.id);
    expect(beyond).toMatchObject({ ok: false, userErrors: [{ code: 'TOO_MANY_PINS', field: ['conversationId'] }] });
    expect(idsOf(await listOf(me))).not.toContain(String(one.id));
  });

  it('refuses an ID that is not one before any REST call, and answers NOT_FOUND for a conversation that does not exist', async () => {
    const me = await stack.emu.user();
    stack.emu.mark();
    const bad = onlyError(await gqlAs(me, PIN, { id: 'abc' }));
    expect(bad.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(stack.emu.calls()).toEqual([]);
    const missing = onlyError(await gqlAs(me, PIN, { id: '999999999' }));
    expect(missing.extensions).toMatchObject({ code: 'NOT_FOUND', endpoint: 'PUT /user/conversation/pin' });
  });
});
