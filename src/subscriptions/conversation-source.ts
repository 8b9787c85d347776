// conversationMessages: the new messages of one conversation, found by reading its newest page
// (GET /message/conversation, msg_id_start=0) and keeping those above the newest ID seen before.
// The state is that ID. The first round only sets it: a subscriber gets what arrives after it
// subscribed. When a whole page is new, older pages are read until the known ID shows up, so
// nothing is missed while fewer than PAGE * MAX_PAGES messages arrive between two rounds; beyond
// that the round says it is incomplete and the subscriptions end (topic.ts).
//
// Reading a page marks the reader's UNREAD messages DELIVERED in the service (as any client's read
// does): a subscriber that received a message has had it delivered.
import type { Int64 } from '../rest/json';
import type { MessageRecord } from '../rest/records';
import type { Source, StreamCursor } from './source';

const PAGE = 20;
const MAX_PAGES = 5;

export function conversationSource(peer: Int64): Source<MessageRecord[]> {
  return {
    name: `conversation:${String(peer)}`,
    replay: false,
    async poll(rest, caller, state, signal) {
      const read = async (start: Int64, limit: number) =>
        (await rest.call('GET /message/conversation', { opposite_id: peer, msg_id_start: start, limit }, caller, { signal })).data;

      if (state === undefined) {
        // The baseline: the newest ID is all we need (one message, and one marked DELIVERED).
        const newest = (await read(0, 1)).messages[0];
        return { state: newest ? String(newest.msg_id) : '0' };
      }

      const fresh: MessageRecord[] = [];
      let incomplete = false;
      let page = await read(0, PAGE);
      for (let pages = 1; ; pages++) {
        // Newest first: stop at the first message already known.
        const news = messageCursor.after(page.messages, state) ?? [];
        fresh.push(...news);
        const reachedKnown = news.length < page.messages.length;
        if (reachedKnown || page.is_last || page.messages.length === 0) break;
        if (pages >= MAX_PAGES) {
          // The known ID did not show up: older new messages are out of reach.
          incomplete = true;
          break;
        }
        page = await read(page.next_msg_id, PAGE);
      }
      if (fresh.length === 0) return { state };
      fresh.reverse(); // oldest first, as they happened
      return { state: String(fresh[fresh.length - 1]!.msg_id), payload: fresh, ...(incomplete ? { incomplete } : {}) };
    },
    cursor: messageCursor,
  };
}

const messageCursor: StreamCursor<MessageRecord[]> = {
  compare: (a, b) => {
    const x = BigInt(a);
    const y = BigInt(b);
    return x < y ? -1 : x > y ? 1 : 0;
  },
  after(messages, cursor) {
    const known = BigInt(cursor);
    const news = messages.filter((m) => BigInt(m.msg_id) > known);
    return news.length > 0 ? news : undefined;
  },
};
