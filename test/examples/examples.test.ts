// The ready-made operations of examples/, as a client uses them: generated typed documents run
// against the gateway. A schema change that breaks a client breaks this file (types and values).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ChatHomeDocument,
  CreateGroupDocument,
  HistoryDocument,
  LogInDocument,
  MarkReadDocument,
  MeDocument,
  MyGroupsDocument,
  SendTextDocument,
  SetNicknameDocument,
  UnreadDocument,
} from '../../src/generated/graphql';
import { startStack, type Stack } from '../helpers/stack';
import { run } from '../helpers/typed';

let stack: Stack;
let alice: { id: number; token: string; name: string; password: string };
let bob: { id: number; token: string; name: string; password: string };
const as = (u: { token: string }) => ({ 'access-token': u.token });

beforeAll(async () => {
  stack = await startStack();
  alice = await stack.emu.user();
  bob = await stack.emu.user();
});
afterAll(() => stack.stop());

describe('example operations', () => {
  it('LogIn returns a token that works for Me', async () => {
    const login = await run(stack, LogInDocument, { username: alice.name, password: alice.password, deviceGuid: 'example-phone' });
    const token = login.data?.loginByName?.token?.token;
    expect(token).toBeTruthy();
    const me = await run(stack, MeDocument, {}, { 'access-token': token! });
    expect(me.errors).toBeUndefined();
    expect(me.data?.me?.username).toBe(alice.name);
    expect(me.data?.me?.devices?.nodes.map((d) => d.deviceSn)).toEqual([1]);
  });

  it('SetNickname changes the profile and reads it back', async () => {
    const reply = await run(stack, SetNicknameDocument, { nickName: 'Ally' }, as(alice));
    expect(reply.data?.setNickname).toEqual({ ok: true, userErrors: [], user: { id: String(alice.id), nickName: 'Ally' } });
  });

  it('CreateGroup and MyGroups show the new group with its members', async () => {
    const created = await run(stack, CreateGroupDocument, { name: 'Examples', userIds: [String(bob.id)] }, as(alice));
    const groupId = created.data?.createGroup?.group?.id;
    expect(created.data?.createGroup?.group).toMatchObject({ name: 'Examples', ownerId: String(alice.id), memberCount: 2 });
    const mine = await run(stack, MyGroupsDocument, { firstMembers: 10 }, as(bob));
    const group = mine.data?.me?.joinedGroups?.nodes.find((g) => g.id === groupId);
    expect(group?.members?.totalCount).toBe(2);
    expect(group?.members?.nodes.map((m) => m.userId).sort()).toEqual([String(alice.id), String(bob.id)].sort());
  });

  it('ChatHome lists a conversation with its peer, unread count and newest message', async () => {
    const carol = await stack.emu.user();
    await run(stack, SendTextDocument, { to: String(carol.id), targetType: 'USER', content: 'hi carol' }, as(alice));
    const home = await run(stack, ChatHomeDocument, {}, as(carol));
    // Another user's profile fields may be refused to a user token; they are the only errors allowed.
    for (const error of home.errors ?? []) expect(error.path?.slice(0, 5)).toEqual(['me', 'conversations', 'nodes', 0, 'peer']);
    const [first] = home.data?.me?.conversations?.nodes ?? [];
    expect(first).toMatchObject({ id: String(alice.id), unreadCount: 1, peer: { __typename: 'User', id: String(alice.id) } });
    expect(first?.lastMessage).toMatchObject({ content: 'hi carol', type: 'TEXT', from: { id: String(alice.id) } });
  });

  it('SendText, Unread, History and MarkRead make a conversation', async () => {
    const sent = await run(stack, SendTextDocument, { to: String(bob.id), targetType: 'USER', content: 'hi bob' }, as(alice));
    const messageId = sent.data?.sendMessage?.messageIds?.[0];
    expect(messageId).toMatch(/^\d{19}$/);
    const unread = await run(stack, UnreadDocument, {}, as(bob));
    expect(unread.data?.me?.unreadConversations).toContainEqual({
      conversationId: String(alice.id),
      unreadCount: 1,
      user: { id: String(alice.id) },
      group: null,
    });
    const history = await run(stack, HistoryDocument, { with: String(alice.id) }, as(bob));
    expect(history.data?.me?.conversation?.nodes.at(-1)).toMatchObject({ id: messageId, content: 'hi bob', type: 'TEXT' });
    const read = await run(stack, MarkReadDocument, { conversationId: String(alice.id) }, as(bob));
    expect(read.data?.markConversationRead?.ok).toBe(true);
    const after = await run(stack, UnreadDocument, {}, as(bob));
    expect(after.data?.me?.unreadConversations?.find((c) => c.conversationId === String(alice.id))).toBeUndefined();
  });
});
