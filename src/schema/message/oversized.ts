// History pages the gateway cannot read whole. The REST client reads at most 8 MiB of an answer
// (rest/client.ts); a message grown past it by appends once made its whole conversation unreadable
// (`conversation(with:, last: 1)` failed, the home list lost `lastMessage`). A page refused for its
// size is read again in halves, down to single messages; a single message that alone is too large
// is listed as a marker: its ID (and what else precedes its content) recovered from the first bytes
// of the refused answer (rest/body.ts keeps them), `oversized: true`, and no content. Its ID is
// where the next read goes on from, so the rest of the conversation lists as usual.
// Recovery needs the message's `msg_id` before its content in those first bytes (the emulator's
// order, and the service's as far as its clients show); otherwise the page fails as before.
import type { ConversationPage, MessageRecord } from '../../rest/records';
import { type Int64, toInt64 } from '../../rest/json';
import { upstreamCause } from '../core/upstream-errors';

/** A message record that stands for one too large to read: no content, and only what its answer's first bytes told. */
export type OversizedRecord = MessageRecord & { oversized: true };

/** Whether a message (a record, or a parent made of one) is such a marker. */
export const isOversized = (m: object): boolean => (m as Partial<OversizedRecord>).oversized === true;

/** The first bytes of an answer refused for its size, when that is why `err` failed. */
function headOfTooLarge(err: unknown): string | undefined {
  const upstream = upstreamCause(err);
  return upstream?.kind === 'invalid-body' ? upstream.bodyHead : undefined;
}

/**
 * A number or string member of the first message of a page, read outside JSON strings: inside one
 * every quote is escaped, so a content that spells `"msg_id":1` cannot be taken for the member.
 */
function member(head: string, name: string, pattern: string): string | undefined {
  return new RegExp(`"${name}"\\s*:\\s*(${pattern})`).exec(head)?.[1];
}

/** The one message of a `limit: 1` page refused for its size, from the page's first bytes; undefined without its ID. */
export function oversizedRecord(head: string): OversizedRecord | undefined {
  const messages = head.indexOf('"messages"');
  if (messages < 0) return undefined;
  const first = head.slice(messages);
  const id = member(first, 'msg_id', '\\d{1,19}');
  if (id === undefined) return undefined;
  const ctype = member(first, 'ctype', '"[A-Z_]{1,20}"')?.slice(1, -1);
  const status = member(first, 'status', '"[A-Z_]{1,20}"')?.slice(1, -1);
  const timestamp = member(first, 'timestamp', '\\d{1,19}');
  return {
    oversized: true,
    msg_id: toInt64(id),
    // Unknown members stay empty: the Message fields read them as null (message.ts).
    ctype: (ctype ?? '') as MessageRecord['ctype'],
    status: (status ?? '') as MessageRecord['status'],
    timestamp: toInt64(timestamp ?? '0'),
    content: '',
    attachment: '',
    config: '',
    ext: '',
    from_xid: { uid: toInt64('0'), device_sn: 0 },
    to_xid: { uid: toInt64('0'), device_sn: 0 },
  };
}

/**
 * Reads a page of `size` messages from `from` with `read`; a page refused for its size is read in
 * halves (the older half from where the newer one ended), and a single message too large to read
 * becomes its marker. Any other failure, or a single message whose ID cannot be recovered, fails.
 */
export async function readSplitting(
  read: (from: Int64, size: number) => Promise<ConversationPage>,
  from: Int64,
  size: number,
): Promise<ConversationPage> {
  try {
    return await read(from, size);
  } catch (err) {
    const head = headOfTooLarge(err);
    if (head === undefined) throw err;
    if (size === 1) {
      const marker = oversizedRecord(head);
      if (!marker) throw err;
      // Whether older messages remain is not known: the next read tells.
      return { is_last: false, messages: [marker], next_msg_id: marker.msg_id };
    }
    const newer = await readSplitting(read, from, Math.ceil(size / 2));
    if (newer.is_last || newer.messages.length === 0) return newer;
    const older = await readSplitting(read, newer.next_msg_id, size - Math.ceil(size / 2));
    return { is_last: older.is_last, messages: [...newer.messages, ...older.messages], next_msg_id: older.next_msg_id };
  }
}
