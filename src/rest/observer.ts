// The one hook around every attempt (src/gateway/observability/: tracing, the call log,
// readiness, metrics): what an observer sees of an attempt as it starts and as it ends. An
// observer must never fail the call it observes: its own failures are swallowed here.
import { UpstreamError, type UpstreamErrorKind } from './errors';
import type { Prepared } from './prepare';
import type { HttpMethod } from './table';

/** How an attempt went. Holds no parameter values and no secrets. */
export interface CallInfo {
  endpoint: string;
  method: HttpMethod;
  path: string;
  /** HTTP status; absent when no answer arrived. */
  status?: number;
  ms: number;
  /** 1 for the first attempt. */
  attempt: number;
  /** Set when the attempt failed. */
  error?: UpstreamErrorKind;
  /** The envelope's code of a failed attempt, when it had one. */
  code?: number;
  /** The trace the attempt belongs to, set by a tracing observer before the others see it (for logs). */
  traceId?: string;
  spanId?: string;
}

/** An attempt about to be sent, as its observer sees it. */
export interface AttemptStart {
  /** The endpoint's table key ('GET /group/info'). */
  readonly endpoint: string;
  readonly method: HttpMethod;
  /** 1 for the first attempt. */
  readonly attempt: number;
  /** The call's trace context (CallOptions.trace), as its source handed it: the client never reads it. */
  readonly trace: unknown;
  /**
   * What the attempt sends. A call's attempts share this object: an observer that sends more (a
   * trace context) puts a copy with it here, and never changes the object in place.
   */
  headers: Record<string, string>;
}

/**
 * One hook around every attempt of every call and download. `start` runs just before the attempt
 * is sent and `end` once it is over, with whatever `start` answered (a span), how it went, and the
 * failure itself (an UpstreamError, or the caller's abort reason). An observer must not throw: a
 * failure in one is swallowed, never the call's.
 */
export interface CallObserver<S = unknown> {
  start?(attempt: AttemptStart): S;
  end(state: S, info: CallInfo, error: unknown): void;
}

/** An observed attempt: what its observer saw and what the observer's `start` answered (one object per attempt). */
export class Watched implements AttemptStart {
  state: unknown;

  constructor(
    readonly endpoint: string,
    readonly method: HttpMethod,
    readonly attempt: number,
    readonly trace: unknown,
    public headers: Record<string, string>,
  ) {}
}

/** The one observer of an observer and an end-only hook: `observer`, then `onCall`; none when neither is given. */
export function observerOf(observer: CallObserver | undefined, onCall: ((info: CallInfo) => void) | undefined): CallObserver | undefined {
  if (!onCall) return observer;
  if (!observer) return { end: (_state, info) => onCall(info) };
  return {
    ...(observer.start ? { start: (attempt: AttemptStart) => observer.start!(attempt) } : {}),
    end(state, info, error) {
      try {
        observer.end(state, info, error);
      } finally {
        onCall(info);
      }
    },
  };
}

/** Tells the observer an attempt starts; undefined when nothing observes (the attempt sends the call's headers). */
export function attemptStarted(observer: CallObserver | undefined, prepared: Prepared, attempt: number): Watched | undefined {
  if (!observer) return undefined;
  const watched = new Watched(prepared.p.name, prepared.p.method, attempt, prepared.trace, prepared.headers);
  try {
    if (observer.start) watched.state = observer.start(watched);
  } catch {
    // An observer must never fail the call it observes.
  }
  return watched;
}

/** Tells the observer of `watched` how its attempt, begun at `began` (performance.now()), ended. */
export function attemptEnded(
  observer: CallObserver | undefined,
  watched: Watched | undefined,
  prepared: Prepared,
  began: number,
  status: number | undefined,
  error: unknown,
): void {
  if (!observer || !watched) return;
  // Fields absent rather than undefined (logs list what is there), set in place rather than spread.
  const info: CallInfo = {
    endpoint: prepared.p.name,
    method: prepared.p.method,
    path: prepared.p.path,
    ms: performance.now() - began,
    attempt: watched.attempt,
  };
  if (status !== undefined) info.status = status;
  if (error instanceof UpstreamError) {
    info.error = error.kind;
    if (error.code !== undefined) info.code = error.code;
  }
  try {
    observer.end(watched.state, info, error);
  } catch {
    // A metrics hook must never fail the call it observes.
  }
}
