// conversationEvents: what happens in one conversation, found by polling its newest page (GET
// /message/conversation) and comparing it with what the rounds before saw. New messages are those
// above the newest ID seen (older pages are read when a whole page is new). The poll watches the
// newest WATCHED messages it has seen (the newest page when it started, then every new message):
// a watched message that is gone while older ones remain was recalled (or the conversation was
// deleted for the caller); one whose status turned READ was read. The newest page is compared
// every round; watched messages below it are re-read every DEEP_EVERY rounds only, with one more
// call (so a recall or read of an older message shows up to DEEP_EVERY intervals late), and only
// while there are some. The state is the newest ID and the watched IDs with their statuses.
//
// Edits (APPEND/REPLACE records) arrive as new messages (`received`, which the schema turns into
// MessageChanged); they are not watched: only the messages they change are read or recalled.
//
// The first round sets the state and publishes a `baseline` marker with the newest ID: a
// subscriber resuming after a message ID (resume.ts) learns from it up to where it must read
// itself. Reading a page marks the caller's UNREAD messages DELIVERED, as any read does.
import { parseJson, stringifyJson, toInt64, type Int64 } from '../rest/json';
import { isEdit, type MessageRecord, type MessageStatus } from '../rest/records';
import { pageReader, readSpan } from './history-reader';
import type { Source } from './source';

export type ConversationEvent =
  | { kind: 'received'; conversationId: Int64; message: MessageRecord }
  | { kind: 'recalled'; conversationId: Int64; messageId: Int64 }
  /** Messages whose status as the caller sees it turned READ, oldest first. */
  | { kind: 'read'; conversationId: Int64; messages: MessageRecord[] }
  /** The poll's first round: it reports what comes after `newest`. Not for subscribers. */
  | { kind: 'baseline'; conversationId: Int64; newest: Int64 };

type Watched = [string, MessageStatus];

interface State {
  newest: string;
  /** The watched messages, newest first. */
  watched: Watched[];
  /** Rounds since the watched messages below the newest page were last re-read. */
  idle: number;
}

const PAGE = 20;
const MAX_NEW = 100;
/** How many messages are watched for recalls and reads. */
export const WATCHED = 100;
/** Every how many rounds the watched messages below the newest page are re-read. */
export const DEEP_EVERY = 5;

/** The watched entries of records (newest first): the messages, not the edits. */
const watch = (list: readonly MessageRecord[]): Watched[] => list.filter((m) => !isEdit(m)).map((m) => [String(m.msg_id), m.status]);
const idOf = ([id]: Watched) => BigInt(id);

export function conversationEventsSource(peer: Int64): Source<ConversationEvent[]> {
  return {
    name: `events:${String(peer)}`,
    replay: false,
    async poll(rest, caller, text, signal) {
      const read = pageReader(rest, caller, peer, signal);
      const first = await read(0, PAGE);
      if (text === undefined) {
        const newest = first.messages[0] ? String(first.messages[0].msg_id) : '0';
        const state = { newest, watched: watch(first.messages), idle: 0 };
        return { state: encode(state), payload: [{ kind: 'baseline', conversationId: peer, newest: toInt64(newest) }] };
      }
      const before = decode(text);
      const known = BigInt(before.newest);
      // The first page answers most rounds; older pages only when all of it is new.
      const allNew = first.messages.length > 0 && BigInt(first.messages.at(-1)!.msg_id) > known && !first.is_last;
      const older = allNew ? (await readSpan(read, known, first.next_msg_id, PAGE, MAX_NEW)).messages : [];
      const received = [...older, ...first.messages.filter((m) => BigInt(m.msg_id) > known).reverse()];
      const events: ConversationEvent[] = received.map((message) => ({ kind: 'received', conversationId: peer, message }));

      // What this round sees of the watched messages: the newest page, and now and then the rest.
      const pageFloor = first.is_last || first.messages.length === 0 ? 0n : BigInt(first.messages.at(-1)!.msg_id);
      const below = before.watched.filter((w) => idOf(w) < pageFloor);
      const due = below.length > 0 && older.length === 0 && before.idle + 1 >= DEEP_EVERY;
      let reread: MessageRecord[] = [];
      let floor = pageFloor;
      if (due) {
        const oldest = idOf(below.at(-1)!);
        const span = await readSpan(read, oldest - 1n, first.next_msg_id, below.length, WATCHED);
        reread = span.messages;
        floor = span.truncated && reread.length > 0 ? BigInt(reread[0]!.msg_id) : oldest;
      }
      const seen = [...reread, ...[...first.messages].reverse()]; // oldest first

      const statusBefore = new Map(before.watched);
      const turnedRead = (m: MessageRecord) => m.status === 'READ' && (statusBefore.get(String(m.msg_id)) ?? 'READ') !== 'READ';
      const nowRead = seen.filter((m) => !isEdit(m) && turnedRead(m));
      if (nowRead.length > 0) events.push({ kind: 'read', conversationId: peer, messages: nowRead });

      // Gone from the part of the conversation this round covered.
      const present = new Set(seen.map((m) => String(m.msg_id)));
      for (const w of [...before.watched].reverse()) {
        if (idOf(w) >= floor && !present.has(w[0])) events.push({ kind: 'recalled', conversationId: peer, messageId: toInt64(w[0]) });
      }

      const watched = [
        ...watch(first.messages),
        ...watch([...older].reverse()),
        ...watch([...reread].reverse()),
        ...before.watched.filter((w) => idOf(w) < floor),
      ].slice(0, WATCHED);
      const newest = received.length ? String(received.at(-1)!.msg_id) : before.newest;
      const state = encode({ newest, watched, idle: due ? 0 : Math.min(before.idle + 1, DEEP_EVERY) });
      return events.length ? { state, payload: events } : { state };
    },
  };
}

const encode = (state: State) => stringifyJson(state);

/** The newest message ID a poll's state knows: where its subscribers stand. */
export const newestOf = (text: string): string => decode(text).newest;

/** A state written by this version, or by the one before it (`page`: the newest page only). */
function decode(text: string): State {
  const state = parseJson(text) as Partial<State> & { newest: string; page?: Watched[] };
  return { newest: state.newest, watched: state.watched ?? state.page ?? [], idle: state.idle ?? 0 };
}
