// Identifier sources. User and group IDs sit in the real service's range (about 2e12, below
// 2^53); message IDs are 64-bit, far above 2^53, and increase with time like the real ones.
import { randomInt } from 'node:crypto';

class Sequence {
  constructor(private next: number) {}
  take(): number {
    return this.next++;
  }
}

/**
 * Message IDs: milliseconds shifted left by 20 bits plus random low bits, strictly increasing.
 * The random part matters: `ms << 20` alone ends in 20 zero bits, which a double holds exactly,
 * so JSON.parse would not corrupt it and int64 bugs would go unseen.
 */
class MessageIds {
  private last = 0n;
  take(nowMs: number): bigint {
    const candidate = (BigInt(nowMs) << 20n) + BigInt(randomInt(1, 1 << 19));
    this.last = candidate > this.last ? candidate : this.last + 1n;
    return this.last;
  }
}

export function createIds() {
  return {
    user: new Sequence(2_000_000_000_001),
    group: new Sequence(4_000_000_000_001),
    settings: new Sequence(1),
    announcement: new Sequence(100_001),
    file: new Sequence(500_001),
    pushTask: new Sequence(9_000_000_001),
    message: new MessageIds(),
  };
}

export type Ids = ReturnType<typeof createIds>;
