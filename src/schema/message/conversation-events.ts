// conversationEvents: what happens in one conversation, as a stream of typed events (an interface
// with one type per kind), resumable after a message ID. Polled like the other subscriptions
// (src/subscriptions/conversation-events.ts, resume.ts). An edit (appendToMessage,
// replaceMessageContent) arrives as the service keeps it, a record of its own in the history: it
// is sent as MessageChanged with the message it changed, read again for its new content. Every
// event offers the conversation as the chat list shows it and the viewer (roster/event-viewer.ts),
// a new message its edge in the history, so the chat list and the open page follow with no code.
import type { Int64 } from '../../rest/json';
import { GatewayError } from '../../rest/errors';
import { isEdit } from '../../rest/records';
import type { DeliveredEvent } from '../../subscriptions/resume';
import { DEEP_EVERY, WATCHED } from '../../subscriptions/conversation-events';
import { builder, reaches } from '../core/builder';
import { eventViewerField, viewerOnEvent } from '../roster/event-viewer';
import { HistoryEdgeRef } from './conversation';
import { CONVERSATION_READS, conversationOf, ConversationRef } from './conversations';
import { inConversation, messageById, MessageRef } from './message';
import { valueOf } from '../core/subscription-event';
import { resumePosition } from './resume-position';
import { idInput } from '../core/id-kinds';
import { subscribeLive } from '../core/live';
import { conversationEventsLive } from './live';

const optionalString = (id: Int64 | undefined | null) => (id === undefined || id === null ? undefined : String(id));

/** Which messages recalls and reads are seen for, and how late. */
const WATCHING =
  `Watched: the newest ${WATCHED} messages the subscription has seen (the newest 20 when it started, then the new ones); ` +
  `for those below the newest 20 it shows up to ${DEEP_EVERY} poll intervals late.`;

type Of<K extends DeliveredEvent['kind']> = Extract<DeliveredEvent, { kind: K }>;

const TYPE_OF = { received: 'MessageReceived', recalled: 'MessageRecalled', read: 'MessageRead' } as const;

/** An edit, as it arrives: a new record of the history naming the message it changed. */
type Changed = Of<'received'> & { message: { related_mid: Int64 } };
const isChange = (e: DeliveredEvent): e is Changed => e.kind === 'received' && isEdit(e.message) && e.message.related_mid != null;

const typeOf = (e: DeliveredEvent) => (isChange(e) ? 'MessageChanged' : TYPE_OF[e.kind]);

/** The message an event is about: the new one, the changed one, the recalled one, the newest one read. */
function messageIdOf(e: DeliveredEvent): Int64 {
  if (isChange(e)) return e.message.related_mid;
  if (e.kind === 'received') return e.message.msg_id;
  if (e.kind === 'recalled') return e.messageId;
  return e.messages[e.messages.length - 1]!.msg_id;
}

/** What tells one event from another of its type: the edit's own record for a change, else the message. */
const eventKeyOf = (e: DeliveredEvent): Int64 => (isChange(e) ? e.message.msg_id : messageIdOf(e));

const ConversationEventRef = builder.interfaceRef<DeliveredEvent>('ConversationEvent').implement({
  description: 'Something that happened in a conversation: a message received, changed, recalled or read.',
  resolveType: typeOf,
  fields: (t) => ({
    id: t.string({
      nullable: false,
      description:
        'Identity of the event for client caches: its type and the message it is about, joined by ":" ("MessageReceived:<message ID>"; ' +
        'for MessageChanged the changeId). The same event always has the same id (a message is received, recalled and read once); ' +
        'not an ID of the service.',
      resolve: (e) => `${typeOf(e)}:${String(eventKeyOf(e))}`,
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
      description: 'The message the event is about (for MessageRead: the newest message read; for MessageChanged: the changed one).',
      resolve: messageIdOf,
    }),
    conversation: t.field({
      type: ConversationRef,
      nullable: false,
      description:
        "The conversation as the viewer's chat list (me.conversations) shows it after the event, read fresh: its last message, " +
        'unread count and place follow in a normalized cache. Read only when selected, once per event for the identity.',
      extensions: CONVERSATION_READS,
      resolve: (e, _args, ctx) => conversationOf(viewerOnEvent(e, ctx), e.conversationId, ctx),
    }),
    me: eventViewerField(t, '`conversations(first: …)`'),
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
    edge: t.field({
      type: HistoryEdgeRef,
      nullable: false,
      description: "The message as the newest edge of the conversation's messages, with that list's own cursor (valid as `before`).",
      resolve: (e) => inConversation(e.conversationId, e.message),
    }),
  }),
});

builder.objectRef<Changed>('MessageChanged').implement({
  description:
    "A message's content changed: its sender appended to it or replaced it (appendToMessage, replaceMessageContent; a streaming " +
    'reply sends one per chunk). Carries the message with its new content, under the ID a client already holds.',
  interfaces: [ConversationEventRef],
  fields: (t) => ({
    message: t.field({
      type: MessageRef,
      // Non-null as MessageReceived.message, so one selection of `message` serves both.
      nullable: false,
      description:
        'The changed message with its content as it is now (read again: GET /message/conversation, one read per event when ' +
        'selected; a few quick changes may each show the latest content). A NOT_FOUND error when it is no longer there ' +
        '(recalled or deleted since: a MessageRecalled follows).',
      extensions: reaches('GET /message/conversation'),
      resolve: async (e, _a, ctx) => {
        const changed = await messageById(ctx.rest, e.conversationId, e.message.related_mid);
        if (!changed) throw new GatewayError('the changed message is no longer in the conversation (recalled or deleted)', 'NOT_FOUND');
        return changed;
      },
    }),
    changeId: t.field({
      type: 'ID',
      nullable: false,
      description:
        "The change's own position in the conversation (the service keeps each edit as a record of its own, never listed): pass " +
        'it as `after` to resume after this event.',
      resolve: (e) => e.message.msg_id,
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
      'What happens in one conversation of the acting user: MessageReceived, MessageChanged, MessageRecalled and MessageRead, oldest first. ' +
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
    subscribe: (_root, args, ctx) =>
      subscribeLive(ctx, conversationEventsLive(args.with), optionalString(args.after ?? resumePosition(ctx.resumeAfter, args.with))),
    resolve: (event, _args, ctx) => valueOf(event, ctx),
  }),
);
