// One conversation's history: a user pair or a group, messages in ascending ID order. IDs grow
// with time, so appending keeps the order and every lookup is a binary search.
import type { StoredMessage } from './model';

export type ConversationKey = string;

/** A pair is the same conversation from both sides, hence the ordered pair. */
export const pairKey = (a: number, b: number): ConversationKey => (a < b ? `u:${a}:${b}` : `u:${b}:${a}`);
export const groupKey = (groupId: number): ConversationKey => `g:${groupId}`;

export class Conversation {
  /** Ascending by id. */
  readonly messages: StoredMessage[] = [];

  constructor(readonly key: ConversationKey) {}

  append(message: StoredMessage): void {
    this.messages.push(message);
  }

  get last(): StoredMessage | undefined {
    return this.messages[this.messages.length - 1];
  }

  /** Index of the first message whose id is >= bound (length when none). */
  lowerBound(bound: bigint): number {
    let lo = 0;
    let hi = this.messages.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.messages[mid]!.id < bound) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  find(id: bigint): StoredMessage | undefined {
    const m = this.messages[this.lowerBound(id)];
    return m?.id === id ? m : undefined;
  }

  remove(id: bigint): boolean {
    const at = this.lowerBound(id);
    if (this.messages[at]?.id !== id) return false;
    this.messages.splice(at, 1);
    return true;
  }
}
