// conversationEvents: what happens in one conversation, found by polling its newest page (GET
// /message/conversation) and comparing it with the page of the round before. New messages are
// those above the newest ID seen (older pages are read when a whole page is new); a message of the
// previous page that is gone while newer ones remain was recalled (or the conversation was deleted
// for the caller); a message whose status turned READ was read. Only the newest page is compared:
// recalls and reads of older messages are not seen. The state is that page's IDs and statuses.
//
// The first round sets the state and publishes a `baseline` marker with the newest ID: a
// subscriber resuming after a message ID (resume.ts) learns from it up to where it must read
// itself. Reading a page marks the caller's UNREAD messages DELIVERED, as any read does.
import { parseJson, stringifyJson, toInt64, type Int64 } from '../rest/json';
import type { MessageRecord, MessageStatus } from '../rest/records';
import { pageReader, readSpan } from './history-reader';
import type { Source } from './source';

export type ConversationEvent =
  | { kind: 'received'; conversationId: Int64; message: MessageRecord }
  | { kind: 'recalled'; conversationId: Int64; messageId: Int64 }
  /** Messages whose status as the caller sees it turned READ, oldest first. */
  | { kind: 'read'; conversationId: Int64; messages: MessageRecord[] }
  /** The poll's first round: it reports what comes after `newest`. Not for subscribers. */
  | { kind: 'baseline'; conversationId: Int64; newest: Int64 };

interface State {
  newest: string;
  /** The newest page: [ID, status], newest first. */
  page: [string, MessageStatus][];
}

const PAGE = 20;
const MAX_NEW = 100;

export function conversationEventsSource(peer: Int64): Source<ConversationEvent[]> {
  return {
    name: `events:${String(peer)}`,
    replay: false,
    async poll(rest, caller, text, signal) {
      const read = pageReader(rest, caller, peer, signal);
      const first = await read(0, PAGE);
      const page: State['page'] = first.messages.map((m) => [String(m.msg_id), m.status]);
      if (text === undefined) {
        const newest = first.messages[0] ? String(first.messages[0].msg_id) : '0';
        return { state: encode({ newest, page }), payload: [{ kind: 'baseline', conversationId: peer, newest: toInt64(newest) }] };
      }
      const before = parseJson(text) as State;
      const known = BigInt(before.newest);
      // The first page answers most rounds; older pages only when all of it is new.
      const allNew = first.messages.length > 0 && BigInt(first.messages.at(-1)!.msg_id) > known && !first.is_last;
      const older = allNew ? (await readSpan(read, known, first.next_msg_id, PAGE, MAX_NEW)).messages : [];
      const received = [...older, ...first.messages.filter((m) => BigInt(m.msg_id) > known).reverse()];
      const events: ConversationEvent[] = received.map((message) => ({ kind: 'received', conversationId: peer, message }));

      const statusBefore = new Map(before.page);
      const turnedRead = (m: MessageRecord) => m.status === 'READ' && (statusBefore.get(String(m.msg_id)) ?? 'READ') !== 'READ';
      const nowRead = first.messages.filter(turnedRead);
      if (nowRead.length > 0) events.push({ kind: 'read', conversationId: peer, messages: nowRead.reverse() });

      // Gone from the part of the conversation this page still covers.
      const floor = first.is_last || first.messages.length === 0 ? 0n : BigInt(first.messages.at(-1)!.msg_id);
      const present = new Set(page.map(([id]) => id));
      for (const [id] of before.page) {
        if (BigInt(id) >= floor && !present.has(id)) events.push({ kind: 'recalled', conversationId: peer, messageId: toInt64(id) });
      }

      const state = encode({ newest: received.length ? String(received.at(-1)!.msg_id) : before.newest, page });
      return events.length ? { state, payload: events } : { state };
    },
  };
}

const encode = (state: State) => stringifyJson(state);
