// The ready-made operations of examples/, as a client uses them: generated typed documents run
// against the gateway (holding the service credential, as in production, so peers' names show).
// A schema change that breaks a client breaks this file (types and values).
import { randomBytes } from 'node:crypto';
import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ChatFileDownloadDocument,
  ChatHomeDocument,
  ConversationDocument,
  ConversationEventsDocument,
  type ConversationEventsSubscription,
  CreateGroupDocument,
  DisableUsersDocument,
  GroupScreenDocument,
  LogInDocument,
  MarkReadDocument,
  MeDocument,
  PinConversationDocument,
  AppendToMessageDocument,
  ReplaceMessageContentDocument,
  UnpinConversationDocument,
  RefetchDocument,
  SendTextDocument,
  SetNicknameDocument,
  UnreadCountsDocument,
  type UnreadCountsSubscription,
  UploadChatFileDocument,
  type UploadChatFileMutation,
  UsersDocument,
} from '../../src/generated/graphql';
import type { TestUser } from '../helpers/emulator';
import { startStack, type Stack } from '../helpers/stack';
import { run } from '../helpers/typed';
import { gqlUpload } from '../helpers/multipart-upload';
import { sseFeed } from '../helpers/subscriptions/clients';

let stack: Stack;
let alice: TestUser;
let bob: TestUser;
const as = (u: { token: string }) => ({ 'access-token': u.token });
const admin = () => ({ 'access-token': stack.emu.adminToken });
/** Sends a text as `from` through the SendText example; answers the new message's ID. */
async function sendText(from: TestUser, to: TestUser, content: string): Promise<string> {
  const sent = await run(stack, SendTextDocument, { to: String(to.id), targetType: 'USER', content }, as(from));
  expect(sent.data?.sendMessage).toMatchObject({ ok: true, userErrors: [] });
  return sent.data!.sendMessage!.message!.id;
}

beforeAll(async () => {
  stack = await startStack({ POLL_INTERVAL_MS: '100' }, { serviceCredential: true });
  alice = await stack.emu.user();
  bob = await stack.emu.user();
  await run(stack, SetNicknameDocument, { nickName: 'Ally' }, as(alice));
});
afterAll(() => stack.stop());

describe('example operations', () => {
  it('LogIn returns a token that works for Me', async () => {
    const login = await run(stack, LogInDocument, { username: alice.name, password: alice.password, deviceGuid: 'example-phone' });
    const token = login.data?.loginByName?.token?.token;
    expect(token).toBeTruthy();
    const me = await run(stack, MeDocument, {}, { 'access-token': token! });
    expect(me.errors).toBeUndefined();
    expect(me.data?.me).toMatchObject({ username: alice.name, nickName: 'Ally', displayName: 'Ally' });
    expect(me.data?.me?.devices?.edges.map((e) => e.node.deviceSn)).toEqual([1]);
  });

  it('SetNickname changes the profile and reads it back', async () => {
    const dave = await stack.emu.user();
    const reply = await run(stack, SetNicknameDocument, { nickName: 'Dave' }, as(dave));
    expect(reply.data?.setNickname).toEqual({
      ok: true,
      userErrors: [],
      user: { id: String(dave.id), nickName: 'Dave', displayName: 'Dave' },
    });
  });

  it('CreateGroup, then GroupScreen pages its members with names and roles', async () => {
    const carol = await stack.emu.user();
    const created = await run(stack, CreateGroupDocument, { name: 'Examples', userIds: [String(bob.id), String(carol.id)] }, as(alice));
    expect(created.data?.createGroup).toMatchObject({ ok: true, userErrors: [], group: { name: 'Examples', memberCount: 3 } });
    const id = created.data!.createGroup!.group!.id;
    const first = await run(stack, GroupScreenDocument, { id, first: 2 }, as(bob));
    expect(first.errors).toBeUndefined();
    const group = first.data!.group!;
    expect(group).toMatchObject({ name: 'Examples', memberCount: 3, unreadCount: 0 });
    expect(group.members?.pageInfo.hasNextPage).toBe(true);
    const rest = await run(stack, GroupScreenDocument, { id, first: 2, after: group.members!.pageInfo.endCursor }, as(bob));
    expect(rest.data?.group?.members?.pageInfo.hasNextPage).toBe(false);
    const members = [...group.members!.edges, ...rest.data!.group!.members!.edges].map((e) => e.node);
    expect(members.map((m) => m.userId).sort()).toEqual([alice.id, bob.id, carol.id].map(String).sort());
    expect(members.find((m) => m.userId === String(alice.id))).toMatchObject({
      role: 'OWNER',
      user: { nickName: 'Ally', displayName: 'Ally' },
    });
    expect(members.find((m) => m.userId === String(carol.id))?.role).toBe('MEMBER');
  });

  it('ChatHome lists a conversation with its peer’s name, unread count and newest message', async () => {
    const erin = await stack.emu.user();
    await sendText(alice, erin, 'hi erin');
    const home = await run(stack, ChatHomeDocument, {}, as(erin));
    expect(home.errors).toBeUndefined();
    const [first] = home.data?.me?.conversations.edges.map((e) => e.node) ?? [];
    expect(first).toMatchObject({
      id: String(alice.id),
      unreadCount: 1,
      peer: { __typename: 'User', id: String(alice.id), nickName: 'Ally' },
    });
    expect(first?.lastMessage).toMatchObject({ content: 'hi erin', type: 'TEXT', from: { id: String(alice.id), nickName: 'Ally' } });
  });

  it('Refetch: with global IDs, node(id:) answers the home row and its newest message again by their ids alone', async () => {
    const frank = await stack.emu.user();
    await sendText(alice, frank, 'refetch me');
    const global = { ...as(frank), 'x-id-format': 'global' };
    const home = await run(stack, ChatHomeDocument, {}, global);
    const row = home.data?.me?.conversations.edges[0]?.node;
    expect(row?.id).not.toBe(String(alice.id));
    const conversation = await run(stack, RefetchDocument, { id: row!.id }, global);
    expect(conversation.errors).toBeUndefined();
    expect(conversation.data?.node).toMatchObject({
      __typename: 'Conversation',
      id: row!.id,
      conversationId: String(alice.id),
      unreadCount: 1,
      lastMessage: { id: row!.lastMessage!.id, content: 'refetch me' },
    });
    const message = await run(stack, RefetchDocument, { id: row!.lastMessage!.id }, global);
    expect(message.data?.node).toMatchObject({ __typename: 'Message', id: row!.lastMessage!.id, content: 'refetch me' });
    expect(message.data?.node).toHaveProperty('messageId', expect.stringMatching(/^\d{19}$/));
    const user = await run(stack, RefetchDocument, { id: String(alice.id) }, global);
    expect(user.data?.node).toEqual({ __typename: 'User', id: String(alice.id), displayName: 'Ally' });
  });

  it('SendText, Conversation and MarkRead make a conversation', async () => {
    const messageId = await sendText(alice, bob, 'hi bob');
    expect(messageId).toMatch(/^\d{19}$/);
    const history = await run(stack, ConversationDocument, { with: String(alice.id) }, as(bob));
    expect(history.errors).toBeUndefined();
    expect(history.data?.me?.conversation?.edges.at(-1)?.node).toMatchObject({
      id: messageId,
      content: 'hi bob',
      type: 'TEXT',
      from: { id: String(alice.id), nickName: 'Ally' },
    });
    const read = await run(stack, MarkReadDocument, { conversationId: String(alice.id) }, as(bob));
    expect(read.data?.markConversationRead).toEqual({ ok: true, userErrors: [], conversation: { id: String(alice.id), unreadCount: 0 } });
    const home = await run(stack, ChatHomeDocument, {}, as(bob));
    // Read, the conversation stays on the home list with nothing unread.
    const row = home.data?.me?.conversations.edges.find((e) => e.node.id === String(alice.id));
    expect(row?.node).toMatchObject({ unreadCount: 0, lastMessage: { id: messageId } });
    expect(row?.cursor).toEqual(expect.any(String));
  });

  it('PinConversation moves a row to the top of ChatHome, UnpinConversation puts it back', async () => {
    const [me, first, second] = [await stack.emu.user(), await stack.emu.user(), await stack.emu.user()];
    await sendText(first, me, 'older');
    await sendText(second, me, 'newer');
    const pinned = await run(stack, PinConversationDocument, { conversationId: String(first.id) }, as(me));
    expect(pinned.data?.pinConversation?.conversation).toEqual({ id: String(first.id), pinned: true });
    const order = pinned.data?.pinConversation?.user?.conversations.edges.map((e) => [e.node.id, e.node.pinned]);
    expect(order).toEqual([
      [String(first.id), true],
      [String(second.id), false],
    ]);
    const home = await run(stack, ChatHomeDocument, {}, as(me));
    expect(home.data?.me?.conversations.edges.map((e) => e.node.id)).toEqual([String(first.id), String(second.id)]);
    const unpinned = await run(stack, UnpinConversationDocument, { conversationId: String(first.id) }, as(me));
    expect(unpinned.data?.unpinConversation?.user?.conversations.edges.map((e) => e.node.id)).toEqual([
      String(second.id),
      String(first.id),
    ]);
  });

  it('AppendToMessage and ReplaceMessageContent stream a reply into one message', async () => {
    const [assistant, asker] = [await stack.emu.user(), await stack.emu.user()];
    const messageId = await sendText(assistant, asker, 'Thinking');
    const vars = { conversationId: String(asker.id), messageId };
    const grown = await run(stack, AppendToMessageDocument, { ...vars, content: '...' }, as(assistant));
    expect(grown.data?.appendToMessage?.message).toEqual({ id: messageId, content: 'Thinking...' });
    const done = await run(stack, ReplaceMessageContentDocument, { ...vars, content: 'Done.' }, as(assistant));
    expect(done.data?.replaceMessageContent?.message).toEqual({ id: messageId, content: 'Done.' });
    const history = await run(stack, ConversationDocument, { with: String(assistant.id) }, as(asker));
    expect(history.data?.me?.conversation?.edges.map((e) => [e.node.id, e.node.content])).toEqual([[messageId, 'Done.']]);
  });

  it('ConversationEvents sends each new message once, and after a reconnect resumes after the last one received', async () => {
    const frank = await stack.emu.user();
    const subscribe = (after: string) =>
      sseFeed<ConversationEventsSubscription>(stack.url, { app_id: stack.emu.appId, ...as(frank) }, print(ConversationEventsDocument), {
        with: String(alice.id),
        after,
      });
    // Subscribing after a known message: what follows it comes once, replayed or live alike.
    const live = subscribe(await sendText(alice, frank, 'zero'));
    const one = await sendText(alice, frank, 'one');
    try {
      const event = (await live.next()).data?.conversationEvents;
      expect(event).toMatchObject({
        __typename: 'MessageReceived',
        messageId: one,
        message: { content: 'one', from: { nickName: 'Ally' } },
      });
    } finally {
      await live.close();
    }
    const missed = [await sendText(alice, frank, 'two'), await sendText(alice, frank, 'three')];
    const resumed = subscribe(one);
    try {
      const ids = [(await resumed.next()).data?.conversationEvents.messageId, (await resumed.next()).data?.conversationEvents.messageId];
      expect(ids).toEqual(missed);
    } finally {
      await resumed.close();
    }
  });

  it('UnreadCounts sends the unread conversations at once', async () => {
    const gina = await stack.emu.user();
    await sendText(alice, gina, 'unread');
    const feed = sseFeed<UnreadCountsSubscription>(stack.url, { app_id: stack.emu.appId, ...as(gina) }, print(UnreadCountsDocument));
    try {
      expect((await feed.next()).data?.unreadCounts).toEqual([{ conversationId: String(alice.id), unreadCount: 1 }]);
    } finally {
      await feed.close();
    }
  });

  it('UploadChatFile answers a fileKey that ChatFileDownload turns into a working URL', async () => {
    const bytes = randomBytes(5_000);
    const file = { path: 'variables.file', name: 'notes.txt', type: 'text/plain', data: bytes };
    const headers = { app_id: stack.emu.appId, ...as(alice) };
    const uploaded = await gqlUpload<UploadChatFileMutation>(
      stack.url,
      print(UploadChatFileDocument),
      { file: null, to: String(bob.id) },
      [file],
      headers,
    );
    expect(uploaded.data?.uploadChatFile).toMatchObject({ ok: true, userErrors: [], file: { fileName: 'notes.txt', size: bytes.length } });
    const fileKey = uploaded.data!.uploadChatFile!.file!.fileKey!;
    const url = await run(stack, ChatFileDownloadDocument, { fileKey }, as(bob));
    const res = await fetch(`${stack.url}${url.data!.chatFileDownloadUrl!}`, { headers: { app_id: stack.emu.appId, ...as(bob) } });
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('Users and DisableUsers: an admin bans a user and reads the status back', async () => {
    const mallory = await stack.emu.user();
    const statusOf = async () => {
      for (let after: string | null | undefined, page = 0; page < 20; page++) {
        const users = await run(stack, UsersDocument, { first: 50, after }, admin());
        expect(users.errors).toBeUndefined();
        const found = users.data?.users?.edges.map((e) => e.node).find((u) => u.id === String(mallory.id));
        if (found || !users.data?.users?.pageInfo.hasNextPage) return found?.status;
        after = users.data.users.pageInfo.endCursor;
      }
      throw new Error('user list longer than 20 pages');
    };
    expect(await statusOf()).toBe('NORMAL');
    const banned = await run(stack, DisableUsersDocument, { userIds: [String(mallory.id)] }, admin());
    expect(banned.data?.disableUsers).toEqual({ ok: true, userErrors: [], users: [{ id: String(mallory.id), status: 'BANNED' }] });
    expect(await statusOf()).toBe('BANNED');
  });
});
