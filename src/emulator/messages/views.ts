// A user's view of one conversation: what that user deleted, acked and had delivered. History is
// shared; these watermarks make "delete for me", read receipts and unread counts per user.
import type { Conversation } from './conversation';
import type { Peer } from './model';

export class ConversationView {
  /** Messages with id <= since are gone from this user's view (5.3 delete conversation). */
  since = 0n;
  /** Messages with id <= readUpTo are READ for this user (5.1 ack). */
  readUpTo = 0n;
  /** Messages returned by a page (5.2) but not acked yet: DELIVERED. */
  readonly delivered = new Set<bigint>();
  /** Newest message that reached this view, and its time (ms): they order the recent list. */
  lastActivity = 0n;
  lastActivityAt = 0;

  constructor(
    readonly ownerId: number,
    /** The other side as this user sees it: its id is the conversation_id / opposite_id. */
    readonly peer: Peer,
    readonly conversation: Conversation,
  ) {}

  markRead(upTo: bigint): void {
    if (upTo > this.readUpTo) this.readUpTo = upTo;
    for (const id of this.delivered) if (id <= this.readUpTo) this.delivered.delete(id);
  }

  /** Whether the view belongs in the recent list: a message reached it since it was last cleared. */
  get recent(): boolean {
    return this.lastActivity > this.since;
  }

  /** Hides everything up to now; later messages show again. */
  clear(): void {
    // lastActivity too: it may name a recalled message, newer than the last one left.
    for (const last of [this.conversation.last?.id ?? 0n, this.lastActivity]) if (last > this.since) this.since = last;
    this.delivered.clear();
  }
}
