// Conversation pins (1.42-1.44, 2026): `Conversation.pinned`, `me.pinnedConversations`, and the
// pinConversation / unpinConversation mutations. The pin list is read in pin-list.ts; the home
// list (conversations.ts) puts the pinned rows first with it. The service gives no pin time, so
// the schema has none: the order of the pins is their only record.
import { builder, reaches } from '../core/builder';
import { keysetArgs, keysetPage } from '../core/keyset';
import { mutation } from '../core/mutation';
import { UserRef } from '../core/refs';
import { CONVERSATION_ID, ConversationPayloadRef } from './conversation';
import { ConversationConnectionRef, conversationsOf, ConversationRef, sortKey } from './conversations';
import { pinnedIds } from './pin-list';

/** The service's bound on pins (the emulator's reading: 50); one page holds them all. */
const PINS_PAGE = 50;

builder.objectField(ConversationRef, 'pinned', (t) =>
  t.boolean({
    nullable: false,
    description:
      'Whether the user pinned this conversation to the top of the chat list (pinConversation). Known from the list read for ' +
      'me.conversations; elsewhere read once per request (GET /user/conversation/pin_list). The service keeps no pin time.',
    extensions: reaches('GET /user/conversation/pin_list'),
    resolve: async (c, _a, ctx) => c.pinned ?? (await pinnedIds(c.owner, ctx)).some((id) => String(id) === String(c.id)),
  }),
);

builder.objectField(UserRef, 'pinnedConversations', (t) =>
  t.field({
    type: ConversationConnectionRef,
    nullable: false,
    description:
      "The user's pinned conversations, newest pin first (GET /user/conversation/pin_list), as me.conversations shows them at " +
      'its top (the same reads: GET /message/unread, GET /group/user_joined). A conversation pinned before its first message is here too.',
    // Its page size when neither count is given, for the cost estimate (gateway/execution/cost-estimate.ts).
    extensions: { ...reaches('GET /user/conversation/pin_list', 'GET /message/unread', 'GET /group/user_joined'), defaultPage: PINS_PAGE },
    args: keysetArgs(PINS_PAGE, PINS_PAGE),
    resolve: async (user, args, ctx) => {
      const page = keysetPage(args, sortKey, PINS_PAGE, { max: PINS_PAGE });
      return page((await conversationsOf(user, ctx)).filter((c) => c.pinned));
    },
  }),
);

/** The refusals of a pin: the limit, and a group the user is not in. A conversation that does not exist stays NOT_FOUND. */
const PIN_REFUSALS = {
  10002: { code: 'TOO_MANY_PINS', field: ['conversationId'] },
  20002: { field: ['conversationId'] },
} as const;

const AFTER_PIN =
  'The payload answers the conversation with its new `pinned`, and the acting user (`user`): select ' +
  '`user { conversations(first: …) }` to get the home list in its new order with the same write.';

mutation('pinConversation', {
  description:
    'Pin a conversation of the acting user to the top of the chat list (PUT /user/conversation/pin): me.conversations lists ' +
    'the pinned ones first, newest pin first. Pinning a pinned one changes nothing (its place stays). A user, a group the ' +
    `user is in, or the system's notifications (0) may be pinned; the service keeps a bounded number (TOO_MANY_PINS). ${AFTER_PIN}`,
  endpoints: ['PUT /user/conversation/pin'],
  payload: ConversationPayloadRef,
  refusals: PIN_REFUSALS,
  id: { name: 'conversationId', for: 'Conversation', description: `${CONVERSATION_ID} Its ID in me.conversations, global or not.` },
  resolve: async (conversationId, ctx) => {
    await ctx.rest.call('PUT /user/conversation/pin', { conversation_id: conversationId });
    return { conversationId };
  },
});

mutation('unpinConversation', {
  description:
    'Unpin a conversation (PUT /user/conversation/unpin): it goes back to its place by last activity in me.conversations. ' +
    `Unpinning one that is not pinned changes nothing. ${AFTER_PIN}`,
  endpoints: ['PUT /user/conversation/unpin'],
  payload: ConversationPayloadRef,
  id: { name: 'conversationId', for: 'Conversation', description: `${CONVERSATION_ID} Its ID in me.conversations, global or not.` },
  resolve: async (conversationId, ctx) => {
    await ctx.rest.call('PUT /user/conversation/unpin', { conversation_id: conversationId });
    return { conversationId };
  },
});
