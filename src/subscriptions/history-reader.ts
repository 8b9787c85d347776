// Reading a span of one conversation's history as the caller: the service pages backwards from a
// message ID (exclusive; 0 = the newest), so a span (low, high) is read from `high` down until a
// message at or below `low` shows up. Bounded: at most `maxMessages` are read.
import type { Caller } from '../rest/caller';
import type { RestClient } from '../rest/client';
import type { Int64 } from '../rest/json';
import type { ConversationPage, MessageRecord } from '../rest/records';

export type PageReader = (start: Int64, limit: number) => Promise<ConversationPage>;

/** A reader of the conversation with `peer`, as `caller`. */
export function pageReader(rest: RestClient, caller: Caller, peer: Int64, signal?: AbortSignal): PageReader {
  return async (start, limit) =>
    (await rest.call('GET /message/conversation', { opposite_id: peer, msg_id_start: start, limit }, caller, signal ? { signal } : {}))
      .data;
}

interface Span {
  /** The messages above `low` (and below `high`), oldest first. */
  messages: MessageRecord[];
  /** Whether the bound stopped the read before it reached `low`: older ones were left out. */
  truncated: boolean;
}

/** The messages with low < ID < high (high 0: up to the newest), oldest first. */
export async function readSpan(read: PageReader, low: bigint, high: Int64, pageSize: number, maxMessages: number): Promise<Span> {
  const newestFirst: MessageRecord[] = [];
  let start = high;
  for (;;) {
    const page = await read(start, Math.min(pageSize, maxMessages - newestFirst.length));
    const above = page.messages.filter((m) => BigInt(m.msg_id) > low);
    newestFirst.push(...above);
    const reachedLow = above.length < page.messages.length;
    if (reachedLow || page.is_last || page.messages.length === 0) return { messages: newestFirst.reverse(), truncated: false };
    if (newestFirst.length >= maxMessages) return { messages: newestFirst.reverse(), truncated: true };
    start = page.next_msg_id;
  }
}
