// askAssistant (9.1 PUT /ai/message/send): a message to an AI, sent as sendMessage sends it, whose
// answer holds the AI's reply messages. The emulator replies at once (`echo: <content>`); a
// streaming AI may answer with no reply yet, or with a first reply it then grows by APPEND and
// finishes by REPLACE operation messages. So the payload gives the reply when the answer holds
// it, and says where to follow it otherwise: the conversation with the assistant (its messages
// and conversationEvents), where the reply arrives and changes like any message.
import type { GatewayContext } from '../../context';
import { INT64_MAX, type Int64, sameId, toInt64 } from '../../rest/json';
import type * as R from '../../rest/records';
import { reaches } from '../core/builder';
import { fromResult, mutation, payloadType } from '../core/mutation';
import { upstreamCodeOf, withRetryKey } from '../core/upstream-errors';
import type { UserErrorShape } from '../core/user-errors';
import { HistoryEdgeRef } from './conversation';
import { CONVERSATION_READS, conversationOf, ConversationRef } from './conversations';
import { type MessageParent, inConversation, MessageRef } from './message';
import { SEND_REFUSALS, sendBody, type SendInput, sendInput, TRANSACTION_ID } from './send';
import { OpaqueId } from '../core/scalars';
import { UserRef } from '../core/refs';
import { actingUser } from '../core/profile';

/** The service's code for an invalid parameter: the emulator's answer to a group target (NOTES.md, 9.1). */
const INVALID_PARAMETER = 10002;
const GROUP = 2;
/** Messages read back to find the one sent: the newest of the sender's, just before the reply. */
const LOOK_BACK = 10;

interface Asked {
  input: SendInput;
  transactionId: string;
  /** The content as sent (the sent message is recognized by it). */
  content: string;
  quotaUsed: number;
  replies: MessageParent[];
  /** The service refused a group target: the payload's userError. */
  refused?: UserErrorShape;
}

/**
 * A reply as a Message read by the sender: in the conversation with its author (one-to-one) or
 * its group. The answer gives no status; a new reply is unread for the sender (the emulator
 * stores it so), until the sender reads its history.
 */
const replyOf = (m: R.AiReplyMessage): MessageParent =>
  inConversation(m.type === 'GROUPCHAT' ? m.to_xid.uid : m.from_xid.uid, { ...m, status: 'UNREAD' });

const onlyTarget = (a: Asked): Int64 | null => (a.input.targets.length === 1 ? (a.input.targets[0] ?? null) : null);

const senderRest = (a: Asked, ctx: GatewayContext) => (a.input.fromUserId == null ? ctx.rest : ctx.restAs(a.input.fromUserId));

/**
 * The sent message as its sender reads it (one target only): the answer carries no msg_ids, so it
 * is the sender's newest message of that content in the conversation, before the first reply.
 */
async function sentMessage(a: Asked, ctx: GatewayContext): Promise<MessageParent | null> {
  const target = onlyTarget(a);
  if (target === null) return null;
  const before = a.replies[0]?.msg_id ?? toInt64(INT64_MAX);
  const { data } = await senderRest(a, ctx).call('GET /message/conversation', {
    opposite_id: target,
    msg_id_start: before,
    limit: LOOK_BACK,
  });
  const mine = data.messages
    .filter((m) => !sameId(m.from_xid.uid, target) && m.content === a.content)
    .sort((x, y) => (BigInt(y.msg_id) > BigInt(x.msg_id) ? 1 : -1));
  return mine[0] ? inConversation(target, mine[0]) : null;
}

/** A payload field read from the answer: null when the service refused the target (nothing was sent). */
const fromAnswer = <T>(read: (a: Asked, ctx: GatewayContext) => T) => fromResult((a: Asked, ctx) => (a.refused ? null : read(a, ctx)));

const AskAssistantPayloadRef = payloadType<Asked>('AskAssistantPayload', {
  description:
    'The answer of askAssistant, as sendMessage answers: the sent message and, when the answer holds it, the reply, each also ' +
    "as an edge of the conversation's messages (edge, replyEdge), the conversation as the chat list shows it, and the sender " +
    '(me) to read the open page fresh. A streaming assistant may answer ' +
    'before its reply exists (reply null) or with a first reply it then grows: follow the conversation (conversation ' +
    'messages, conversationEvents) for the reply and its changes; the reply keeps its ID as it changes.',
  ok: (a) => a.refused === undefined,
  entryErrors: (a) => (a.refused ? [a.refused] : []),
  fields: (t) => ({
    transactionId: t.field({ type: 'ID', description: TRANSACTION_ID, resolve: fromAnswer((a) => new OpaqueId(a.transactionId)) }),
    reply: t.field({
      type: MessageRef,
      description:
        "The assistant's reply (the answer's first reply message), as the sender reads it; null when the answer holds none " +
        'yet (a streaming assistant: the reply then arrives in the conversation) or for an operation message.',
      resolve: fromAnswer((a) => a.replies[0] ?? null),
    }),
    replies: t.field({
      type: [MessageRef],
      description: 'Every reply message of the answer, in its order (one per user target for the emulator); empty when none came yet.',
      resolve: fromAnswer((a) => a.replies),
    }),
    message: t.field({
      type: MessageRef,
      description:
        "The sent message as its sender reads it (one target only), found in the sender's history just before the reply: " +
        'the answer carries no message IDs. Null with several targets, or when it is no longer there.',
      extensions: reaches('GET /message/conversation'),
      resolve: fromAnswer((a, ctx) => sentMessage(a, ctx)),
    }),
    edge: t.field({
      type: HistoryEdgeRef,
      description:
        "The sent message with its cursor in the conversation's messages (Conversation.messages), as sendMessage's edge: the same " +
        'read as `message`, made once; null when `message` is.',
      extensions: reaches('GET /message/conversation'),
      resolve: fromAnswer((a, ctx) => sentMessage(a, ctx)),
    }),
    replyEdge: t.field({
      type: HistoryEdgeRef,
      description:
        "The reply with its cursor in the conversation's messages, so an open conversation page shows the question and the " +
        'reply with no code; null when `reply` is (a streamed reply arrives in the conversation instead).',
      resolve: fromAnswer((a) => a.replies[0] ?? null),
    }),
    conversation: t.field({
      type: ConversationRef,
      description: "The sender's conversation with the assistant (one target only; null otherwise), where a streamed reply arrives.",
      extensions: CONVERSATION_READS,
      resolve: fromAnswer((a, ctx) => {
        const target = onlyTarget(a);
        return target === null ? null : conversationOf(a.input.fromUserId == null ? {} : { id: a.input.fromUserId }, target, ctx);
      }),
    }),
    me: t.field({
      type: UserRef,
      description:
        'The sender after the answer, read fresh: select `conversation(with: <the assistant>, last: …)` as the open page reads it ' +
        'and a normalized cache shows the question and the reply there with no code. Null when refused.',
      resolve: fromAnswer((a, ctx) => (a.input.fromUserId == null ? actingUser(ctx) : { id: a.input.fromUserId })),
    }),
    quotaUsed: t.float({
      description: 'AI-message quota units the call used up (message_quota_usage).',
      resolve: fromAnswer((a) => a.quotaUsed),
    }),
  }),
});

mutation('askAssistant', {
  description:
    'Send a message to an AI assistant (PUT /ai/message/send; usually one user target, the assistant) and answer its reply: ' +
    'sent as sendMessage sends it, with the same checks. A target the service refuses for its kind (the emulator refuses ' +
    'groups: no member plays the AI) is a userError NOT_ALLOWED on input.targetType.',
  endpoints: ['PUT /ai/message/send'],
  payload: AskAssistantPayloadRef,
  refusals: SEND_REFUSALS,
  input: sendInput('AskAssistantInput', 'message for an AI assistant'),
  resolve: async (input, ctx) => {
    const { body, key } = sendBody(input);
    const asked = { input, transactionId: key, content: body.content, quotaUsed: 0, replies: [] };
    try {
      const { data } = await withRetryKey({ transactionId: key }, ctx.rest.call('PUT /ai/message/send', body));
      return { ...asked, quotaUsed: data.message_quota_usage, replies: data.messages.map(replyOf) };
    } catch (err) {
      if (input.targetType !== GROUP || upstreamCodeOf(err) !== INVALID_PARAMETER) throw err;
      const refused: UserErrorShape = {
        field: ['input', 'targetType'],
        code: 'NOT_ALLOWED',
        message: 'The assistant does not answer group targets.',
      };
      return { ...asked, refused };
    }
  },
});
