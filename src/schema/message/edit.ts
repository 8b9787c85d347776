// Editing a sent message (the 2026 operation messages APPEND and REPLACE: /message/send with
// content_type 11 or 12 and related_mid): appendToMessage adds text to its content,
// replaceMessageContent puts new content in its place. A streaming reply is many appends, then
// one replace with the final text. Only the sender may edit, never an edit itself; the payload
// answers the message with its new content, read back by its ID, so a client cache updates the
// row it already holds. The service keeps each edit as a record of its own in the history: the
// lists leave them out (conversation.ts) and conversationEvents turns them into MessageChanged.
import type { GatewayContext } from '../../context';
import type { Int64 } from '../../rest/json';
import { builder, reaches } from '../core/builder';
import { idInput } from '../core/id-kinds';
import { idempotencyKey, MAX_IDEMPOTENCY_KEY_LENGTH, transactionIdOf } from '../core/idempotency-key';
import { OpaqueId } from '../core/scalars';
import { badUserInput } from '../core/inputs';
import { fromResult, mutation, payloadType } from '../core/mutation';
import { withRetryKey } from '../core/upstream-errors';
import { CONVERSATION_ID } from './conversation';
import { groupOrNull, messageById, MessageRef } from './message';
import { newTransactionKey } from './send';

/** content_type of the two edits (document 5). */
const APPEND = 11;
const REPLACE = 12;

/** One input for both edits: they name the same things. */
const EditInput = builder.inputType('MessageEditInput', {
  description: 'A message of the acting user and its new text (appendToMessage, replaceMessageContent).',
  fields: (t) => ({
    conversationId: t.field(idInput({ for: 'Conversation', required: true, description: `${CONVERSATION_ID} The message is in it.` })),
    messageId: t.field(idInput({ for: 'Message', required: true, description: 'The message to change: one the acting user sent.' })),
    content: t.string({
      required: true,
      description: 'appendToMessage: the text to add at the end of the content (not empty). replaceMessageContent: the new content.',
    }),
    // An ID, as sendMessage's key: one type for every retry key a client declares.
    transactionId: t.field(
      idInput({
        key: true,
        required: false,
        description:
          `De-duplication key, as sendMessage's (1-${MAX_IDEMPOTENCY_KEY_LENGTH} characters): a retry with it is not applied twice. ` +
          'One key per edit: the service drops a second edit with a key it received within a short time. Omit it and the ' +
          'gateway makes one up (returned in the payload).',
      }),
    ),
  }),
});

type EditInput = typeof EditInput.$inferInput;

interface Edited {
  conversationId: Int64;
  messageId: Int64;
  transactionId: string;
}

const MessageEditPayloadRef = payloadType<Edited>('MessageEditPayload', {
  description: 'The result of editing a message.',
  fields: (t) => ({
    transactionId: t.field({
      type: 'ID',
      description: 'The transactionId used, as sent (or as generated): send the same edit again with it to retry safely.',
      resolve: fromResult((e) => new OpaqueId(e.transactionId)),
    }),
    message: t.field({
      type: MessageRef,
      description:
        'The message with its new content, as the acting user reads it (GET /message/conversation, only when selected): the ' +
        'same ID as the message a client holds, so a normalized cache updates it in place.',
      extensions: reaches('GET /message/conversation'),
      resolve: fromResult((e, ctx) => messageById(ctx.rest, e.conversationId, e.messageId)),
    }),
  }),
});

/**
 * The service's refusals of an edit: 10010 when the message is another user's, 10002 (naming
 * related_mid) when the conversation does not hold it or it is an edit itself. The gateway checks
 * every other parameter first, so a 10002 can only be about the message.
 */
const EDIT_REFUSALS = {
  10010: { code: 'NOT_YOUR_MESSAGE', field: ['input', 'messageId'] },
  10002: { code: 'MESSAGE_NOT_FOUND', field: ['input', 'messageId'] },
} as const;

/** Sends the edit as the acting user, to the conversation's user or group (one group lookup per request tells them apart). */
async function edit(contentType: typeof APPEND | typeof REPLACE, input: EditInput, ctx: GatewayContext): Promise<Edited> {
  // An opaque key's ID input reaches resolvers as its text (global-id-inputs.ts).
  const key = idempotencyKey('input.transactionId', input.transactionId as string | null | undefined, newTransactionKey);
  const type = (await groupOrNull(input.conversationId, ctx)) ? 2 : 1;
  const body = {
    content_type: contentType,
    content: input.content,
    targets: [input.conversationId],
    type,
    related_mid: input.messageId,
    transaction_id: transactionIdOf(key),
  };
  await withRetryKey({ transactionId: key }, ctx.rest.call('PUT /message/send', body));
  return { conversationId: input.conversationId, messageId: input.messageId, transactionId: key };
}

const EDIT_ENDPOINTS = ['PUT /message/send', 'POST /group/info/batch', 'GET /message/conversation'] as const;

mutation('appendToMessage', {
  description:
    'Add text at the end of a message the acting user sent (PUT /message/send, content_type APPEND with related_mid; 2026): ' +
    'how a streaming reply grows, one chunk each, before a final replaceMessageContent. Every reader sees the new content in ' +
    "the history, and conversationEvents sends MessageChanged. Another user's message: NOT_YOUR_MESSAGE; one the " +
    'conversation does not hold, or an edit: MESSAGE_NOT_FOUND; nothing changes.',
  endpoints: EDIT_ENDPOINTS,
  payload: MessageEditPayloadRef,
  refusals: EDIT_REFUSALS,
  input: EditInput,
  resolve: (input, ctx) => {
    if (input.content === '') throw badUserInput('input.content', 'must not be empty');
    return edit(APPEND, input, ctx);
  },
});

mutation('replaceMessageContent', {
  description:
    'Replace the content of a message the acting user sent (PUT /message/send, content_type REPLACE with related_mid; 2026): ' +
    'the end of a streaming reply (its final text), or a correction. Only the content changes. Refusals as appendToMessage.',
  endpoints: EDIT_ENDPOINTS,
  payload: MessageEditPayloadRef,
  refusals: EDIT_REFUSALS,
  input: EditInput,
  resolve: (input, ctx) => edit(REPLACE, input, ctx),
});
