// 9.1 PUT/POST /ai/message/send (2026): sends as /message/send does (the same checks, content
// types and operations), then every user target answers the sender at once, as an AI would: a
// TEXT reply `echo: <content>`, stored in their conversation like any message. Operations get no
// reply; group targets (type 2) are refused: no member is an AI here. transaction_id repeats
// answer the first call's replies. The readings: ../NOTES.md.
import type { AiReplyMessage, AiSendResult } from '../../rest/records';
import type { Ctx, HandlerMap } from '../handler';
import { invalidParam } from '../errors';
import { isOperation, type StoredMessage, toWire } from '../messages/model';
import { newMessage, resolveSender, type SendBody, sendAs } from '../messages/send';

/** What one reply costs of the app's AI-message quota (the emulator sets no quota). */
const QUOTA_PER_REPLY = 1;

function aiSend(body: SendBody, ctx: Ctx): AiSendResult {
  if (body.type === 2) throw invalidParam('type', 'the emulator has no AI member in groups: expected 1 (users)');
  const sender = resolveSender(ctx, body.from_user_id, 'send');
  return ctx.state.messages.aiTransactions.run(sender.uid, body.transaction_id, ctx.now, () => {
    const replies = sendAs(ctx, body, sender)
      .filter((m) => !isOperation(m.ctype))
      .map((m) => reply(ctx, m));
    return { message_quota_usage: replies.length * QUOTA_PER_REPLY, messages: replies };
  });
}

/** The target's answer to the message it received, delivered to the sender. */
function reply(ctx: Ctx, sent: StoredMessage): AiReplyMessage {
  const [bot, asker] = [sent.to.id, sent.from.uid];
  const answer = newMessage(
    ctx,
    { uid: bot, deviceSn: 0 },
    { kind: 'user', id: asker },
    { ctype: 'TEXT', content: `echo: ${sent.content}` },
  );
  ctx.state.messages.deliver(answer, [asker]);
  // The wire form of history, with type for status; ctype is known: the reply is a text.
  const { status: _status, ...wire } = toWire(answer, 'UNREAD');
  return { ...wire, ctype: 'TEXT', type: 'CHAT' };
}

export const aiHandlers: HandlerMap = {
  'PUT /ai/message/send': aiSend,
};
