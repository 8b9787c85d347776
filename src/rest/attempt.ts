// One attempt of a call or a download, the same mechanism for both: its observer told it starts,
// its exchange (what it sends and how it reads the answer: json-exchange.ts, download.ts) run,
// whatever went wrong turned into one UpstreamError (or the caller's abort reason), and its
// observer told how it ended. `attempts` runs them until one succeeds or the retry policy stops.
import { BodyTooLarge } from './body';
import { AttemptTimedOut } from './deadlines';
import { UpstreamError } from './errors';
import { attemptEnded, attemptStarted, type CallObserver } from './observer';
import type { Prepared } from './prepare';
import { type RetryOptions, retryAfter } from './retry-policy';

/** What an exchange records of its attempt as it goes, for the observer and the failure. */
export interface Answer {
  /** The HTTP status, once an answer arrived. */
  status?: number;
  /** Set when the attempt's own time limit ended it (the error thrown may be undici's abort). */
  timedOut?: boolean;
}

/** Sends one attempt of a prepared call with `headers` (its observer's, or the call's) and reads its answer. */
export type Exchange<T> = (
  prepared: Prepared,
  headers: Record<string, string>,
  signal: AbortSignal | undefined,
  answer: Answer,
) => Promise<T>;

/** What every attempt of a client shares. */
export interface AttemptSettings {
  readonly observer: CallObserver | undefined;
  readonly retry: RetryOptions;
  /** For the failures' words: the limits an attempt ran under. */
  readonly callTimeoutMs: number;
  readonly connectTimeoutMs: number;
}

/** The UpstreamError (or the caller's abort reason) for an error thrown by undici or a body read. */
export function failureOf(settings: AttemptSettings, prepared: Prepared, err: unknown, timedOut: boolean, signal?: AbortSignal): unknown {
  if (err instanceof UpstreamError) return err;
  const endpoint = prepared.p.name;
  if (signal?.aborted) return signal.reason;
  if (err instanceof BodyTooLarge)
    return new UpstreamError({
      endpoint,
      kind: 'invalid-body',
      detail: err.message,
      // The head of the refused body: enough to name the items of a page (schema/message/oversized.ts).
      ...(err.head === undefined ? {} : { bodyHead: err.head }),
    });
  const code = (err as { code?: unknown } | null)?.code;
  // undici refusing our request is a bug of ours, not an upstream failure: let it surface as one.
  if (code === 'UND_ERR_INVALID_ARG') return err;
  if (timedOut || err instanceof AttemptTimedOut || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return new UpstreamError({ endpoint, kind: 'timeout', detail: `no answer within ${settings.callTimeoutMs} ms`, cause: err });
  }
  const what =
    code === 'UND_ERR_CONNECT_TIMEOUT' ? `connect timed out after ${settings.connectTimeoutMs} ms` : String(code ?? 'network error');
  return new UpstreamError({ endpoint, kind: 'unavailable', detail: `upstream unreachable (${what})`, cause: err });
}

/** Attempt number `attempt` of a prepared call: its exchange's answer, or its failure as `failureOf` words it. */
export async function attempt<T>(
  settings: AttemptSettings,
  prepared: Prepared,
  attempt: number,
  signal: AbortSignal | undefined,
  exchange: Exchange<T>,
): Promise<T> {
  const began = performance.now();
  const watched = attemptStarted(settings.observer, prepared, attempt);
  const answer: Answer = {};
  try {
    const value = await exchange(prepared, watched ? watched.headers : prepared.headers, signal, answer);
    attemptEnded(settings.observer, watched, prepared, began, answer.status, undefined);
    return value;
  } catch (err) {
    const failed = failureOf(settings, prepared, err, answer.timedOut === true, signal);
    attemptEnded(settings.observer, watched, prepared, began, answer.status, failed);
    throw failed;
  }
}

/**
 * Attempts until one succeeds or fails for good, then `ok` of its answer or `fail` of its failure.
 * The first attempt is made at once and the retry loop entered only after a failure, so that a
 * call that succeeds makes no promise or closure beyond its attempt's.
 */
export function attempts<T, R>(
  settings: AttemptSettings,
  prepared: Prepared,
  signal: AbortSignal | undefined,
  exchange: Exchange<T>,
  ok: (value: T) => R,
  fail: (err: unknown) => never,
): Promise<R> {
  return attempt(settings, prepared, 1, signal, exchange).then(ok, (err: unknown) =>
    retried(settings, prepared, signal, exchange, err).then(ok, fail),
  );
}

/** The attempts after the first, which failed with `failed`, as the retry policy allows them. */
async function retried<T>(
  settings: AttemptSettings,
  prepared: Prepared,
  signal: AbortSignal | undefined,
  exchange: Exchange<T>,
  failed: unknown,
): Promise<T> {
  for (let n = 1; ; n++) {
    await retryAfter(settings.retry, prepared.p.method, signal, failed, n);
    try {
      return await attempt(settings, prepared, n + 1, signal, exchange);
    } catch (err) {
      failed = err;
    }
  }
}
