// Refusals of a send that the sender can act on are userErrors at input.targets, not GraphQL
// errors (issue 42, item 3): a receiver who blocked the sender (10006: BLOCKED, as a friend
// request in the same situation), a group the sender is not in (NOT_GROUP_MEMBER), a ban in the
// group (MUTED). The same for askAssistant; a recall of another's message is NOT_YOUR_MESSAGE.
import { describe, expect, it } from 'vitest';
import { createGroup } from '../../helpers/groups';
import { useStack } from '../../helpers/stack';

const stack = useStack();

const SEND = `mutation($input: SendMessageInput!) { sendMessage(input: $input) { ok userErrors { code field message } messageIds } }`;
const ASK = `mutation($input: AskAssistantInput!) { askAssistant(input: $input) { ok userErrors { code field } reply { id } } }`;
type Sent = { sendMessage: { ok: boolean; userErrors: { code: string; field: string[]; message: string }[]; messageIds: string[] | null } };

const text = (to: number, targetType: 'USER' | 'GROUP', content = 'hello') => ({
  type: 'TEXT',
  content,
  targets: [String(to)],
  targetType,
});
const refusal = (code: string) => ({ code, field: ['input', 'targets'], message: expect.any(String) });

describe('send refusals as userErrors', () => {
  it('a message to a user who blocked the sender: BLOCKED at input.targets, nothing sent', async () => {
    const [me, blocker] = [await stack.emu.user(), await stack.emu.user()];
    await stack.emu.ok('PUT', '/roster/block', { token: blocker.token, query: { user_id: me.id } });
    const reply = await stack.gqlAs<Sent>(me, SEND, { input: text(blocker.id, 'USER') });
    expect(reply.errors).toBeUndefined();
    expect(reply.data!.sendMessage).toEqual({ ok: false, userErrors: [refusal('BLOCKED')], messageIds: null });
    const asked = await stack.gqlAs<{ askAssistant: unknown }>(me, ASK, { input: text(blocker.id, 'USER') });
    expect(asked.errors).toBeUndefined();
    expect(asked.data!.askAssistant).toEqual({ ok: false, userErrors: [{ code: 'BLOCKED', field: ['input', 'targets'] }], reply: null });
  });

  it('a message to a group the sender is not in: NOT_GROUP_MEMBER; banned in it: MUTED', async () => {
    const [owner, me, outsider] = [await stack.emu.user(), await stack.emu.user(), await stack.emu.user()];
    const groupId = await createGroup(stack.emu, owner, { members: [me] });
    const outside = await stack.gqlAs<Sent>(outsider, SEND, { input: text(groupId, 'GROUP') });
    expect(outside.errors).toBeUndefined();
    expect(outside.data!.sendMessage.userErrors).toEqual([refusal('NOT_GROUP_MEMBER')]);

    await stack.emu.ok('POST', '/group/ban', { token: owner.token, body: { group_id: groupId, user_list: [me.id], duration: 60 } });
    const muted = await stack.gqlAs<Sent>(me, SEND, { input: text(groupId, 'GROUP') });
    expect(muted.errors).toBeUndefined();
    expect(muted.data!.sendMessage).toMatchObject({ ok: false, userErrors: [refusal('MUTED')] });
  });

  it("a recall of another user's message: NOT_YOUR_MESSAGE at input.messageId", async () => {
    const [me, peer] = [await stack.emu.user(), await stack.emu.user()];
    const sent = await stack.gqlAs<Sent>(peer, SEND, { input: text(me.id, 'USER') });
    const messageId = sent.data!.sendMessage.messageIds![0]!;
    const reply = await stack.gqlAs<{ recallMessage: unknown }>(
      me,
      `mutation($c: ID!, $m: ID!) { recallMessage(input: { conversationId: $c, messageId: $m }) { ok userErrors { code field } } }`,
      { c: String(peer.id), m: messageId },
    );
    expect(reply.errors).toBeUndefined();
    expect(reply.data!.recallMessage).toEqual({ ok: false, userErrors: [{ code: 'NOT_YOUR_MESSAGE', field: ['input', 'messageId'] }] });
  });
});
