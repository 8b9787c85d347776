// transaction_id de-duplication: a repeat by the same sender within the window is not executed
// again and answers the first request's result (the message IDs of a send).
import type { Int64 } from '../../rest/json';

export class TransactionLog<T = bigint[]> {
  // Insertion order is time order (an entry is re-inserted when renewed), so expiry prunes the front.
  private readonly seen = new Map<string, { at: number; result: T }>();

  constructor(private readonly windowMs: number) {}

  /**
   * Runs `work` once per sender and transaction ID within the window; a repeat answers the first
   * run's result. Without a transaction ID it just runs. A run that throws is not remembered.
   */
  run(senderId: number, transactionId: Int64 | undefined, now: number, work: () => T): T {
    if (transactionId === undefined) return work();
    const key = `${senderId}:${BigInt(transactionId)}`;
    this.prune(now);
    const seen = this.seen.get(key);
    if (seen) return seen.result;
    const result = work();
    this.seen.set(key, { at: now, result });
    return result;
  }

  private prune(now: number): void {
    for (const [key, entry] of this.seen) {
      if (now - entry.at < this.windowMs) break;
      this.seen.delete(key);
    }
  }
}
