// transaction_id de-duplication: a repeat by the same sender within the window is not executed
// again and answers the first request's message IDs.
export class TransactionLog {
  // Insertion order is time order (an entry is re-inserted when renewed), so expiry prunes the front.
  private readonly seen = new Map<string, { at: number; msgIds: bigint[] }>();

  constructor(private readonly windowMs: number) {}

  /** The message IDs of the same request within the window, if there was one. */
  recent(senderId: number, transactionId: bigint, now: number): bigint[] | undefined {
    this.prune(now);
    return this.seen.get(`${senderId}:${transactionId}`)?.msgIds;
  }

  remember(senderId: number, transactionId: bigint, now: number, msgIds: bigint[]): void {
    const key = `${senderId}:${transactionId}`;
    this.seen.delete(key);
    this.seen.set(key, { at: now, msgIds });
  }

  private prune(now: number): void {
    for (const [key, entry] of this.seen) {
      if (now - entry.at < this.windowMs) break;
      this.seen.delete(key);
    }
  }
}
