// The fleet's side of subscription slots, apart from both its users (slots.ts, which loads the
// Redis one on demand, and slots-redis.ts, which implements it), so that neither imports the other's types.

/** The fleet's count: whether an identity may hold `mine` slots on this replica (the others' added). */
export interface SlotStore {
  claim(key: string, mine: number): Promise<boolean>;
  /** This replica now holds `mine` slots of the identity (0: none); kept alive until then. */
  report(key: string, mine: number): void;
  close(): Promise<void>;
}
