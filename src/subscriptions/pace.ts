// How often a topic is polled. Without callbacks, every poll runs at the fast interval
// (POLL_INTERVAL_MS), as it always did. Once the service's message callbacks arrive, the polls of
// pushed and slowed fields (live-source.ts) run at the slow interval: they are the safety net. The
// net puts an identity back on the fast interval when a poll finds a message that no callback
// brought (until a callback concerning the identity arrives again), and the whole replica when
// that happens while no callback at all arrived for a slow interval (the callbacks stopped: until
// the next one arrives). Each fallback is logged and counted. A pure policy: the hub feeds it.
import type { Feed } from './live-source';

interface PaceOptions {
  fastMs: number;
  slowMs: number;
  /** An identity, or the replica (identity undefined), went back to the fast interval. */
  onFallback(identity: string | undefined, why: string): void;
}

/** Identities on the fast interval at once, at most (beyond: the replica falls back as a whole). */
const MAX_FAST = 10_000;

export class Pace {
  /** Callbacks arrive (and no fallback of the replica since the last one). */
  private pushing = false;
  private lastCallbackAt = -Infinity;
  private readonly fast = new Set<string>();

  constructor(private readonly options: PaceOptions) {}

  /** Whether the polls are slowed (callbacks flow): for the metrics and tests. */
  get slowed(): boolean {
    return this.pushing;
  }

  intervalOf(identity: string, feed: Feed): number {
    if (feed === 'polled' || !this.pushing || this.fast.has(identity)) return this.options.fastMs;
    return this.options.slowMs;
  }

  /** A callback arrived, concerning these identities (on this replica): they are on the slow interval again. */
  callback(identities: Iterable<string>, now = Date.now()): void {
    this.pushing = true;
    this.lastCallbackAt = now;
    for (const identity of identities) this.fast.delete(identity);
  }

  /**
   * A poll of `identity` found messages no callback brought. Answers whom it moved to the fast
   * interval: the identity, the replica (callbacks stopped), or nobody (no callbacks to slow anything).
   */
  unexplained(identity: string, ids: readonly string[], now = Date.now()): 'identity' | 'replica' | undefined {
    if (!this.pushing) return undefined;
    const what = `${ids.length} message(s) (${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ', ...' : ''})`;
    if (now - this.lastCallbackAt > this.options.slowMs || this.fast.size >= MAX_FAST) {
      this.pushing = false;
      this.fast.clear();
      this.options.onFallback(undefined, `a poll found ${what} and no callback arrived for ${now - this.lastCallbackAt} ms`);
      return 'replica';
    }
    if (this.fast.has(identity)) return undefined;
    this.fast.add(identity);
    this.options.onFallback(identity, `a poll found ${what} that no callback brought`);
    return 'identity';
  }
}
