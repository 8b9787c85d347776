// askAssistant (PUT /ai/message/send): the sent message and the reply the answer holds (the
// emulator's `echo: <content>`), both as the sender reads them in the conversation; a group
// target refused as a userError; bad input before any REST call.
import { describe, expect, it } from 'vitest';
import { type Caller, onlyError, useStack } from '../../helpers/stack';

const stack = useStack();

const ASK = `mutation($input: AskAssistantInput!) {
  askAssistant(input: $input) {
    ok userErrors { code field } transactionId quotaUsed
    message { id messageId content from { id } }
    reply { id messageId content status from { id } }
    replies { messageId }
    conversation { id }
  } }`;

interface Msg {
  id: string;
  messageId: string;
  content: string;
  status?: string;
  from: { id: string } | null;
}
interface Asked {
  askAssistant: {
    ok: boolean;
    userErrors: { code: string; field: string[] }[];
    transactionId: string | null;
    quotaUsed: number | null;
    message: Msg | null;
    reply: Msg | null;
    replies: { messageId: string }[] | null;
    conversation: { id: string } | null;
  } | null;
}

const ask = (as: Caller, input: Record<string, unknown>) => stack.gqlAs<Asked>(as, ASK, { input });

describe('askAssistant', () => {
  it('sends one PUT /ai/message/send and answers the sent message and the reply, as the history holds them', async () => {
    const [me, bot] = await Promise.all([stack.emu.user(), stack.emu.user()]);
    stack.emu.mark();
    const reply = await ask(me, { type: 'TEXT', content: 'what is 2+2?', targets: [String(bot.id)], targetType: 'USER' });
    expect(reply.errors).toBeUndefined();
    const got = reply.data!.askAssistant!;
    expect(got).toMatchObject({
      ok: true,
      userErrors: [],
      quotaUsed: 1,
      message: { content: 'what is 2+2?', from: { id: String(me.id) } },
      reply: { content: 'echo: what is 2+2?', status: 'UNREAD', from: { id: String(bot.id) } },
      conversation: { id: String(bot.id) },
    });
    expect(got.replies).toEqual([{ messageId: got.reply!.messageId }]);
    expect(BigInt(got.reply!.messageId)).toBeGreaterThan(BigInt(got.message!.messageId));
    const [call] = stack.emu.calls('PUT /ai/message/send');
    expect(call?.body).toMatchObject({ content_type: 0, content: 'what is 2+2?', targets: [bot.id], type: 1 });

    // The same messages, by the same IDs, in the conversation's history: a normalized cache holds one entry each.
    const history = await stack.gqlAs<{ me: { conversation: { nodes: Msg[] } } }>(
      me,
      `{ me { conversation(with: "${bot.id}", last: 5) { nodes { id content } } } }`,
    );
    expect(history.data!.me.conversation.nodes).toEqual([
      { id: got.message!.id, content: 'what is 2+2?' },
      { id: got.reply!.id, content: 'echo: what is 2+2?' },
    ]);
  });

  it('answers the transactionId it sent, and a retry with it sends nothing again', async () => {
    const [me, bot] = await Promise.all([stack.emu.user(), stack.emu.user()]);
    const input = { type: 'TEXT', content: 'once', targets: [String(bot.id)], targetType: 'USER', transactionId: 'ask-once-1' };
    const first = (await ask(me, input)).data!.askAssistant!;
    const again = (await ask(me, input)).data!.askAssistant!;
    expect(first.transactionId).toBe('ask-once-1');
    expect(again.reply?.messageId).toBe(first.reply?.messageId);
    const history = await stack.gqlAs<{ me: { conversation: { nodes: unknown[] } } }>(
      me,
      `{ me { conversation(with: "${bot.id}", last: 10) { nodes { id } } } }`,
    );
    expect(history.data!.me.conversation.nodes).toHaveLength(2);
  });

  it('answers a group target with a userError NOT_ALLOWED on input.targetType, and no reply', async () => {
    const [me, other] = await Promise.all([stack.emu.user(), stack.emu.user()]);
    const group = await stack.emu.ok<{ group_id: number }>('POST', '/group/create', {
      token: me.token,
      body: { name: 'bots', user_list: [other.id] },
    });
    const reply = await ask(me, { type: 'TEXT', content: 'hi all', targets: [String(group.group_id)], targetType: 'GROUP' });
    expect(reply.errors).toBeUndefined();
    expect(reply.data!.askAssistant).toEqual({
      ok: false,
      userErrors: [{ code: 'NOT_ALLOWED', field: ['input', 'targetType'] }],
      transactionId: null,
      quotaUsed: null,
      message: null,
      reply: null,
      replies: null,
      conversation: null,
    });
  });

  it('refuses a blank TEXT with BAD_USER_INPUT before any REST call', async () => {
    const [me, bot] = await Promise.all([stack.emu.user(), stack.emu.user()]);
    stack.emu.mark();
    const reply = await ask(me, { type: 'TEXT', content: ' ', targets: [String(bot.id)], targetType: 'USER' });
    expect(onlyError(reply).extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.content' });
    expect(stack.emu.calls()).toEqual([]);
  });
});
