// conversationEvents: what happens in one conversation, as a stream of typed events (an interface
// with one type per kind), resumable after a message ID. Polled like the other subscriptions
// (src/subscriptions/conversation-events.ts, resume.ts).
import { type Int64, toInt64 } from '../../rest/json';
import type { DeliveredEvent } from '../../subscriptions/resume';
import { DEEP_EVERY, WATCHED } from '../../subscriptions/conversation-events';
import { builder, reaches } from '../core/builder';
import { inConversation, MessageRef } from './message';
import { valueOf } from './subscriptions';
import { resumePosition } from './resume-position';
import { idInput } from '../core/id-kinds';

/** Which messages recalls and reads are seen for, and how late. */
const WATCHING =
  `Watched: the newest ${WATCHED} messages the subscription has seen (the newest 20 when it started, then the new ones); ` +
  `for those below the newest 20 it shows up to ${DEEP_EVERY} poll intervals late.`;

type Of<K extends DeliveredEvent['kind']> = Extract<DeliveredEvent, { kind: K }>;

const TYPE_OF = { received: 'MessageReceived', recalled: 'MessageRecalled', read: 'MessageRead' } as const;

/** The message an event is about: the new one, the recalled one, the newest one read. */
function messageIdOf(e: DeliveredEvent): Int64 {
  if (e.kind === 'received') return e.message.msg_id;
  if (e.kind === 'recalled') return e.messageId;
  return e.messages[e.messages.length - 1]!.msg_id;
}

const ConversationEventRef = builder.interfaceRef<DeliveredEvent>('ConversationEvent').implement({
  description: 'Something that happened in a conversation: a message received, recalled or read.',
  resolveType: (e) => TYPE_OF[e.kind],
  fields: (t) => ({
    id: t.string({
      nullable: false,
      description:
        'Identity of the event for client caches: its type and the message it is about, joined by ":" ("MessageReceived:<message ID>"). ' +
        'The same event always has the same id (a message is received, recalled and read once); not an ID of the service.',
      resolve: (e) => `${TYPE_OF[e.kind]}:${String(messageIdOf(e))}`,
    }),
    conversationId: t.field({
      type: 'ID',
      nullable: false,
      description: "The conversation: the other user's ID, or the group ID.",
      resolve: (e) => e.conversationId,
    }),
    messageId: t.field({
      type: 'ID',
      nullable: false,
      description: 'The message the event is about (for MessageRead: the newest message read).',
      resolve: messageIdOf,
    }),
  }),
});

builder.objectRef<Of<'received'>>('MessageReceived').implement({
  description: 'A new message in the conversation, sent by either side. Pass its ID as `after` to resume after it.',
  interfaces: [ConversationEventRef],
  fields: (t) => ({
    message: t.field({
      type: MessageRef,
      nullable: false,
      description: 'The message.',
      resolve: (e) => inConversation(e.conversationId, e.message),
    }),
  }),
});

builder.objectRef<Of<'recalled'>>('MessageRecalled').implement({
  description: `A message left the conversation: its sender recalled it (or the acting user deleted the conversation). ${WATCHING}`,
  interfaces: [ConversationEventRef],
  fields: () => ({}),
});

builder.objectRef<Of<'read'>>('MessageRead').implement({
  description:
    'Messages turned READ as the acting user sees them: for messages the user received, the user read them (on any ' +
    `device); for messages the user sent to another user, that user read them (a read receipt). ${WATCHING}`,
  interfaces: [ConversationEventRef],
  fields: (t) => ({
    messages: t.field({
      type: [MessageRef],
      nullable: false,
      description: 'The messages read, oldest first.',
      resolve: (e) => e.messages.map((m) => inConversation(e.conversationId, m)),
    }),
  }),
});

builder.subscriptionField('conversationEvents', (t) =>
  t.field({
    type: ConversationEventRef,
    nullable: false,
    description:
      'What happens in one conversation of the acting user: MessageReceived, MessageRecalled and MessageRead, oldest first. ' +
      'Found by polling its newest page (GET /message/conversation; reading marks the messages DELIVERED). Without ' +
      '`after`, events from subscribing on; with `after` (the ID of the last message a client received, when it ' +
      `reconnects), first every message that came after it (at most 1000) and then the live events, each message exactly once. ` +
      'Recalls and reads that happened while disconnected are not replayed. Over WebSocket, without `after`, the ' +
      'position in `connectionParams.resumeAfter` (`{ "<with>": "<message ID>" }`) is used: graphql-ws re-sends the ' +
      'original variables when it reconnects by itself but asks for connectionParams anew; with a `clientKey` in connectionParams, ' +
      'such a retried subscription resumes by itself (docs/subscriptions.md: resuming).',
    extensions: reaches('GET /message/conversation'),
    args: {
      with: t.arg(
        idInput({
          for: 'Conversation',
          required: true,
          description: "The conversation: the other user's ID, or the group ID (opposite_id).",
        }),
      ),
      after: t.arg(
        idInput({ for: 'Message', required: false, description: 'Resume after this message: send the messages that came after it first.' }),
      ),
    },
    // A retried subscription's own position comes first: its `after` is the stale one it was first sent with.
    subscribe: (_root, args, ctx) =>
      ctx.subscriptions.conversationEvents(
        ctx.caller,
        args.with,
        (ctx.resume?.from === undefined ? undefined : toInt64(ctx.resume.from)) ?? args.after ?? resumePosition(ctx.resumeAfter, args.with),
        ctx.resume?.mark,
      ),
    resolve: (event, _args, ctx) => valueOf(event, ctx),
  }),
);
