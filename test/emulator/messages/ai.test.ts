// 9.1 PUT/POST /ai/message/send: sent as /message/send sends (same checks), then each user target
// answers `echo: <content>` at once; the replies are in the answer and in the conversation.
import { describe, expect, it } from 'vitest';
import type { AiSendResult } from '../../../src/rest/records';
import { createGroup } from '../../helpers/groups';
import { type TestUser, useEmulator } from '../../helpers/emulator';
import { contents, messaging, text } from './rest';

let now = Date.now();
const emu = useEmulator({ clock: () => now });
const { history, unread, look } = messaging(emu);

const ai = (from: TestUser, body: Record<string, unknown>, method = 'POST') =>
  emu.rest<AiSendResult>(method, '/ai/message/send', { token: from.token, body });

describe('9.1 /ai/message/send', () => {
  it('sends the message, answers the reply of the target, and keeps both in the conversation', async () => {
    const a = await emu.user();
    const bot = await emu.user();
    const reply = await ai(a, text([bot.id], { content: 'what time is it?' }));
    expect(reply.code).toBe(200);
    expect(reply.msg_ids).toBeUndefined();
    const [answer, question] = await history(a, bot.id);
    expect(question).toMatchObject({ content: 'what time is it?', from_xid: { uid: a.id } });
    expect(reply.data).toEqual({
      message_quota_usage: 1,
      messages: [
        {
          msg_id: answer!.msg_id,
          type: 'CHAT',
          ctype: 'TEXT',
          content: 'echo: what time is it?',
          attachment: '',
          config: '',
          ext: '',
          from_xid: { device_sn: 0, uid: bot.id },
          to_xid: { device_sn: 0, uid: a.id },
          timestamp: now,
        },
      ],
    });
    expect(BigInt(answer!.msg_id)).toBeGreaterThan(BigInt(question!.msg_id));
    // The reply is news for the sender; the question for the target.
    expect(await unread(a)).toEqual([{ conversation_id: { uid: bot.id }, num: 1 }]);
    expect(await unread(bot)).toEqual([{ conversation_id: { uid: a.id }, num: 1 }]);
  });

  it('accepts PUT, and answers one reply per user target', async () => {
    const a = await emu.user();
    const [b, c] = [await emu.user(), await emu.user()];
    const reply = await ai(a, text([b.id, c.id], { content: 'hi' }), 'PUT');
    expect(reply.data!.message_quota_usage).toBe(2);
    expect(reply.data!.messages.map((m) => [m.from_xid.uid, m.content])).toEqual([
      [b.id, 'echo: hi'],
      [c.id, 'echo: hi'],
    ]);
    expect(contents(await history(a, c.id))).toEqual(['echo: hi', 'hi']);
  });

  it('carries out an operation as send does, with no reply', async () => {
    const a = await emu.user();
    const bot = await emu.user();
    const first = await ai(a, text([bot.id], { content: 'Hel' }));
    const question = (await history(a, bot.id)).find((m) => m.content === 'Hel')!;
    expect(first.data!.messages).toHaveLength(1);
    const reply = await ai(a, text([bot.id], { content_type: 11, content: 'lo', related_mid: question.msg_id }));
    expect(reply.data).toEqual({ message_quota_usage: 0, messages: [] });
    expect(contents(await history(bot, a.id))).toEqual(['lo', 'echo: Hel', 'Hello']);
  });

  it('answers a repeated transaction_id with the first replies, sending nothing more', async () => {
    const a = await emu.user();
    const bot = await emu.user();
    const first = await ai(a, text([bot.id], { transaction_id: 7 }));
    now += 1000;
    const again = await ai(a, text([bot.id], { transaction_id: 7, content: 'again' }));
    expect(again.data).toEqual(first.data);
    expect(contents(await history(a, bot.id))).toEqual(['echo: hello', 'hello']);
  });

  it.each([
    ['an unknown target (10000)', (b: TestUser) => text([b.id, 2_999_999_999_999]), 10000, 'user'],
    ['another sender (10010)', (b: TestUser) => text([b.id], { from_user_id: b.id }), 10010, 'from_user_id'],
    ['a file type without attachment (10002)', (b: TestUser) => text([b.id], { content_type: 2 }), 10002, 'attachment'],
    ['content_type 8 (10002)', (b: TestUser) => text([b.id], { content_type: 8 }), 10002, 'content_type'],
    ['an operation without related_mid (10002)', (b: TestUser) => text([b.id], { content_type: 10 }), 10002, 'related_mid'],
  ])('refuses %s as send does, sending nothing and answering nothing', async (_what, body, code, named) => {
    const a = await emu.user();
    const b = await emu.user();
    const before = await look(a, b);
    const reply = await ai(a, body(b));
    expect(reply.code).toBe(code);
    expect(reply.message).toContain(named);
    expect(await look(a, b)).toEqual(before);
  });

  it('refuses a group target (type 2) with 10002 naming type, sending nothing', async () => {
    const a = await emu.user();
    const b = await emu.user();
    const g = await createGroup(emu, a, { members: [b] });
    const reply = await ai(a, text([g], { type: 2 }));
    expect(reply.code).toBe(10002);
    expect(reply.message).toContain('type');
    expect(await history(b, g)).toEqual([]);
    expect(await unread(b)).toEqual([]);
  });
});
