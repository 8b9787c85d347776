// Conversation history (5.2) on User, and the conversation mutations: delete (5.3) and read
// receipts (5.1). The service pages history backwards by message ID (msg_id_start/next_msg_id/
// is_last), not by cursor/total, so the connection here pages Relay's backward half (`last`/
// `before`) with the shared PageInfo; a message's cursor is its ID. Oldest first within a page.
// Edits (APPEND/REPLACE records, edit.ts) are not shown: their effect is, on the message they
// changed, which the service shows with its new content. A page they fill is read on past them.
import type { Int64 } from '../../rest/json';
import { isEdit } from '../../rest/records';
import { INT64_MAX, toInt64 } from '../../rest/json';
import type { RequestClient } from '../../rest/request-client';
import { builder, reaches } from '../core/builder';
import { MAX_PAGE, PageInfoRef } from '../core/connection';
import { fromResult, mutation, payloadType } from '../core/mutation';
import { badUserInput, inRange } from '../core/inputs';
import { inConversation, MessageRef, type MessageParent } from './message';
import { restFor } from '../core/profile';
import { UserRef } from '../core/refs';
import { idInput } from '../core/id-kinds';
import { readSplitting } from './oversized';

interface HistoryPage {
  /** Oldest first. */
  messages: MessageParent[];
  /** Whether older messages remain (the service did not say is_last). */
  hasPreviousPage: boolean;
  /** Whether the page was read `before` a cursor: newer messages exist. */
  hasNextPage: boolean;
}

/** A message's cursor: its ID. `before` it reads the messages older than it (msg_id_start). */
const cursorOf = (m: MessageParent) => String(m.msg_id);

export const HistoryEdgeRef = builder.objectRef<MessageParent>('MessageHistoryEdge').implement({
  description: 'One message in a page of conversation history.',
  fields: (t) => ({
    node: t.field({ type: MessageRef, nullable: false, description: 'The message.', resolve: (m) => m }),
    cursor: t.string({
      nullable: false,
      description: "The message's ID: pass it as `before` to read the messages older than this one.",
      resolve: cursorOf,
    }),
  }),
});

export const HistoryRef = builder.objectRef<HistoryPage>('MessageHistoryConnection').implement({
  description:
    'A page of the messages of a conversation. History is read backwards: the first page holds the newest messages; ' +
    'each `before: pageInfo.startCursor` reads the page of older ones, until `hasPreviousPage` is false. ' +
    'Within a page messages are oldest first.',
  fields: (t) => ({
    nodes: t.field({
      type: [MessageRef],
      nullable: false,
      description: 'The messages of this page, oldest first.',
      resolve: (p) => p.messages,
    }),
    edges: t.field({
      type: [HistoryEdgeRef],
      nullable: false,
      description: 'The messages of this page, oldest first, with their cursors.',
      resolve: (p) => p.messages,
    }),
    pageInfo: t.field({
      type: PageInfoRef,
      nullable: false,
      description: 'Paging state: `startCursor` is the oldest message of the page, `endCursor` the newest.',
      resolve: (p) => ({
        hasPreviousPage: p.hasPreviousPage,
        hasNextPage: p.hasNextPage,
        startCursor: p.messages[0] ? cursorOf(p.messages[0]) : null,
        endCursor: p.messages.length > 0 ? cursorOf(p.messages[p.messages.length - 1]!) : null,
      }),
    }),
  }),
});

const HISTORY_PAGE = 20;

/** A `before` cursor back into msg_id_start: a positive int64 decimal (next_msg_id). */
function parseBefore(before: string): Int64 {
  if (!/^\d{1,19}$/.test(before) || BigInt(before) === 0n || BigInt(before) > INT64_MAX) {
    throw badUserInput('before', 'must be the startCursor of a previous page');
  }
  return toInt64(before);
}

/** `last`/`before` arguments of a history field. */
export const historyArgs = () =>
  builder.args((t) => ({
    last: t.int({ required: false, defaultValue: HISTORY_PAGE, description: `How many messages to read (1-${MAX_PAGE}).` }),
    before: t.string({
      required: false,
      description:
        "A message's cursor (an edge's, or the `startCursor` of the page read before): read the messages older than it. Omit to start from the newest.",
    }),
  }));

/**
 * Reads past edits: a page they filled is read on with at least this many records a time, at most
 * EDIT_READS reads in all (a streaming reply leaves one edit per chunk behind its message).
 */
const EDIT_SKIP = 200;
const EDIT_READS = 3;

/** One page of the conversation with `opposite`, as the acting user of `rest` reads it; edits left out. */
export async function readHistory(
  rest: RequestClient,
  opposite: Int64,
  args: { last?: number | null; before?: string | null },
): Promise<HistoryPage> {
  const limit = inRange('last', args.last ?? HISTORY_PAGE, 1, MAX_PAGE);
  const start = args.before ? parseBefore(args.before) : 0;
  const newestFirst: MessageParent[] = [];
  const read = async (at: Int64, limit: number) =>
    (await rest.call('GET /message/conversation', { opposite_id: opposite, msg_id_start: at, limit })).data;
  let from: Int64 = start;
  let more = true;
  for (let reads = 0; more && newestFirst.length < limit && reads < EDIT_READS; reads++) {
    const size = reads === 0 ? limit : Math.max(limit - newestFirst.length, EDIT_SKIP);
    // A page too large to read whole is read in smaller pieces, a message too large alone marked (oversized.ts).
    const data = await readSplitting(read, from, size);
    const shown = data.messages.filter((m) => !isEdit(m));
    const room = limit - newestFirst.length;
    // Messages beyond the page's size are left for the next page, whose cursor is the oldest shown.
    newestFirst.push(...shown.slice(0, room).map((m) => inConversation(opposite, m)));
    more = (!data.is_last && data.messages.length > 0) || shown.length > room;
    from = data.next_msg_id;
  }
  return { messages: newestFirst.reverse(), hasPreviousPage: more, hasNextPage: start !== 0 };
}

builder.objectField(UserRef, 'conversation', (t) =>
  t.field({
    type: HistoryRef,
    nullable: false,
    description:
      "The user's conversation with another user or in a group, read backwards page by page from the newest (oldest first within a page; GET /message/conversation). " +
      'Reading marks the messages of others that were UNREAD as DELIVERED.',
    extensions: reaches('GET /message/conversation'),
    args: {
      with: t.arg(
        idInput({
          for: 'Conversation',
          required: true,
          description: "The conversation: the other user's ID, or the group ID (opposite_id).",
        }),
      ),
      ...historyArgs(),
    },
    resolve: (user, a, ctx) => readHistory(restFor(user, ctx), a.with, a),
  }),
);

// ---- mutations ----

export const CONVERSATION_ID = "The conversation: the other user's ID, or the group ID.";

export interface ConversationChange {
  conversationId: Int64;
  messageId?: Int64 | null;
  /** The message as the change left it (recallMessage: read before the recall, when selected). */
  message?: MessageParent | null;
}

/** What the conversation mutations answer; the user's state is read again through `user`. */
export const ConversationPayloadRef = payloadType<ConversationChange>('ConversationPayload', {
  description: 'The result of a change to a conversation of the acting user.',
  fields: (t) => ({
    conversationId: t.field({ type: 'ID', description: CONVERSATION_ID, resolve: fromResult((c) => c.conversationId) }),
    messageId: t.field({
      type: 'ID',
      description: 'The message the change named, if any.',
      resolve: fromResult((c) => c.messageId ?? null),
    }),
    message: t.field({
      type: MessageRef,
      description:
        'The message the change named, as the change left it: for recallMessage the recalled message with status RECALLED ' +
        '(read just before the recall, GET /message/conversation, only when this field is selected); null for the others.',
      extensions: reaches('GET /message/conversation'),
      resolve: fromResult((c) => c.message ?? null),
    }),
    user: t.field({
      type: UserRef,
      description:
        'The acting user, read after the change: select `conversations(first: …)` (the chat list) or `conversation(with: …)` (the ' +
        'open conversation) with the arguments your screen uses, and a normalized cache shows the new state.',
      resolve: fromResult(() => ({})),
    }),
  }),
});

mutation('deleteConversation', {
  description:
    "Delete a conversation for the acting user only (DELETE /message/conversation): its messages leave this user's history; " +
    'the other side keeps them, and a later message shows the conversation again.',
  endpoints: ['DELETE /message/conversation'],
  payload: ConversationPayloadRef,
  id: { name: 'conversationId', for: 'Conversation', description: CONVERSATION_ID },
  resolve: async (conversationId, ctx) => {
    await ctx.rest.call('DELETE /message/conversation', { conversation_id: conversationId });
    return { conversationId };
  },
});

mutation('markConversationRead', {
  description: 'Send a read receipt (GET /message/ack): the messages of the conversation up to the one given, or all of them, become READ.',
  endpoints: ['GET /message/ack'],
  payload: ConversationPayloadRef,
  inputDescription: 'The conversation, and how far it was read.',
  input: (t) => ({
    conversationId: t.field(idInput({ for: 'Conversation', required: true, description: CONVERSATION_ID })),
    messageId: t.field(
      idInput({ for: 'Message', required: false, description: 'The newest message read; omit to mark the whole conversation read.' }),
    ),
    deviceSn: t.int({ required: false, description: 'Serial number of the device the messages were read on.' }),
  }),
  resolve: async (input, ctx) => {
    const deviceSn = input.deviceSn == null ? undefined : inRange('input.deviceSn', input.deviceSn, 0, 2 ** 31 - 1);
    await ctx.rest.call('GET /message/ack', {
      conversation_id: input.conversationId,
      msg_id: input.messageId ?? undefined,
      device_sn: deviceSn,
    });
    return { conversationId: input.conversationId, messageId: input.messageId };
  },
});
