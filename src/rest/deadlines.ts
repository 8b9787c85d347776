// Call deadlines kept by one shared coarse clock instead of a timer per call: attempts in flight
// sit in an insertion-ordered set, and one interval (running only while the set is not empty,
// unref'd so it never keeps the process alive; it stops itself once nothing is watched) expires the overdue ones. Every attempt of a client
// gets the same time limit, so insertion order is deadline order: a tick stops at the first
// attempt not yet due, and watching or forgetting an attempt is one Set operation.

/** What the clock can expire: an attempt in flight. */
export interface Expiring {
  /** performance.now() past which the attempt is overdue; set by `watch`. */
  deadline: number;
  /** Ends the attempt as timed out (called once, after the clock has forgotten it). */
  expire(): void;
}

/** The reason an attempt is ended with when its time is up, told apart from a caller's abort. */
export class AttemptTimedOut extends Error {
  constructor(timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
  }
}

// The clock's period: small enough that a deadline is met within ~25 ms, and at most a quarter
// of the limit (a 50 ms limit is met within ~12 ms).
const MAX_TICK_MS = 25;

export interface Deadlines {
  /** Starts the attempt's time limit now. */
  watch(entry: Expiring): void;
  /** The attempt ended: stop watching it. */
  forget(entry: Expiring): void;
}

export function deadlines(timeoutMs: number): Deadlines {
  const live = new Set<Expiring>();
  const period = Math.max(1, Math.min(MAX_TICK_MS, Math.floor(timeoutMs / 4)));
  let ticker: NodeJS.Timeout | undefined;

  function tick() {
    const now = performance.now();
    for (const entry of live) {
      if (entry.deadline > now) break;
      live.delete(entry);
      entry.expire();
    }
    if (live.size === 0) {
      clearInterval(ticker);
      ticker = undefined;
    }
  }

  return {
    watch(entry) {
      entry.deadline = performance.now() + timeoutMs;
      live.add(entry);
      if (ticker === undefined) {
        ticker = setInterval(tick, period);
        ticker.unref();
      }
    },
    forget(entry) {
      live.delete(entry);
    },
  };
}
