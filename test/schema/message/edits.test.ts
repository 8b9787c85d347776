// Message edits (appendToMessage, replaceMessageContent: the 2026 APPEND and REPLACE operations)
// and sendMessage's onlineOnly: a streaming reply is appends then a replace; the payload answers
// the message under its own ID with its new content; the history and the home list's lastMessage
// show the message, never the edit records; refusals are userErrors and change nothing.
import { describe, expect, it } from 'vitest';
import type { TestUser } from '../../helpers/emulator';
import { createGroup } from '../../helpers/groups';
import { type GqlReply, onlyError, useStack } from '../../helpers/stack';
import { sendText } from '../../helpers/subscriptions/operations';

const stack = useStack();

const gqlAs = <T = Record<string, unknown>>(u: TestUser, query: string, vars: Record<string, unknown> = {}) =>
  stack.gql<T>(query, vars, { 'access-token': u.token });

function dataOf<T>(reply: GqlReply<T>): T {
  expect(reply.errors).toBeUndefined();
  return reply.data!;
}

type EditReply = {
  ok: boolean;
  userErrors: { code: string; field: string[] | null }[];
  transactionId: string | null;
  message: { id: string; content: string; type: string } | null;
};
const EDIT = (name: 'appendToMessage' | 'replaceMessageContent') => `mutation($c: ID!, $m: ID!, $text: String!, $key: ID) {
  ${name}(input: { conversationId: $c, messageId: $m, content: $text, transactionId: $key }) {
    ok userErrors { code field } transactionId message { id content type } } }`;

async function editAs(u: TestUser, name: 'appendToMessage' | 'replaceMessageContent', vars: Record<string, unknown>) {
  return (dataOf(await gqlAs<Record<string, EditReply>>(u, EDIT(name), vars)) as Record<string, EditReply>)[name]!;
}

const HISTORY =
  'query($with: ID!, $last: Int) { me { conversation(with: $with, last: $last) { nodes { id content } pageInfo { hasPreviousPage } } } }';
type History = { me: { conversation: { nodes: { id: string; content: string }[]; pageInfo: { hasPreviousPage: boolean } } } };
const historyOf = async (u: TestUser, peer: number, last = 20) =>
  dataOf(await gqlAs<History>(u, HISTORY, { with: String(peer), last })).me.conversation;

describe('appendToMessage and replaceMessageContent', () => {
  it('streams a reply: appends grow the message, a replace sets its final text; the history shows one message', async () => {
    const [bot, reader] = [await stack.emu.user(), await stack.emu.user()];
    await sendText(stack.emu, reader, bot, 'question');
    const reply = await sendText(stack.emu, bot, reader, 'The');
    const vars = { c: String(reader.id), m: reply };
    expect(await editAs(bot, 'appendToMessage', { ...vars, text: ' answer' })).toMatchObject({
      ok: true,
      userErrors: [],
      transactionId: expect.any(String),
      message: { id: reply, content: 'The answer', type: 'TEXT' },
    });
    // Enough chunks to fill a page of history with edits: the lists read on past them.
    for (let i = 0; i < 24; i++) await editAs(bot, 'appendToMessage', { ...vars, text: '.' });
    stack.emu.mark();
    const final = await editAs(bot, 'replaceMessageContent', { ...vars, text: 'The answer is 42.' });
    expect(final.message).toEqual({ id: reply, content: 'The answer is 42.', type: 'TEXT' });
    // The write and the group lookup; the message read back once.
    expect(stack.emu.calls().map((c) => c.endpoint)).toEqual(['POST /group/info/batch', 'PUT /message/send', 'GET /message/conversation']);

    const history = await historyOf(reader, bot.id);
    expect(history.nodes.map((n) => n.content)).toEqual(['question', 'The answer is 42.']);
    expect(history.pageInfo.hasPreviousPage).toBe(false);
    const newest = await historyOf(reader, bot.id, 1);
    expect(newest.nodes).toEqual([{ id: reply, content: 'The answer is 42.' }]);
    expect(newest.pageInfo.hasPreviousPage).toBe(true);

    const home = dataOf(
      await gqlAs<{ me: { conversations: { nodes: { lastMessage: { id: string; content: string } }[] } } }>(
        reader,
        '{ me { conversations { nodes { lastMessage { id content } } } } }',
      ),
    );
    expect(home.me.conversations.nodes).toEqual([{ lastMessage: { id: reply, content: 'The answer is 42.' } }]);
  });

  it('edits a message sent to a group, for every member', async () => {
    const [owner, member] = [await stack.emu.user(), await stack.emu.user()];
    const groupId = await createGroup(stack.emu, owner, { members: [member] });
    const sent = await stack.emu.rest('POST', '/message/send', {
      token: owner.token,
      body: { content_type: 0, content: 'draft', targets: [groupId], type: 2 },
    });
    const messageId = String(sent.msg_ids![0]);
    const edited = await editAs(owner, 'replaceMessageContent', { c: String(groupId), m: messageId, text: 'final' });
    expect(edited.message).toMatchObject({ id: messageId, content: 'final' });
    expect((await historyOf(member, groupId)).nodes.map((n) => n.content)).toEqual(['final']);
  });

  it('applies an edit retried with its transactionId once', async () => {
    const [a, b] = [await stack.emu.user(), await stack.emu.user()];
    const m = await sendText(stack.emu, a, b, 'x');
    const vars = { c: String(b.id), m, text: 'y', key: 'chunk-1' };
    expect((await editAs(a, 'appendToMessage', vars)).message!.content).toBe('xy');
    const again = await editAs(a, 'appendToMessage', vars);
    expect(again).toMatchObject({ ok: true, transactionId: 'chunk-1', message: { content: 'xy' } });
  });

  it("refuses another user's message and one the conversation does not hold as userErrors, changing nothing", async () => {
    const [a, b] = [await stack.emu.user(), await stack.emu.user()];
    const theirs = await sendText(stack.emu, b, a, 'mine, not yours');
    const notYours = await editAs(a, 'appendToMessage', { c: String(b.id), m: theirs, text: '!' });
    expect(notYours).toEqual({
      ok: false,
      userErrors: [{ code: 'NOT_YOUR_MESSAGE', field: ['input', 'messageId'] }],
      transactionId: null,
      message: null,
    });
    const missing = await editAs(a, 'replaceMessageContent', { c: String(b.id), m: '999999999999', text: '!' });
    expect(missing.userErrors).toEqual([{ code: 'MESSAGE_NOT_FOUND', field: ['input', 'messageId'] }]);
    expect((await historyOf(a, b.id)).nodes.map((n) => n.content)).toEqual(['mine, not yours']);
  });

  it('refuses an empty append naming input.content before any REST call', async () => {
    const [a, b] = [await stack.emu.user(), await stack.emu.user()];
    const m = await sendText(stack.emu, a, b, 'x');
    stack.emu.mark();
    const error = onlyError(await gqlAs(a, EDIT('appendToMessage'), { c: String(b.id), m, text: '' }));
    expect(error.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.content' });
    expect(stack.emu.calls()).toEqual([]);
  });
});

describe('sendMessage onlineOnly', () => {
  it('reaches the receivers online at that moment only: one who logs in later never gets it', async () => {
    const [sender, online] = [await stack.emu.user(), await stack.emu.user()];
    const name = `offline_${Date.now()}`;
    await stack.emu.ok('POST', '/user/register/v2', { body: { username: name, password: 'secret-1' } });
    const SEND = `mutation($to: [ID!]!) { sendMessage(input: { type: TEXT, content: "now", targets: $to, targetType: USER, onlineOnly: true }) { ok } }`;
    const offlineId = (await stack.emu.ok<{ user_id: number }>('POST', '/token/user', { body: { name, password: 'secret-1' } })).user_id;
    // Logged in just now to learn its ID: log it out again, then send.
    await stack.emu.ok('PUT', '/user/kick', { token: stack.emu.adminToken, headers: { user_id: String(offlineId) } });
    expect(dataOf(await gqlAs<{ sendMessage: { ok: boolean } }>(sender, SEND, { to: [String(online.id)] })).sendMessage.ok).toBe(true);
    expect(dataOf(await gqlAs<{ sendMessage: { ok: boolean } }>(sender, SEND, { to: [String(offlineId)] })).sendMessage.ok).toBe(true);

    expect((await historyOf(online, sender.id)).nodes.map((n) => n.content)).toEqual(['now']);
    const later = await stack.emu.ok<{ token: string }>('POST', '/token/user', { body: { name, password: 'secret-1' } });
    const laterUser = { id: offlineId, token: later.token, name, password: 'secret-1' };
    expect((await historyOf(laterUser, sender.id)).nodes).toEqual([]);
  });
});
