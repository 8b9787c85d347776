// Live updates (src/subscriptions): each subscription polls the service, one poller per identity
// and poll however many subscribers share it, and the service's message callback pushes what it
// carries (live.ts declares how each field is fed). Over WebSocket
// (graphql-ws), SSE or multipart HTTP (Apollo's protocol); over SSE a browser's EventSource may
// put access-token and app_id in the query string (gateway/http/event-source.ts). A failed poll arrives as a result with errors and the subscription goes
// on; a token the service rejects ends it with UNAUTHENTICATED.
import { subscribeLive } from '../core/live';
import { conversationMessagesLive, unreadLive } from './live';
import { builder, reaches } from '../core/builder';
import { valueOf } from '../core/subscription-event';
import { inConversation, MessageRef } from './message';
import { UnreadConversationRef } from '../core/refs';
import { deprecatedFor, REMOVAL_2027_06 } from '../core/deprecation';
import { idInput } from '../core/id-kinds';

builder.subscriptionType({
  description:
    "Live updates, over WebSocket (graphql-ws), SSE, or multipart HTTP (Apollo's subscription protocol). The gateway polls the IM service and sends what changed; where the service calls the gateway back with each message, those messages arrive at once and the polls slow down to a safety net (docs/subscriptions.md: live updates). " +
    "Over SSE, a browser's EventSource (which cannot send headers) may pass `access-token` and `app_id` in the query string " +
    '(GET /graphql?query=...&access-token=...); no other request reads the identity from the URL.',
});

builder.subscriptionFields((t) => ({
  unreadCounts: t.field({
    type: [UnreadConversationRef],
    nullable: false,
    description:
      "The acting user's recent conversations with unread messages, most recent first (GET /message/unread): sent when " +
      'subscribing, then each time they change. A conversation read since the last result is in the next one once more, ' +
      'with unreadCount 0, after the others (the service just leaves it out). A failed poll sends an error and polling goes on, less often; a rejected ' +
      'token ends the subscription with UNAUTHENTICATED.',
    // A subscriber who joins a running execution gets its latest result (src/gateway/ws/shared-subscriptions.ts).
    extensions: { ...reaches('GET /message/unread'), replaysLatest: true },
    subscribe: (_root, _args, ctx) => subscribeLive(ctx, unreadLive),
    resolve: (event, _args, ctx) => valueOf(event, ctx),
  }),
  conversationMessages: t.field({
    type: MessageRef,
    nullable: false,
    description:
      'Each new message of one conversation of the acting user, oldest first, as it appears (found by polling its newest ' +
      'page, GET /message/conversation: reading marks the messages DELIVERED). Messages sent before subscribing are not sent.',
    deprecationReason: deprecatedFor('`conversationEvents` (its `MessageReceived` events, resumable with `after`)', REMOVAL_2027_06),
    extensions: reaches('GET /message/conversation'),
    args: {
      with: t.arg(
        idInput({
          for: 'Conversation',
          required: true,
          description: "The conversation: the other user's ID, or the group ID (opposite_id).",
        }),
      ),
    },
    subscribe: (_root, args, ctx) => subscribeLive(ctx, conversationMessagesLive(args.with)),
    resolve: (event, args, ctx) => inConversation(args.with, valueOf(event, ctx)),
  }),
}));
