// Admission control at the GraphQL edge, on every transport (HTTP on either path, each operation
// of a batch, SSE, graphql-ws: the same envelop hooks run). The last plugin of all: it admits an
// operation once every other check has passed (its estimate is the cost limit's), and wraps
// whichever execution the plugins before it chose, so that what it holds is released however the
// operation ends: its result, a throw, the end of a deferred or streamed answer, or the client
// leaving. A subscription holds its cost while it is set up only (its events are the pollers').
// Over a bound: 429 (the caller's) or 503 (the replica's) with `Retry-After`, code OVERLOADED;
// over WebSocket that operation's result with the error, the socket lives on.
import { type ExecutionResult, GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GatewayContext } from '../../context';
import type { Identity } from '../../identity';
import { estimatedCalls } from '../execution/cost';
import { releasing } from '../execution/subscription-limits';
import type { Admission, Refusal, Verdict } from './admission';

/** The key admission counts an identity's load under (in-process only: never logged). */
export const admissionKey = (identity: Identity): string => identity.text;

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

interface Hooked {
  args: { contextValue?: unknown };
  setResultAndStopExecution(result: ExecutionResult): void;
}

export function useAdmission(admission: Admission, waitMs: number): Plugin<GatewayContext> {
  /** The verdict on this operation (the HTTP request's abort signal drops it from the queue). */
  const verdictOf = (context: GatewayContext & { request?: Request }): { verdict: Verdict | Promise<Verdict>; overHttp: boolean } => {
    const signal = context.request?.signal;
    return {
      verdict: admission.enter(admissionKey(context.identity), estimatedCalls(context) ?? 1, signal),
      overHttp: context.request !== undefined,
    };
  };

  /** Admits the operation, then has `wrap` hold its grant; on a refusal, that is its result. */
  const admit = (hooked: Hooked, wrap: (release: () => void) => void): void | Promise<void> => {
    const { verdict, overHttp } = verdictOf(hooked.args.contextValue as GatewayContext);
    const decide = (v: Verdict) => {
      if (v.admitted) wrap(v.release);
      else hooked.setResultAndStopExecution({ errors: [overloaded(v, waitMs, overHttp)] });
    };
    return isPromise(verdict) ? verdict.then(decide) : decide(verdict);
  };

  return {
    onExecute(hooked) {
      const { executeFn, setExecuteFn } = hooked;
      return admit(hooked, (release) => setExecuteFn((args) => releasingAfter(() => executeFn(args), release, true) as never));
    },
    onSubscribe(hooked) {
      const { subscribeFn, setSubscribeFn } = hooked;
      return admit(hooked, (release) => setSubscribeFn((args) => releasingAfter(() => subscribeFn(args), release, false) as never));
    },
  };
}
