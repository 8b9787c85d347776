// When a failed attempt is tried again. Only GETs are retried, only when the upstream was not
// reached or answered 502/503/504: a write that may have happened is never repeated. (GET
// /message/ack records a read receipt, which is idempotent: retrying it is safe.) The wait before
// retry n is a random delay in [0, base * 2^(n-1)) ("full jitter").
import { setTimeout as sleep } from 'node:timers/promises';
import { UpstreamError } from './errors';
import type { HttpMethod } from './table';

export interface RetryOptions {
  /** Extra attempts after the first. */
  readonly retries: number;
  /** The backoff's base, in ms. */
  readonly baseDelayMs: number;
}

const RETRY_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/** Whether a failure may be tried again (for a method that allows it): the upstream unreached, or briefly unable. */
export function isTransient(err: unknown): boolean {
  return err instanceof UpstreamError && (err.kind === 'unavailable' || (err.kind === 'http' && RETRY_STATUSES.has(err.httpStatus ?? 0)));
}

/** Whether attempt `attempt` of a `method` call, failed with `err`, is followed by another. */
export function retries(options: RetryOptions, method: HttpMethod, err: unknown, attempt: number): boolean {
  return method === 'GET' && isTransient(err) && attempt <= options.retries;
}

/** The wait before the attempt after `attempt` (a draw of the jitter: `random` in [0, 1)). */
export function backoffMs(options: RetryOptions, attempt: number, random: number = Math.random()): number {
  return random * options.baseDelayMs * 2 ** (attempt - 1);
}

/**
 * Waits before the attempt after `attempt`, which failed with `err`; throws `err` when that
 * failure is final, and the caller's abort reason when `signal` ends the wait.
 */
export async function retryAfter(
  options: RetryOptions,
  method: HttpMethod,
  signal: AbortSignal | undefined,
  err: unknown,
  attempt: number,
): Promise<void> {
  if (!retries(options, method, err, attempt)) throw err;
  try {
    await sleep(backoffMs(options, attempt), undefined, signal ? { signal } : undefined);
  } catch {
    // Aborted while waiting: answer with the caller's reason, as an aborted attempt does.
    throw signal?.reason;
  }
}
