// Sending messages (5.6) and system notifications (5.4), and recalling a message (5.5). Both sends
// take the same input and are checked at the gateway before any REST call. Neither is ever sent
// without a transaction_id: when the client gives none the gateway draws one and returns it, so
// a client that retries with it cannot make the service store the message twice.
import { randomBytes } from 'node:crypto';
import type { GatewayContext } from '../../context';
import type { Int64 } from '../../rest/json';
import { builder, reaches } from '../core/builder';
import { fromResult, mutation, payloadType } from '../core/mutation';
import { listLength, recipientsIn } from '../core/fan-out';
import type { Refusals } from '../core/user-errors';
import { selects } from '../core/selection';
import { CONVERSATION_ID, ConversationPayloadRef, HistoryEdgeRef } from './conversation';
import { CONVERSATION_READS, conversationOf, ConversationRef } from './conversations';
import { MessageType, TargetType } from './enums';
import { withRetryKey } from '../core/upstream-errors';
import { badUserInput } from '../core/inputs';
import { MAX_IDEMPOTENCY_KEY_LENGTH, idempotencyKey, transactionIdOf } from '../core/idempotency-key';
import { type MessageParent, messageById, MessageRef } from './message';
import { idInput, idListInput } from '../core/id-kinds';
import { OpaqueId } from '../core/scalars';
import { contentFields, MessageAttachmentInput } from './content';

/**
 * The refusals of a send a user can act on, at the targets: a blacklist (10006), a group the sender
 * is not in (20002), a ban in the group (10010, which the service answers for several causes: the
 * emulator's words tell this one). Other 10010s (a sender the token may not name) stay errors.
 */
export const SEND_REFUSALS: Refusals = {
  10006: { field: ['input', 'targets'] },
  20002: { code: 'NOT_GROUP_MEMBER', field: ['input', 'targets'] },
  10010: { code: 'MUTED', field: ['input', 'targets'], when: /banned in group|only admins may send/ },
};

/** Most targets one send may name. The service states no limit; this bounds one request's fan-out. */
const MAX_SEND_TARGETS = 1000;

/** The send mutations (and askAssistant, assistant.ts) share one input shape under their names (`<MutationName>Input`). */
export const sendInput = (name: string, what: string) =>
  builder.inputType(name, {
    description: `A ${what} to send to users or to groups.`,
    fields: (t) => ({
      type: t.field({ type: MessageType, required: true, description: 'Kind of message (content_type).' }),
      content: t.string({ required: false, description: 'Message content; required (not blank) for TEXT. Default empty.' }),
      attachment: t.field({
        type: MessageAttachmentInput,
        required: false,
        description: 'The file; required for IMAGE, AUDIO, VIDEO and FILE.',
      }),
      targets: t.field(
        idListInput({
          for: ['User', 'Group'],
          required: true,
          description: `Receiving user IDs or group IDs, as targetType says (1-${MAX_SEND_TARGETS}; never mixed).`,
        }),
      ),
      targetType: t.field({ type: TargetType, required: true, description: 'Whether targets are users or groups (type).' }),
      onlineOnly: t.boolean({
        required: false,
        description:
          'Deliver only to receivers online at this moment (online_only, 2026): the others never get it, not even when they log in ' +
          'later (User.online says who is). Default false: online and offline receivers alike.',
      }),
      config: t.string({ required: false, description: 'Extension field used by the SDK layer.' }),
      ext: t.string({ required: false, description: 'Extension field.' }),
      transactionId: t.field(
        idInput({
          key: true,
          required: false,
          description:
            `De-duplication key: any string of 1-${MAX_IDEMPOTENCY_KEY_LENGTH} characters (a UUID, say). The service does not execute a ` +
            'second request with the same key received within a short time. Omit it and the gateway generates one (returned in the ' +
            'payload): reuse it to retry safely. It reaches the service as an int64 transaction_id: a positive int64 decimal as ' +
            'itself, any other key as the first 63 bits of its SHA-256.',
        }),
      ),
      fromUserId: t.field(
        idInput({
          for: 'User',
          required: false,
          description:
            "Sender's user ID, settable with the admin token. Default: the acting user; a notification sent with the admin token " +
            'and no user comes from the system (uid 0).',
        }),
      ),
    }),
  });

const SendMessageInput = sendInput('SendMessageInput', 'message');
const SendNotificationInput = sendInput('SendNotificationInput', 'system notification');

export type SendInput = typeof SendMessageInput.$inferInput;
/** A random positive 63-bit key, as a decimal (far beyond 2^53; it maps to itself, so it travels as an exact bigint). */
export function newTransactionKey(): string {
  const id = randomBytes(8).readBigUInt64BE() & (2n ** 63n - 1n);
  return String(id === 0n ? 1n : id);
}

/** Checks the input and builds the send-body and its key as sent; throws BAD_USER_INPUT before any REST call. */
export function sendBody(input: SendInput) {
  // An opaque key's ID input reaches resolvers as its text (global-id-inputs.ts), not as the Int64 the builder types IDs with.
  const key = idempotencyKey('input.transactionId', input.transactionId as string | null | undefined, newTransactionKey);
  if (input.targets.length === 0) throw badUserInput('input.targets', 'must name at least one target');
  if (input.targets.length > MAX_SEND_TARGETS) throw badUserInput('input.targets', `must name at most ${MAX_SEND_TARGETS} targets`);
  const body = {
    ...contentFields(input),
    targets: input.targets,
    type: input.targetType,
    from_user_id: input.fromUserId ?? undefined,
    config: input.config ?? undefined,
    ext: input.ext ?? undefined,
    transaction_id: transactionIdOf(key),
    online_only: input.onlineOnly ?? undefined,
  };
  return { body, key };
}

/** The recipients a send reaches beyond one conversation: every target of a send to several (one target is a conversation). */
const fannedOut = (input: Readonly<Record<string, unknown>>) =>
  listLength(input.targets) > 1 ? recipientsIn(input.targets, MAX_SEND_TARGETS) : 0;

interface Sent {
  /** The key as the client sent it (or as the gateway made it up). */
  transactionId: string;
}

interface SentMessage extends Sent {
  input: SendInput;
  /** msg_ids of the envelope: present with exactly one target. */
  messageIds: Int64[] | null;
}

export const TRANSACTION_ID = 'The transactionId used, as sent (or as generated): send again with it to retry without a double send.';

const SendNotificationPayloadRef = payloadType<Sent>('SendNotificationPayload', {
  description: 'The result of sending a system notification.',
  fields: (t) => ({
    // An ID, the type released clients declare: the key as sent, whatever its shape.
    transactionId: t.field({ type: 'ID', description: TRANSACTION_ID, resolve: fromResult((s) => new OpaqueId(s.transactionId)) }),
  }),
});

/** The sent message, read back as its sender sees it. */
async function sentMessage(s: SentMessage, ctx: GatewayContext) {
  const [msgId] = s.messageIds ?? [];
  const [target] = s.input.targets;
  if (msgId === undefined || target === undefined || s.input.targets.length !== 1) return null;
  return messageById(s.input.fromUserId == null ? ctx.rest : ctx.restAs(s.input.fromUserId), target, msgId);
}

const SendMessagePayloadRef = payloadType<SentMessage>('SendMessagePayload', {
  description: 'The result of sending a message.',
  fields: (t) => ({
    // An ID, the type released clients declare: the key as sent, whatever its shape.
    transactionId: t.field({ type: 'ID', description: TRANSACTION_ID, resolve: fromResult((s) => new OpaqueId(s.transactionId)) }),
    messageIds: t.field({
      type: ['ID'],
      description: 'IDs of the new messages (msg_ids), exact; the service reports them only when there is exactly one target.',
      resolve: fromResult((s) => s.messageIds),
    }),
    message: t.field({
      type: MessageRef,
      description:
        "The new message as its sender reads it in the conversation (one target only), found by its ID in the sender's history; " +
        'null when there were several targets or it is no longer there.',
      extensions: reaches('GET /message/conversation'),
      resolve: fromResult((s, ctx) => sentMessage(s, ctx)),
    }),
    edge: t.field({
      type: HistoryEdgeRef,
      description:
        "The new message with its cursor in the conversation's messages (Conversation.messages, User.conversation): the same " +
        'read as `message`, made once; null when `message` is.',
      extensions: reaches('GET /message/conversation'),
      resolve: fromResult((s, ctx) => sentMessage(s, ctx)),
    }),
    conversation: t.field({
      type: ConversationRef,
      description:
        "The sender's conversation the message went to (one target only; null otherwise), as the home list shows it after the send.",
      extensions: CONVERSATION_READS,
      resolve: fromResult((s, ctx) => {
        const [target] = s.input.targets;
        if (target === undefined || s.input.targets.length !== 1) return null;
        return conversationOf(s.input.fromUserId == null ? {} : { id: s.input.fromUserId }, target, ctx);
      }),
    }),
  }),
});

mutation('sendMessage', {
  description: 'Send a message to users or to groups (PUT /message/send): one message per target.',
  endpoints: ['PUT /message/send'],
  payload: SendMessagePayloadRef,
  fanOut: { recipients: fannedOut },
  refusals: SEND_REFUSALS,
  input: SendMessageInput,
  resolve: async (input, ctx) => {
    const { body, key } = sendBody(input);
    const reply = await withRetryKey({ transactionId: key }, ctx.rest.call('PUT /message/send', body));
    return { input, transactionId: key, messageIds: reply.msg_ids ?? null };
  },
});

mutation('sendNotification', {
  description: 'Send a system notification to users or to groups (PUT /message/notify); with the admin token it needs no sender.',
  endpoints: ['PUT /message/notify'],
  payload: SendNotificationPayloadRef,
  fanOut: { recipients: fannedOut },
  refusals: SEND_REFUSALS,
  input: SendNotificationInput,
  resolve: async (input, ctx) => {
    const { body, key } = sendBody(input);
    await withRetryKey({ transactionId: key }, ctx.rest.call('PUT /message/notify', body));
    return { transactionId: key };
  },
});

mutation('recallMessage', {
  description: 'Recall (revoke) a message its sender sent (PUT /message/recall): it leaves the history and unread counts of every side.',
  endpoints: ['PUT /message/recall'],
  payload: ConversationPayloadRef,
  refusals: { 10010: { code: 'NOT_YOUR_MESSAGE', field: ['input', 'messageId'], when: /only the sender/ } },
  inputDescription: 'The message to recall and its conversation.',
  input: (t) => ({
    conversationId: t.field(idInput({ for: 'Conversation', required: true, description: `${CONVERSATION_ID} The message is in it.` })),
    messageId: t.field(idInput({ for: 'Message', required: true, description: 'The message to recall.' })),
  }),
  resolve: async (input, ctx, _refuse, info) => {
    // The recalled message leaves every history: read it first, and only when the payload asks for it.
    const before = selects(info, 'message') ? await messageById(ctx.rest, input.conversationId, input.messageId) : null;
    await ctx.rest.call('PUT /message/recall', { conversation_id: input.conversationId, msg_id: input.messageId });
    const message: MessageParent | null = before && { ...before, status: 'RECALLED' };
    return { conversationId: input.conversationId, messageId: input.messageId, message };
  },
});
