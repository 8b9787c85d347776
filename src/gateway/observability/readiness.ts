// Readiness from the REST calls the gateway makes anyway: not ready only when the last N calls
// all failed because of the service itself (5xx, or no connection) within a recent window. Slow
// is not down (a timeout counts neither way), a business error or a 4xx is an answer, and
// failures older than the window are stale: a replica taken out of rotation comes back to try.
import type { CallInfo } from '../../rest/client';

interface ReadinessOptions {
  /** Consecutive failing calls that make the gateway not ready. */
  failedCalls: number;
  /** Those calls must all lie within this window, up to now. */
  windowMs: number;
  now?: () => number;
}

interface Readiness {
  /** Reads how a REST attempt ended (rest-calls.ts). */
  record(info: CallInfo): void;
  /** Why the gateway is not ready, or undefined when it is. */
  problem(): string | undefined;
}

function outcome(info: CallInfo): 'ok' | 'failed' | 'neither' {
  if (info.error === 'unavailable' || (info.status !== undefined && info.status >= 500)) return 'failed';
  if (info.error === 'timeout') return 'neither';
  return 'ok';
}

export function createReadiness(options: ReadinessOptions): Readiness {
  const now = options.now ?? Date.now;
  const n = options.failedCalls;
  // Times of the current run of failures, the last n of them (a ring).
  const failedAt = new Array<number>(n).fill(0);
  let run = 0;
  return {
    record(info) {
      const result = outcome(info);
      if (result === 'ok') run = 0;
      if (result !== 'failed') return;
      failedAt[run % n] = now();
      run++;
    },
    problem() {
      if (run < n) return undefined;
      // The oldest of the last n failures sits where the next one will go.
      const oldest = failedAt[run % n]!;
      if (now() - oldest > options.windowMs) return undefined;
      return `the last ${n} calls to the IM service failed (5xx or unreachable) within ${options.windowMs} ms`;
    },
  };
}
