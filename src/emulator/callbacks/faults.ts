// The faults the emulator plays on its callbacks (EMULATOR_CALLBACK_FAULTS, src/config/
// callback-faults.ts): each callback draws, in a fixed order, whether it is dropped, duplicated,
// delayed and held back for reordering. The draws come from a seeded generator, so that the same
// seed and the same messages give the same faults (tests, and a client team reproducing a bug).
import type { CallbackFaults } from '../../config';

export interface FaultPlan {
  drop: boolean;
  duplicate: boolean;
  /** 0: sent at once. */
  delayMs: number;
  /** Held back until the next callback has gone. */
  reorder: boolean;
}

/** mulberry32: a small, fast generator with a 32-bit state; plenty for percentages. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Draws the faults of each callback in turn. */
export function faultPlanner(faults: CallbackFaults): () => FaultPlan {
  const random = generator(faults.seed ?? Math.floor(Math.random() * 2 ** 32));
  // Every draw is made whatever the earlier ones gave: one callback's faults never shift the next's.
  const hit = (percent: number) => random() * 100 < percent;
  return () => {
    const drop = hit(faults.drop);
    const duplicate = hit(faults.duplicate);
    const delayed = hit(faults.delay);
    const reorder = hit(faults.reorder);
    return { drop, duplicate, delayMs: delayed ? faults.delayMs : 0, reorder };
  };
}
