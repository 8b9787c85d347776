// How the message fields' subscriptions are fed (src/subscriptions/live-source.ts): unreadCounts
// and conversationEvents are pushed by the service's message callback and polled as the safety
// net; the deprecated conversationMessages is polled alone.
//
// Which subscribers a callback concerns (never one whose user is no party to the message):
// - CHAT: the conversationEvents of the sender with the receiver and of the receiver with the
//   sender (a MessageReceived built from the callback, no read); the receiver's unreadCounts
//   (re-read once, coalesced with other callbacks that arrive meanwhile).
// - GROUPCHAT: the conversationEvents of that group whose poll has read the group's conversation
//   (the service answered it: the identity is a member); the unreadCounts of identities whose
//   unread list (read conversations too) names the group. A member whose list does not name it
//   yet learns of the message from its next poll.
// - APPEND, REPLACE: the callback does not say which message changed, so the conversation's
//   topics are polled at once (the poll reads the edit with the message it changes).
import { toInt64, type Int64 } from '../../rest/json';
import { isEdit, type MessageRecord, type UnreadEntry } from '../../rest/records';
import type { CallbackMessage } from '../../subscriptions/callback-message';
import { type ConversationEvent, conversationEventsSource, newestOf } from '../../subscriptions/conversation-events';
import { conversationSource } from '../../subscriptions/conversation-source';
import { pageReader } from '../../subscriptions/history-reader';
import type { LiveSource, PushTarget, Pushed } from '../../subscriptions/live-source';
import { type DeliveredEvent, resumeAfter } from '../../subscriptions/resume';
import { listedIn, unreadSource } from '../../subscriptions/unread-source';

/** Whether the message passes between the viewer and `peer` (a one-to-one conversation, either way). */
const between = (m: CallbackMessage, viewer: string, peer: string) =>
  (m.from === viewer && m.to === peer) || (m.from === peer && m.to === viewer);

/** Whether the message is in the viewer's conversation `peer`: one-to-one, or a group the viewer's poll has read. */
function inConversation(m: CallbackMessage, peer: string, { viewer, state }: PushTarget<unknown>): boolean {
  if (m.type === 'CHAT') return between(m, viewer, peer);
  if (m.type === 'GROUPCHAT') return m.to === peer && state !== undefined;
  return between(m, viewer, peer) || (m.to === peer && state !== undefined); // an edit, one-to-one or in a group
}

/** The history record the callback stands for, as GET /message/conversation lists it. */
function recordOf(m: CallbackMessage): MessageRecord {
  return {
    msg_id: toInt64(m.msgId),
    ctype: m.ctype as MessageRecord['ctype'],
    content: m.content,
    attachment: m.attachment,
    config: m.config,
    ext: m.ext,
    status: 'UNREAD',
    timestamp: toInt64(m.timestamp ?? String(m.receivedAt)),
    from_xid: { uid: toInt64(m.from), device_sn: 0 },
    to_xid: { uid: toInt64(m.to), device_sn: 0 },
  };
}

export const unreadLive: LiveSource<UnreadEntry[], UnreadEntry[]> = {
  source: unreadSource,
  feed: 'pushed',
  buffer: 'state',
  explode: (entries) => [entries],
  pushed(m, { viewer, state }) {
    if (m.type === 'CHAT') return m.to === viewer ? 'poll' : undefined;
    if (m.type === 'GROUPCHAT') return state !== undefined && m.from !== viewer && listedIn(state).includes(m.to) ? 'poll' : undefined;
    return undefined; // an edit changes no count
  },
};

export function conversationEventsLive(peer: Int64): LiveSource<ConversationEvent[], ConversationEvent, DeliveredEvent> {
  const id = String(peer);
  return {
    source: conversationEventsSource(peer),
    feed: 'pushed',
    buffer: 'stream',
    explode: (events) => events,
    pushed(m, target): Pushed<ConversationEvent[]> {
      if (!inConversation(m, id, target)) return undefined;
      if (m.type === 'APPEND' || m.type === 'REPLACE') return 'poll';
      return { payload: [{ kind: 'received', conversationId: peer, message: recordOf(m) }] };
    },
    expected: (events) => events.flatMap((e) => (e.kind === 'received' && !isEdit(e.message) ? [String(e.message.msg_id)] : [])),
    resume: {
      startOf: newestOf,
      wrap: (live, rest, caller, after, hooks) =>
        resumeAfter(live, pageReader(rest, caller, peer), peer, after === undefined ? undefined : toInt64(after), hooks),
    },
  };
}

export function conversationMessagesLive(peer: Int64): LiveSource<MessageRecord[], MessageRecord> {
  return { source: conversationSource(peer), feed: 'polled', buffer: 'stream', explode: (messages) => messages };
}
