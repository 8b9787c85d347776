// Admission control at the GraphQL edge, on every transport (HTTP on either path, each operation
// of a batch, SSE, graphql-ws: the same envelop hooks run). It wraps the execution compiled
// execution chose, and shared execution wraps it in turn: an operation waits for admission when
// it is about to run, after every check (its estimate is the cost limit's), and one that shares
// an identical operation's execution waits for none and counts nothing (it costs nothing more).
// What an operation holds is released however it ends: its result, a throw, the end of a deferred
// or streamed answer, or the client leaving. A subscription holds its cost while it is set up
// only (its events are the pollers').
// Over a bound: 429 (the caller's) or 503 (the replica's) with `Retry-After`, code OVERLOADED;
// over WebSocket that operation's result with the error, the socket lives on.
import { type ExecutionArgs, type ExecutionResult, GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GatewayContext } from '../../context';
import type { Identity } from '../../identity';
import { estimateOf } from '../execution/cost';
import { releasing } from '../execution/subscription-limits';
import { type Admission, type Refusal, type Verdict, weightOf } from './admission';

/**
 * The key admission counts an identity's load under (in-process only: never logged): the rate
 * limit's bucket where tokens are proven (a made-up token per request counts as its address, not
 * as a fresh identity), else the identity as it names itself.
 */
export type AdmissionKey = (identity: Identity) => string;
export const claimedIdentity: AdmissionKey = (identity) => identity.text;

const STATUS = { identity: 429, replica: 503 } as const;

/** The refusal as clients get it; `http` only where there is an HTTP answer to carry it. */
export function overloaded(refusal: Refusal, retryAfterMs: number, overHttp: boolean): GraphQLError {
  const retryAfter = Math.max(1, Math.ceil(retryAfterMs / 1_000));
  const whose = refusal.scope === 'identity' ? 'this caller has too much work' : 'the gateway has too much work';
  return new GraphQLError(`Overloaded: ${whose} in progress (${refusal.reason}); retry after ${retryAfter} s`, {
    extensions: {
      code: 'OVERLOADED',
      scope: refusal.scope,
      retryAfter,
      ...(overHttp ? { http: { status: STATUS[refusal.scope], headers: { 'retry-after': String(retryAfter) } } } : {}),
    },
  });
}

/** An operation the cost limit did not see: the least weight. */
const UNESTIMATED = { calls: 1, upstreamBytes: 0 };

type Running = ExecutionResult | AsyncIterable<ExecutionResult>;
const isIterable = (value: unknown): value is AsyncIterable<ExecutionResult> =>
  typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
const isPromise = (value: unknown): value is Promise<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';

/** Runs `run`, calling `release` when what it started has ended (`untilDone`: a stream's last result; else its setup). */
function releasingAfter(run: () => unknown, release: () => void, untilDone: boolean): unknown {
  const settled = (result: unknown) => {
    if (untilDone && isIterable(result)) return releasing(result, release);
    release();
    return result as Running;
  };
  let started: unknown;
  try {
    started = run();
  } catch (err) {
    release();
    throw err;
  }
  if (!isPromise(started)) return settled(started);
  return started.then(settled, (err: unknown) => {
    release();
    throw err;
  });
}

/** A function that runs an operation (execute or subscribe), as envelop hands it on. */
type Run = (args: ExecutionArgs) => unknown;

export function useAdmission(admission: Admission, waitMs: number, keyOf: AdmissionKey = claimedIdentity): Plugin<GatewayContext> {
  /**
   * `run` admitted first: it starts once the operation is admitted (the HTTP request's abort
   * signal takes it out of the queue), and what it holds is released when it has ended
   * (`untilDone`: a stream's last result; else its setup). A refusal is the operation's result.
   */
  const admitted =
    (run: Run, untilDone: boolean): Run =>
    (args) => {
      const context = args.contextValue as GatewayContext & { request?: Request };
      const verdict = admission.enter(keyOf(context.identity), weightOf(estimateOf(context) ?? UNESTIMATED), context.request?.signal);
      const decide = (v: Verdict) =>
        v.admitted
          ? releasingAfter(() => run(args), v.release, untilDone)
          : { errors: [overloaded(v, waitMs, context.request !== undefined)] };
      return isPromise(verdict) ? verdict.then(decide) : decide(verdict);
    };

  return {
    onExecute({ executeFn, setExecuteFn }) {
      setExecuteFn(admitted(executeFn, true) as typeof executeFn);
    },
    onSubscribe({ subscribeFn, setSubscribeFn }) {
      setSubscribeFn(admitted(subscribeFn, false) as typeof subscribeFn);
    },
  };
}
